// The fake Electron's `app` (see electron.mjs): names and paths, `ready`, the single-instance
// lock shared between processes through the userData dir (as Chromium's on Linux), quit and exit.
import { EventEmitter } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appPath, exitNow, record, runtime } from './recorder.mjs';
import { windows } from './fake-windows.mjs';

const env = process.env;
const paths = new Map([
  ['home', os.homedir()],
  ['temp', os.tmpdir()],
  ['appData', env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config')],
]);
let appName = 'Electron';
let lockFile = /** @type {string | undefined} */ (undefined);
const releaseLock = () => lockFile && rmSync(lockFile, { force: true });
let quitting = false;


class FakeApp extends EventEmitter {
  constructor() {
    super();
    // FAKE_ELECTRON_PACKAGED=1: as an installed app (app.asar) reports itself.
    this.isPackaged = env.FAKE_ELECTRON_PACKAGED === '1';
    this.commandLine = { appendSwitch() {}, hasSwitch: () => false, getSwitchValue: () => '' };
    if (process.platform === 'darwin') {
      this.dock = {
        show: async () => void record('app.dock.show'),
        hide: () => void record('app.dock.hide'),
      };
    }
    if (process.platform === 'win32') {
      // Windows only in Electron (the binding exists only there).
      this.setAppUserModelId = (/** @type {string} */ id) => void record('app.setAppUserModelId', { id });
    }
  }
  whenReady() {
    return readyPromise;
  }
  isReady() {
    return runtime.ready;
  }
  getName() {
    return appName;
  }
  setName(/** @type {string} */ name) {
    record('app.setName', { name });
    appName = name;
  }
  getVersion() {
    return JSON.parse(readFileSync(path.join(appPath, 'package.json'), 'utf8')).version;
  }
  getAppPath() {
    return appPath;
  }
  /** @param {string} name @returns {string} */
  getPath(name) {
    if (name === 'userData') return paths.get('userData') ?? path.join(paths.get('appData') ?? '', appName);
    if (name === 'logs') return path.join(this.getPath('userData'), 'logs');
    const value = paths.get(name);
    if (!value) throw new Error(`Failed to get '${name}' path`);
    return value;
  }
  setPath(/** @type {string} */ name, /** @type {string} */ value) {
    record('app.setPath', { name, value });
    paths.set(name, value);
  }
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false, status: 'not-registered', executableWillLaunchAtLogin: false, launchItems: [] };
  }
  setLoginItemSettings(/** @type {unknown} */ settings) {
    record('app.setLoginItemSettings', { settings });
  }
  focus() {
    record('app.focus');
  }
  /**
   * Chromium's process singleton, as on Linux: a lock in the userData dir naming the owner's pid;
   * a second instance leaves its request there for the first and gets `false`.
   * @param {Record<string, unknown>} [additionalData]
   */
  requestSingleInstanceLock(additionalData) {
    const dir = this.getPath('userData');
    mkdirSync(path.join(dir, 'SingletonMessages'), { recursive: true });
    const file = path.join(dir, 'SingletonLock');
    let owner = 0;
    try {
      owner = Number(readFileSync(file, 'utf8'));
    } catch {
      // no lock yet
    }
    if (owner && owner !== process.pid && alive(owner)) {
      const message = path.join(dir, 'SingletonMessages', `${Date.now()}-${process.pid}.json`);
      writeFileSync(`${message}.tmp`, JSON.stringify({ argv: process.argv, cwd: process.cwd(), additionalData: additionalData ?? null }));
      renameSync(`${message}.tmp`, message);
      record('app.requestSingleInstanceLock', { additionalData, got: false });
      return false;
    }
    writeFileSync(file, String(process.pid));
    lockFile = file;
    record('app.requestSingleInstanceLock', { additionalData, got: true });
    // Requests from later instances reach this one after `ready` (as Electron guarantees).
    const inbox = path.join(dir, 'SingletonMessages');
    const poll = setInterval(() => {
      if (!runtime.ready) return;
      for (const name of readdirSync(inbox).filter((n) => n.endsWith('.json'))) {
        const msg = JSON.parse(readFileSync(path.join(inbox, name), 'utf8'));
        rmSync(path.join(inbox, name), { force: true });
        record('app.second-instance', { additionalData: msg.additionalData });
        this.emit('second-instance', { preventDefault() {} }, msg.argv, msg.cwd, msg.additionalData);
      }
    }, 50);
    poll.unref();
    return true;
  }
  quit() {
    record('app.quit');
    if (quitting) return;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    quitting = true;
    for (const win of [...windows.values()]) {
      if (!win.closeByApp()) {
        quitting = false;
        return;
      }
    }
    let willPrevented = false;
    this.emit('will-quit', { preventDefault: () => (willPrevented = true) });
    if (willPrevented) {
      quitting = false;
      return;
    }
    this.emit('quit', {}, 0);
    exitNow(0, releaseLock);
  }
  exit(/** @type {number | undefined} */ code = 0) {
    record('app.exit', { code });
    exitNow(code, releaseLock);
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const app = new FakeApp();
let resolveReady = /** @type {() => void} */ (() => {});
const readyPromise = new Promise((resolve) => (resolveReady = () => resolve(undefined)));
// `ready` comes once the main script has run (its synchronous part), as in Electron.
setTimeout(() => {
  runtime.ready = true;
  record('app.ready');
  app.emit('will-finish-launching');
  app.emit('ready', {}, {});
  resolveReady();
}, 0);
