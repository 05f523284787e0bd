/**
 * The desktop app's entry (package.json `main`). Before Electron is ready: the data dir, the log,
 * the single-instance lock and the app:// scheme; then desktop.ts wires the rest. This file and
 * desktop.ts are the only ones that touch Electron's runtime; every other file of the shell gets
 * its Electron pieces injected and is tested in plain Node.
 */
import os from 'node:os';
import { app, crashReporter, protocol } from 'electron';
import { createLogger } from '../core/index.js';
import { APP_SCHEME_PRIVILEGES } from './app-protocol.js';
import { crashDumpsDir, logUncaught, startAppLog } from './app-log.js';
import { desktopDataDir, electronUserDataDir } from './app-paths.js';
import { bootDesktop, type Desktop } from './desktop.js';
import { parseLaunchArgs } from './launch-args.js';
import { claimSingleInstance } from './single-instance.js';

const launch = parseLaunchArgs(process.argv.slice(1));
const dataDir = desktopDataDir(launch, { env: process.env, platform: process.platform, homedir: os.homedir() });

app.setName('Patchbay');
app.setPath('userData', electronUserDataDir(dataDir));
app.setPath('crashDumps', crashDumpsDir(dataDir));
const closeLog = startAppLog(dataDir);
const logger = createLogger('desktop');
logUncaught(process, logger);
// Native crashes leave a minidump in <data dir>/logs/crashes; nothing is uploaded anywhere.
crashReporter.start({ uploadToServer: false });
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

let desktop: Desktop | undefined;
const handOffs: Array<'focus' | 'relay-start'> = [];
const first = claimSingleInstance(app, launch, {
  focus: () => (desktop ? desktop.showWindow() : handOffs.push('focus')),
  relayStart: () => (desktop ? desktop.ensureEngine() : handOffs.push('relay-start')),
});

if (!first) {
  logger.info(`Patchbay already runs for ${dataDir}; handed the request to it`);
  void closeLog().then(() => app.exit(0));
} else {
  app
    .whenReady()
    .then(async () => {
      desktop = await bootDesktop({ launch, dataDir, logger, closeLog });
      // Launches that arrived while booting.
      for (const request of handOffs.splice(0)) {
        if (request === 'focus') desktop.showWindow();
        else desktop.ensureEngine();
      }
    })
    .catch((err: Error) => {
      logger.error(`the desktop app could not start: ${err.stack ?? err.message}`);
      void closeLog().then(() => app.exit(1));
    });
}
