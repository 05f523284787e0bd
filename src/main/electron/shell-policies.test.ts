/** The small policies of the shell: external URLs, notifications, start at login, quitting, the engine host. */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi, type Mock } from 'vitest';
import type { ApiEvent } from '../../shared/api/contract.js';
import type { RunningEngine } from '../core/index.js';
import { createLogger } from '../core/index.js';
import { EngineHost } from './engine-host.js';
import { ExternalUrls } from './external-urls.js';
import { installGracefulQuit } from './graceful-quit.js';
import { NotificationPolicy } from './notifications.js';
import { OneTimeHints } from './desktop-hints.js';
import { hubConnectionText } from './hub-connection.js';
import { closeHintNotice } from './notifications.js';
import { createStartAtLogin, linuxAutostartEntry, linuxAutostartFile, macLaunchAgentFile } from './start-at-login.js';

const logger = createLogger('test');

describe('external URLs', () => {
  it('opens only http(s) URLs the app produced, and not twice in a row', async () => {
    let now = 1000;
    const opened: string[] = [];
    const urls = new ExternalUrls(async (u) => void opened.push(u), logger, () => now);
    const signIn = 'https://auth.example.com/authorize?state=abc';
    expect(urls.openFromRenderer(signIn)).toBe('refused');
    await urls.openProduced(signIn);
    expect(opened).toEqual([signIn]);
    // The UI's window.open of the same page right after the engine opened it: not a second tab.
    expect(urls.openFromRenderer(signIn)).toBe('duplicate');
    now += 10_000;
    expect(urls.openFromRenderer(signIn)).toBe('opened');
    urls.produced('https://auth.example.com/other');
    expect(urls.openFromRenderer('https://auth.example.com/other')).toBe('opened');
    await expect(urls.openProduced('file:///etc/passwd')).rejects.toThrow(/http/);
    urls.produced('javascript:alert(1)');
    expect(urls.openFromRenderer('javascript:alert(1)')).toBe('refused');
    expect(opened).toHaveLength(3);
  });
});

describe('notifications', () => {
  const status = (state: string, message?: string): ApiEvent =>
    ({ channel: 'servers.status', cursor: 1, payload: { id: 'fs', state, sessions: 0, children: 0, ...(message ? { lastError: { message, at: 't', stage: 'start' } } : {}) } }) as ApiEvent;

  it('announces a failing server once per failure, and a needed sign-in', () => {
    const policy = new NotificationPolicy();
    expect(policy.noticeFor(status('idle'))).toBeUndefined();
    expect(policy.noticeFor(status('error', 'spawn npx ENOENT'))).toEqual({ title: "Server 'fs' failed", body: 'spawn npx ENOENT', onClick: { kind: 'window', route: 'servers/fs' } });
    expect(policy.noticeFor(status('error', 'spawn npx ENOENT'))).toBeUndefined();
    policy.noticeFor(status('running'));
    expect(policy.noticeFor(status('error', 'again'))).toBeDefined();
    const login = { channel: 'oauth.loginNeeded', cursor: 2, payload: { server: 'linear', authorizationUrl: 'https://auth.example/a', reason: 'r' } } as ApiEvent;
    expect(policy.noticeFor(login)).toMatchObject({ title: "Sign-in needed for 'linear'", onClick: { kind: 'browser', url: 'https://auth.example/a' } });
    expect(policy.noticeFor({ channel: 'config.changed', cursor: 3, payload: { problems: [] } } as ApiEvent)).toBeUndefined();
  });
});

describe('start at login', () => {
  it('uses login items on macOS and Windows, always as a hidden start', async () => {
    const set = vi.fn();
    const app = { getLoginItemSettings: vi.fn(() => ({ openAtLogin: true }) as never), setLoginItemSettings: set };
    const item = createStartAtLogin(app, { platform: 'win32', env: {}, homedir: 'C:\\Users\\me', command: 'C:\\P\\Patchbay.exe', args: [] });
    expect(await item.get()).toBe(true);
    await item.set(false);
    expect(set).toHaveBeenCalledWith({ openAtLogin: false, path: 'C:\\P\\Patchbay.exe', args: ['--hidden'] });
  });

  it('writes an XDG autostart entry on Linux', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'patchbay-autostart-'));
    try {
      const env = { XDG_CONFIG_HOME: path.join(home, 'cfg') };
      const item = createStartAtLogin({ getLoginItemSettings: () => ({}) as never, setLoginItemSettings: () => undefined }, { platform: 'linux', env, homedir: home, command: '/home/me/Apps/Patchbay 0.1.AppImage', args: [] });
      expect(await item.get()).toBe(false);
      await item.set(true);
      expect(await item.get()).toBe(true);
      const text = await readFile(linuxAutostartFile(env, home), 'utf8');
      expect(text).toContain('Exec="/home/me/Apps/Patchbay 0.1.AppImage" --hidden');
      await item.set(false);
      expect(await item.get()).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
    expect(linuxAutostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/patchbay.desktop');
    expect(linuxAutostartEntry('/opt/Patchbay/patchbay-desktop', ['/repo $x'])).toContain('Exec=/opt/Patchbay/patchbay-desktop "/repo \\$x" --hidden');
  });
});

