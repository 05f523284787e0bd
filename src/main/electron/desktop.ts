/**
 * Wiring of the desktop app once Electron is ready. The order is the point (issue 18): the tray
 * first, then the window, and only then the secrets (a keychain prompt) and the engine — so a
 * prompt or a failure always has the app on screen, and a failure ends in a dialog and the tray's
 * error state, never a silent exit. Each piece lives in its own file; this one only connects them.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, net, Notification, protocol, safeStorage, session, shell, Tray } from 'electron';
import { loadEngine, readHubToken, type Logger, type StartAtLogin } from '../core/index.js';
import { APP_SCHEME } from './app-origin.js';
import { appFiles } from './app-paths.js';
import { appProtocolHandler } from './app-protocol.js';
import { reportEngineFailure } from './boot-failure.js';
import { demoScriptLocation, desktopDemoServer } from './demo-server-entry.js';
import { desktopEngineOptions } from './desktop-engine-options.js';
import { guardDownloads } from './downloads.js';
import { OneTimeHints } from './desktop-hints.js';
import { DesktopTray } from './desktop-tray.js';
import { EngineHost, type HubState } from './engine-host.js';
import { ExternalUrls } from './external-urls.js';
import { installGracefulQuit, type GracefulQuit } from './graceful-quit.js';
import { writeHandOffAnswer } from './hand-off.js';
import { hubConnectionText } from './hub-connection.js';
import { registerIpcApi } from './ipc-api.js';
import type { LaunchArgs } from './launch-args.js';
import { MainWindow } from './main-window.js';
import { denyPermissions } from './navigation-guard.js';
import { closeHintNotice, NotificationPolicy, updateAvailableNotice, type DesktopNotice } from './notifications.js';
import { desktopRelayLauncher, relayScriptLocation, type RelayLauncherInputs } from './relay-launcher.js';
import { openDesktopSecrets, safeSecretsFile, setAsideSecrets, type DesktopSecrets } from './secrets/desktop-secrets.js';
import { safeStorageEncryptor } from './secrets/encryptor.js';
import { createStartAtLogin } from './start-at-login.js';
import { installTestHooks } from './test-hooks.js';
import { closePolicy, detectTrayHost, type ClosePolicy } from './tray-host.js';
import { UpdateChecker, type UpdateResult } from './update-checker.js';
import { updateFeedSetting } from './update-feed.js';
import { mainWindowOptions } from './window-options.js';

export interface Desktop {
  showWindow(route?: string): void;
  /** A relay launched the app although it runs: make sure the engine does too, and answer `handOffId`. */
  ensureEngine(handOffId?: string): void;
}

export interface BootOptions {
  launch: LaunchArgs;
  dataDir: string;
  logFile: string;
  logger: Logger;
  closeLog(): Promise<void>;
}

