/**
 * Wiring of the desktop app once Electron is ready: secrets, engine, window, IPC, tray,
 * notifications, quit. Each piece lives in its own file; this one only connects them.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, clipboard, ipcMain, Menu, nativeImage, Notification, protocol, safeStorage, session, shell, Tray, type MenuItemConstructorOptions } from 'electron';
import type { StartAtLogin } from '../core/index.js';
import { loadEngine } from '../core/index.js';
import type { Logger } from '../core/index.js';
import { APP_SCHEME } from './app-origin.js';
import { appFiles } from './app-paths.js';
import { appProtocolHandler } from './app-protocol.js';
import { desktopEngineOptions } from './desktop-engine-options.js';
import { EngineHost } from './engine-host.js';
import { ExternalUrls } from './external-urls.js';
import { installGracefulQuit, type GracefulQuit } from './graceful-quit.js';
import { registerIpcApi } from './ipc-api.js';
import type { LaunchArgs } from './launch-args.js';
import { MainWindow } from './main-window.js';
import { denyPermissions } from './navigation-guard.js';
import { NotificationPolicy, type DesktopNotice } from './notifications.js';
import { desktopRelayLauncher, relayScriptLocation, type RelayLauncherInputs } from './relay-launcher.js';
import { safeStorageEncryptor } from './secrets/encryptor.js';
import { openDesktopSecrets } from './secrets/desktop-secrets.js';
import { createStartAtLogin } from './start-at-login.js';
import { SystemTray } from './system-tray.js';
import { describeMenu, installTestHooks } from './test-hooks.js';
import { readTrayState, trayIconState, type TrayState } from './tray-state.js';
import { mainWindowOptions } from './window-options.js';

export interface Desktop {
  showWindow(route?: string): void;
  /** A relay launched the app although it runs: make sure the engine does too. */
  ensureEngine(): void;
}

export interface BootOptions {
  launch: LaunchArgs;
  dataDir: string;
  logger: Logger;
  closeLog(): Promise<void>;
}

