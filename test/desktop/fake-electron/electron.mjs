// A TEST DOUBLE of Electron's main-process API, for running the built desktop app under plain Node
// (launch-app.mjs resolves `electron` here). No Electron binary can be downloaded on the machines
// these tests run on, so this is not Electron: it answers the calls the app makes with plausible
// objects, enforces the rules of Electron's that the app relies on (what must happen before or
// after `ready`, platform-only APIs such as app.setAppUserModelId on Windows and app.dock on
// macOS), and records every call, in order, for the test (src/main/electron/launch.test.ts).
// Where it does real work it does what Electron would: the app:// handler is called with real
// Requests, the tray's images are decoded from the PNG files, the single-instance lock is shared
// between processes through the userData dir, safeStorage encrypts (AES-256-GCM standing in for
// the OS keychain), net.fetch fetches. Nothing here draws a window or a tray icon.
//
// The test drives it through the Node IPC channel (commands.mjs) and hears every recorded call
// (recorder.mjs). The parts: fake-app.mjs, fake-windows.mjs, fake-tray.mjs, fake-services.mjs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { installCommands } from './commands.mjs';
import { app } from './fake-app.mjs';
import { clipboard, crashReporter, dialog, FakeNotification, ipcMain, nativeTheme, net, powerMonitor, safeStorage, shell } from './fake-services.mjs';
import { Menu, nativeImage, Tray } from './fake-tray.mjs';
import { FakeBrowserWindow, protocol, session } from './fake-windows.mjs';
import { appPath } from './recorder.mjs';

// Electron sets these on `process` in the main process (the version: the installed electron package's).
Object.assign(process, { resourcesPath: path.join(appPath, 'node_modules', 'electron', 'dist', 'resources'), type: 'browser' });
const electronVersion = JSON.parse(readFileSync(path.join(appPath, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
Object.defineProperty(process.versions, 'electron', { value: electronVersion, enumerable: true });
installCommands();

export { app, clipboard, crashReporter, dialog, ipcMain, Menu, nativeImage, nativeTheme, net, powerMonitor, protocol, safeStorage, session, shell, Tray };
export { FakeBrowserWindow as BrowserWindow, FakeNotification as Notification };
export default { app, protocol, session, nativeImage, Menu, Tray, BrowserWindow: FakeBrowserWindow, ipcMain, safeStorage, dialog, Notification: FakeNotification, shell, clipboard, crashReporter, net, nativeTheme, powerMonitor };
