// Runs the BUILT desktop main process (dist/main/electron/main.js) under plain Node, with
// `import ... from 'electron'` resolved to the stand-in in electron.mjs. This is what `electron .`
// does on a machine with the binary, minus Chromium: no Electron binary can run here, so the app's
// calls into Electron are answered by a recording test double (see electron.mjs).
//
//   node test/desktop/fake-electron/launch-app.mjs [app args…]
//
// FAKE_ELECTRON_APP_PATH: the app dir (app.getAppPath(); default: the repo). It also names the
// build to run: <app dir>/dist/main/electron/main.js.
// FAKE_ELECTRON_PLATFORM=win32|darwin: report that platform in process.platform (Electron's
// platform-only APIs follow it; paths stay this host's).
// FAKE_ELECTRON_PACKAGED=1: app.isPackaged is true. FAKE_ELECTRON_KEYCHAIN(_KEY): see fake-services.mjs.
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const appPath = process.env.FAKE_ELECTRON_APP_PATH ?? path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
process.env.FAKE_ELECTRON_APP_PATH = appPath;
const platform = process.env.FAKE_ELECTRON_PLATFORM;
if (platform) Object.defineProperty(process, 'platform', { value: platform });
register('./hooks.mjs', import.meta.url);
await import(pathToFileURL(path.join(appPath, 'dist', 'main', 'electron', 'main.js')).href);