export async function bootDesktop({ launch, dataDir, logger, closeLog }: BootOptions): Promise<Desktop> {
  const platform = process.platform;
  const files = appFiles(app.getAppPath());
  protocol.handle(APP_SCHEME, appProtocolHandler(files.rendererRoot));
  denyPermissions(session.defaultSession);
  const externalUrls = new ExternalUrls((url) => shell.openExternal(url), logger.child('open'));

  const relay: RelayLauncherInputs = { platform, execPath: process.execPath, resourcesPath: process.resourcesPath, appPath: app.getAppPath(), isPackaged: app.isPackaged, dataDir, appImage: process.env.APPIMAGE };
  await installRelayScript(relay, logger);
  const appCommand = relay.isPackaged && platform === 'linux' && process.env.APPIMAGE ? process.env.APPIMAGE : process.execPath;
  const loginItems = createStartAtLogin(app, { platform, env: process.env, homedir: os.homedir(), command: appCommand, args: app.isPackaged ? [] : [app.getAppPath()] });
  let refreshTray = (): void => {};
  // The Settings screen and the tray share the switch; either side's change redraws the tray.
  const startAtLogin: StartAtLogin = { get: () => loginItems.get(), set: async (on) => (await loginItems.set(on), refreshTray()) };

  const secrets = await openDesktopSecrets({ dataDir, encryptor: safeStorageEncryptor(safeStorage, platform), logger: logger.child('secrets') });
  const host = new EngineHost({
    start: async (options) => (await loadEngine()).startEngine(options),
    options: desktopEngineOptions({ dataDir, secrets: secrets.store, externalUrls, startAtLogin, launcher: desktopRelayLauncher(relay), uiRoot: files.rendererRoot }),
    logger: logger.child('engine'),
  });

  // Set once the quit handling is installed (below); the window asks it on every close.
  const quit: { current?: GracefulQuit } = {};
  const dock = (visible: boolean): void => {
    if (platform === 'darwin') void (visible ? app.dock?.show() : app.dock?.hide());
  };
  const window = new MainWindow({
    createWindow: (options) => new BrowserWindow(options),
    options: mainWindowOptions({ preload: files.preload, platform, icon: files.windowIcon, devTools: !app.isPackaged }),
    externalUrls,
    isQuitting: () => quit.current?.quitting() ?? false,
    onVisibility: dock,
    logger: logger.child('window'),
  });
  const stopIpc = registerIpcApi({ ipcMain, host, windowContentsId: () => window.webContentsId, logger: logger.child('ipc') });

  let lastTemplate: MenuItemConstructorOptions[] = [];
  let lastState: TrayState | undefined;
  const tray = new SystemTray({
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    loadImage: (file) => nativeImage.createFromPath(file),
    trayDir: files.trayDir,
    platform,
    logger: logger.child('tray'),
    onTemplate: (template) => (lastTemplate = template),
    actions: {
      openWindow: () => window.show(),
      exportToClaudeDesktop: () => window.show('clients'),
      copyHubUrl: () => host.state.state === 'running' && clipboard.writeText(host.state.url),
      setServerEnabled: (id, enabled) => void setServerEnabled(host, id, enabled, notify, logger),
      setStartAtLogin: (enabled) => void startAtLogin.set(enabled).catch((err: Error) => logger.error(`start at login: ${err.message}`)),
      retryHub: () => void host.start(),
      quit: () => app.quit(),
    },
  });
  installTestHooks(process.env, { trayMenu: () => describeMenu(lastTemplate), trayIconState: () => (lastState ? trayIconState(lastState) : undefined) });

  let timer: NodeJS.Timeout | undefined;
  refreshTray = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void (async () => {
        const login = await startAtLogin.get().catch(() => undefined);
        lastState = await readTrayState(host.state, host.current, login);
        tray.show(lastState);
      })().catch((err: Error) => logger.warn(`tray update failed: ${err.message}`));
    }, 150);
  };

  const policy = new NotificationPolicy();
  const notify = (notice: DesktopNotice): void => {
    if (!Notification.isSupported()) return;
    const n = new Notification({ title: notice.title, body: notice.body });
    n.on('click', () => {
      if (notice.onClick.kind === 'window') window.show(notice.onClick.route);
      else void externalUrls.openProduced(notice.onClick.url).catch(() => undefined);
    });
    n.show();
  };
  let everRan = false;
  host.onState((state) => {
    // A restarted engine is a new API (new event cursors): the page starts over.
    if (state.state === 'running' && everRan) window.reload();
    if (state.state === 'running') everRan = true;
    if (state.state === 'error') notify({ title: 'Patchbay hub failed to start', body: state.message, onClick: { kind: 'window', route: 'settings' } });
    refreshTray();
  });
  host.onEvent((event) => {
    if (event.channel === 'oauth.loginNeeded') externalUrls.produced((event.payload as { authorizationUrl: string }).authorizationUrl);
    const notice = policy.noticeFor(event);
    if (notice) notify(notice);
    refreshTray();
  });

  quit.current = installGracefulQuit({
    app,
    logger,
    stop: async () => {
      stopIpc();
      tray.destroy();
      await host.stop();
      await secrets.store.close();
      logger.info('stopped cleanly');
      await closeLog();
    },
  });
  // A tray app: closing the last window does not quit (subscribing turns Electron's default off).
  app.on('window-all-closed', () => {});
  app.on('activate', () => window.show());
  app.on('render-process-gone', (_e, _contents, details) => logger.error(`a renderer ended: ${details.reason} (exit code ${details.exitCode})`));
  app.on('child-process-gone', (_e, details) => logger.error(`a ${details.type} process ended: ${details.reason} (exit code ${details.exitCode})`));

  tray.show({ hub: host.state, sessions: 0, servers: [], configProblems: 0 });
  void host.start();
  const openedAtLogin = platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
  if (!launch.hidden && !openedAtLogin) window.show();
  else dock(false);

  return { showWindow: (route) => window.show(route), ensureEngine: () => void host.start() };
}

async function setServerEnabled(host: EngineHost, id: string, enabled: boolean, notify: (n: DesktopNotice) => void, logger: Logger): Promise<void> {
  const engine = host.current;
  if (!engine) return;
  const result = await engine.api.invoke('servers.setEnabled', { id, enabled });
  if (result.ok) return;
  logger.warn(`could not ${enabled ? 'enable' : 'disable'} server '${id}': ${result.message}`);
  notify({ title: `Could not ${enabled ? 'enable' : 'disable'} '${id}'`, body: result.message, onClick: { kind: 'window', route: `servers/${encodeURIComponent(id)}` } });
}

/** An AppImage's relay entries point at a copy of the script in the data dir (see relay-launcher.ts). */
async function installRelayScript(inputs: RelayLauncherInputs, logger: Logger): Promise<void> {
  const { script, copyFrom } = relayScriptLocation(inputs);
  if (!copyFrom) return;
  try {
    await mkdir(path.dirname(script), { recursive: true, mode: 0o700 });
    await copyFile(copyFrom, script);
  } catch (err) {
    logger.error(`could not copy the relay script to ${script}: ${(err as Error).message}`);
  }
}