describe('start at login on macOS', () => {
  it('writes a LaunchAgent that starts the app hidden, and replaces a login item of an earlier version', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'patchbay-agent-'));
    try {
      const set = vi.fn();
      let legacy = true;
      const app = { getLoginItemSettings: () => ({ openAtLogin: legacy }) as never, setLoginItemSettings: (s: { openAtLogin: boolean }) => (set(s), (legacy = s.openAtLogin)) };
      const item = createStartAtLogin(app, { platform: 'darwin', env: {}, homedir: home, command: '/Applications/Patchbay & Co.app/Contents/MacOS/Patchbay', args: [] });
      expect(await item.get()).toBe(true);
      await item.set(true);
      expect(set).toHaveBeenCalledWith({ openAtLogin: false });
      const plist = await readFile(macLaunchAgentFile(home), 'utf8');
      expect(plist).toContain('<string>/Applications/Patchbay &amp; Co.app/Contents/MacOS/Patchbay</string>\n    <string>--hidden</string>');
      expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
      expect(plist).toContain('<string>dev.patchbay.desktop</string>');
      expect(await item.get()).toBe(true);
      await item.set(false);
      expect(await item.get()).toBe(false);
      expect(macLaunchAgentFile('/Users/me')).toBe('/Users/me/Library/LaunchAgents/dev.patchbay.desktop.plist');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('small desktop pieces', () => {
  it('copies the hub URL with the header a client needs, as an mcpServers entry', () => {
    expect(JSON.parse(hubConnectionText('http://127.0.0.1:5', 'tok'))).toEqual({ type: 'http', url: 'http://127.0.0.1:5/mcp', headers: { Authorization: 'Bearer tok' } });
    expect(JSON.parse(hubConnectionText('http://127.0.0.1:5', undefined))).toEqual({ type: 'http', url: 'http://127.0.0.1:5/mcp' });
  });

  it('gives a hint once per data dir, remembered across starts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-hints-'));
    try {
      const hints = new OneTimeHints(dir);
      expect(await hints.once('closed')).toBe(true);
      expect(await hints.once('closed')).toBe(false);
      expect(await new OneTimeHints(dir).once('closed')).toBe(false);
      expect(await new OneTimeHints(dir).once('other')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(closeHintNotice('darwin', 'hide').body).toContain('menu bar');
    expect(closeHintNotice('linux', 'minimize').body).toContain('no tray icons');
  });
});

describe('graceful quit', () => {
  type FakeApp = EventEmitter & { quit: Mock<() => void>; exit: Mock<(code?: number) => void>; tryQuit(): boolean };
  function fakeApp(): FakeApp {
    const app = new EventEmitter() as FakeApp;
    app.quit = vi.fn<() => void>();
    app.exit = vi.fn<(code?: number) => void>();
    app.tryQuit = () => {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      return !prevented;
    };
    return app;
  }

  it('holds the quit until the engine stopped, then quits for real', async () => {
    const app = fakeApp();
    let release!: () => void;
    const stop = vi.fn(() => new Promise<void>((r) => (release = r)));
    const quit = installGracefulQuit({ app, stop, logger, signals: new EventEmitter() });
    expect(quit.quitting()).toBe(false);
    expect(app.tryQuit()).toBe(false);
    expect(quit.quitting()).toBe(true);
    expect(app.tryQuit()).toBe(false);
    expect(stop).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(app.tryQuit()).toBe(true);
  });

  it('quits after the deadline when the engine hangs, and on SIGTERM', async () => {
    const app = fakeApp();
    const signals = new EventEmitter();
    installGracefulQuit({ app, stop: () => new Promise(() => undefined), logger, timeoutMs: 20, signals });
    signals.emit('SIGTERM');
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.tryQuit()).toBe(false);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(2));
  });
});

describe('engine host', () => {
  it('keeps a start failure as its state, retries on request, forwards events across restarts, stops once', async () => {
    const listeners: Array<(e: ApiEvent) => void> = [];
    const close = vi.fn(async () => undefined);
    const engine = { url: 'http://127.0.0.1:5', port: 5, close, api: { subscribe: (l: (e: ApiEvent) => void) => (listeners.push(l), { unsubscribe: () => listeners.splice(listeners.indexOf(l), 1), complete: true }) } } as unknown as RunningEngine;
    const start = vi.fn().mockRejectedValueOnce(new Error('port 5 is in use')).mockResolvedValue(engine);
    const host = new EngineHost({ start, logger });
    const states: string[] = [];
    host.onState((s) => states.push(s.state));
    const events: ApiEvent[] = [];
    host.onEvent((e) => events.push(e));
    await host.start();
    expect(host.state).toEqual({ state: 'error', message: 'port 5 is in use' });
    await Promise.all([host.start(), host.start()]);
    expect(start).toHaveBeenCalledTimes(2);
    expect(host.state).toEqual({ state: 'running', url: 'http://127.0.0.1:5', port: 5 });
    listeners[0]!({ channel: 'config.changed', cursor: 1, payload: { problems: [] } } as ApiEvent);
    expect(events).toHaveLength(1);
    await Promise.all([host.stop(), host.stop()]);
    expect(close).toHaveBeenCalledTimes(1);
    expect(listeners).toHaveLength(0);
    expect(states).toEqual(['starting', 'error', 'starting', 'running', 'stopped']);
  });
});