export async function bootDesktop({ launch, dataDir, logFile, logger, closeLog }: BootOptions): Promise<Desktop> {
  const platform = process.platform;
  const files = appFiles(app.getAppPath());
  const userData = app.getPath('userData');
  const version = app.getVersion();
  protocol.handle(APP_SCHEME, appProtocolHandler(files.rendererRoot));
  denyPermissions(session.defaultSession);
  const externalUrls = new ExternalUrls((url) => shell.openExternal(url), logger.child('open'));
  const openLogs = (): void => void shell.openPath(path.dirname(logFile)).then((problem) => problem && logger.warn(`could not open the logs folder: ${problem}`));

  const relay: RelayLauncherInputs = { platform, execPath: process.execPath, resourcesPath: process.resourcesPath, appPath: app.getAppPath(), isPackaged: app.isPackaged, dataDir, appImage: process.env.APPIMAGE };
  const appCommand = relay.isPackaged && platform === 'linux' && process.env.APPIMAGE ? process.env.APPIMAGE : process.execPath;
  const loginItems = createStartAtLogin(app, { platform, env: process.env, homedir: os.homedir(), command: appCommand, args: app.isPackaged ? [] : [app.getAppPath()] });
  // The Settings screen and the tray share the switch; either side's change redraws the tray.
  const startAtLogin: StartAtLogin = { get: () => loginItems.get(), set: async (on) => (await loginItems.set(on), tray.refresh()) };

  // Secrets are opened by the first engine start (below, after the tray and the window exist).
  let secrets: DesktopSecrets | undefined;
  const host = new EngineHost({
    start: async () => {
      secrets ??= await openDesktopSecrets({ dataDir, encryptor: safeStorageEncryptor(safeStorage, platform), logger: logger.child('secrets') });
      const options = desktopEngineOptions({ dataDir, secrets: secrets.store, externalUrls, startAtLogin, launcher: desktopRelayLauncher(relay), uiRoot: files.rendererRoot, demoServer: desktopDemoServer(relay) });
      return (await loadEngine()).startEngine(options);
    },
    logger: logger.child('engine'),
  });

  const notify = (notice: DesktopNotice): void => {
    if (!Notification.isSupported()) return void logger.info(`notification (not supported here): ${notice.title}`);
    const n = new Notification({ title: notice.title, body: notice.body });
    n.on('click', () => {
      if (notice.onClick.kind === 'window') window.show(notice.onClick.route);
      else void externalUrls.openProduced(notice.onClick.url).catch(() => undefined);
    });
    n.show();
  };

  // Until the probe answers, GNOME sessions are assumed to have no tray host (their default).
  let policy: ClosePolicy = closePolicy(platform, 'unknown', process.env);
  const trayHostKnown = detectTrayHost(platform).then((found) => {
    policy = closePolicy(platform, found, process.env);
    if (found !== 'present') logger.info(`tray host: ${found}; closing the window will ${policy === 'minimize' ? 'minimize it' : 'hide it'}`);
  });
  const hints = new OneTimeHints(userData);
  const quit: { current?: GracefulQuit } = {};
  const window = new MainWindow({
    createWindow: (options) => new BrowserWindow(options),
    options: mainWindowOptions({ preload: files.preload, platform, icon: files.windowIcon, devTools: !app.isPackaged }),
    externalUrls,
    isQuitting: () => quit.current?.quitting() ?? false,
    closePolicy: () => policy,
    // macOS: the Dock icon first, or the window can come up behind other apps.
    ...(platform === 'darwin' ? { beforeShow: () => app.dock?.show() } : {}),
    onClosedToBackground: (how) => {
      if (platform === 'darwin') app.dock?.hide();
      void hints.once('closed-to-background').then((first) => first && notify(closeHintNotice(platform, how)));
    },
    logger: logger.child('window'),
  });
  // The page's exports (blob:) and content downloads (data:) go through Electron's save dialog; nothing else downloads.
  guardDownloads(session.defaultSession, { windowContentsId: () => window.webContentsId, logger: logger.child('downloads') });

  const updates = new UpdateChecker({
    feed: updateFeedSetting(process.env),
    currentVersion: version,
    fetch: (url, init) => net.fetch(url, init),
    onResult: (result, manual) => void announceUpdate(result, manual),
    logger: logger.child('updates'),
  });
  const announceUpdate = async (result: UpdateResult, manual: boolean): Promise<void> => {
    if (result.kind === 'available') {
      externalUrls.produced(result.release.url);
      tray.refresh();
      if (!manual) return notify(updateAvailableNotice(result.release));
    }
    if (!manual) return;
    const detail =
      result.kind === 'available'
        ? `Patchbay ${result.release.version} is available (you have ${version}). Patchbay does not install updates itself: download it from the release page.`
        : result.kind === 'up-to-date'
          ? `Patchbay ${version} is the latest release.`
          : result.kind === 'disabled'
            ? 'Update checks are turned off (PATCHBAY_UPDATE_FEED=off).'
            : `The check failed: ${result.message}`;
    const buttons = result.kind === 'available' ? ['Open Release Page', 'Later'] : ['OK'];
    const { response } = await dialog.showMessageBox({ type: result.kind === 'failed' ? 'warning' : 'info', title: 'Check for Updates', message: result.kind === 'available' ? 'An update is available' : 'Check for Updates', detail, buttons, defaultId: 0, noLink: true });
    if (result.kind === 'available' && response === 0) void externalUrls.openProduced(result.release.url).catch(() => undefined);
  };

  // The tray comes first: from here on the app is visible whatever happens next.
  const tray = new DesktopTray({
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    loadImage: (file) => nativeImage.createFromPath(file),
    trayDir: files.trayDir,
    platform,
    version,
    host,
    startAtLogin,
    update: () => (updates.available ? { version: updates.available.version } : undefined),
    logger: logger.child('tray'),
    actions: {
      openWindow: () => window.show(),
      exportToClaudeDesktop: () => window.show('clients/claude-desktop/export'),
      copyHubConnection: () => void copyHubConnection(host, (text) => clipboard.writeText(text)).catch((err: Error) => logger.warn(`copy failed: ${err.message}`)),
      setServerEnabled: (id, enabled) => void setServerEnabled(host, id, enabled, notify, logger),
      setStartAtLogin: (enabled) => void startAtLogin.set(enabled).catch((err: Error) => logger.error(`start at login: ${err.message}`)),
      retryHub: () => void host.start(),
      openLogsFolder: openLogs,
      checkForUpdates: () => void updates.check(true),
      openUpdate: () => updates.available && void externalUrls.openProduced(updates.available.url).catch(() => undefined),
      quit: () => app.quit(),
    },
  });
  installTestHooks(process.env, { trayMenu: () => tray.menu, trayIconState: () => tray.iconState });

  const stopIpc = registerIpcApi({ ipcMain, host, windowContentsId: () => window.webContentsId, logger: logger.child('ipc') });
  const policyNotices = new NotificationPolicy();
  let booted = false;
  let everRan = false;
  host.onState((state) => {
    // A restarted engine is a new API (new event cursors): the page starts over.
    if (state.state === 'running' && everRan) window.reload();
    if (state.state === 'running') everRan = true;
    // The first start's failure gets a dialog (below); later ones a notification.
    if (state.state === 'error' && booted) notify({ title: 'Patchbay hub failed to start', body: state.message, onClick: { kind: 'window', route: 'settings' } });
    tray.refresh();
  });
  host.onEvent((event) => {
    if (event.channel === 'oauth.loginNeeded') externalUrls.produced((event.payload as { authorizationUrl: string }).authorizationUrl);
    const notice = policyNotices.noticeFor(event);
    if (notice) notify(notice);
    tray.refresh();
  });

  quit.current = installGracefulQuit({
    app,
    logger,
    stop: async () => {
      stopIpc();
      updates.stop();
      tray.destroy();
      await host.stop();
      await secrets?.store.close();
      logger.info('stopped cleanly');
      await closeLog();
    },
  });
  // A tray app: closing the last window does not quit (subscribing turns Electron's default off).
  app.on('window-all-closed', () => {});
  app.on('activate', () => window.show());
  app.on('render-process-gone', (_e, _contents, details) => logger.error(`a renderer ended: ${details.reason} (exit code ${details.exitCode})`));
  app.on('child-process-gone', (_e, details) => logger.error(`a ${details.type} process ended: ${details.reason} (exit code ${details.exitCode})`));

  // Login items set by earlier versions start the app without --hidden (start-at-login.ts).
  const hidden = launch.hidden || (platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  if (!hidden) window.show();
  else {
    if (platform === 'darwin') app.dock?.hide();
    // Where no tray icon can show, a hidden start still leaves a (minimized) window to come back to.
    void trayHostKnown.then(() => policy === 'minimize' && window.showMinimized());
  }

  await installShippedScript(relayScriptLocation(relay), 'relay script', logger);
  await installShippedScript(demoScriptLocation(relay), 'demo server', logger);
  await host.start();
  booted = true;
  const first = host.state;
  if (first.state === 'error') {
    void reportEngineFailure(first, {
      showMessageBox: (options) => dialog.showMessageBox(options),
      logFile,
      secretsFile: safeSecretsFile(dataDir),
      retry: async () => (await host.start(), host.state),
      resetSecrets: async () => void logger.warn(`secrets set aside to ${await setAsideSecrets(dataDir)}`),
      openLogs,
      quit: () => app.quit(),
    }).catch((err: Error) => logger.error(`the failure dialog failed: ${err.message}`));
  }
  updates.start();

  return {
    showWindow: (route) => window.show(route),
    ensureEngine: (handOffId) => void answerRelay(host, userData, handOffId, logger),
  };
}

/** Starts the engine if needed, then tells the relay's launch how it went (hand-off.ts). */
async function answerRelay(host: EngineHost, userData: string, handOffId: string | undefined, logger: Logger): Promise<void> {
  await host.start();
  if (handOffId === undefined) return;
  const state: HubState = host.state;
  const answer = state.state === 'running' ? { state: 'running' as const, url: state.url } : { state: 'error' as const, message: state.state === 'error' ? state.message : `the hub is ${state.state}` };
  await writeHandOffAnswer(userData, handOffId, answer).catch((err: Error) => logger.error(`could not answer a relay's launch: ${err.message}`));
}

async function copyHubConnection(host: EngineHost, write: (text: string) => void): Promise<void> {
  const engine = host.current;
  if (!engine) return;
  write(hubConnectionText(engine.url, await readHubToken(engine.tokenFile)));
}

async function setServerEnabled(host: EngineHost, id: string, enabled: boolean, notify: (n: DesktopNotice) => void, logger: Logger): Promise<void> {
  const engine = host.current;
  if (!engine) return;
  const result = await engine.api.invoke('servers.setEnabled', { id, enabled });
  if (result.ok) return;
  logger.warn(`could not ${enabled ? 'enable' : 'disable'} server '${id}': ${result.message}`);
  notify({ title: `Could not ${enabled ? 'enable' : 'disable'} '${id}'`, body: result.message, onClick: { kind: 'window', route: `servers/${encodeURIComponent(id)}` } });
}

/** An AppImage's relay and demo server entries point at copies in the data dir (see relay-launcher.ts). */
async function installShippedScript({ script, copyFrom }: { script: string; copyFrom?: string }, what: string, logger: Logger): Promise<void> {
  if (!copyFrom) return;
  try {
    await mkdir(path.dirname(script), { recursive: true, mode: 0o700 });
    await copyFile(copyFrom, script);
  } catch (err) {
    logger.error(`could not copy the ${what} to ${script}: ${(err as Error).message}`);
  }
}
