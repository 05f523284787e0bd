/**
 * The desktop app's entry (package.json `main`). Before Electron is ready: the app's name and
 * Windows identity, the app:// scheme, the data dir (checked writable), the log, the
 * single-instance lock; then desktop.ts wires the rest. This file and desktop.ts are the only
 * ones that touch Electron's runtime; every other file of the shell gets its Electron pieces
 * injected and is tested in plain Node. test/desktop/launch.test.ts runs this file, built, under
 * Node with a stand-in for Electron's API.
 *
 * Whatever fails, the person sees it: an unwritable data dir or a start that throws end in a
 * dialog before the app exits (code 1); an engine that cannot start leaves the app in the tray
 * with a dialog (desktop.ts).
 */
import os from 'node:os';
import { app, crashReporter, dialog, protocol } from 'electron';
import { createLogger } from '../core/index.js';
import { APP_SCHEME_PRIVILEGES } from './app-protocol.js';
import { crashDumpsDir, desktopLogFile, logUncaught, startAppLog } from './app-log.js';
import { APP_USER_MODEL_ID } from './app-identity.js';
import { desktopDataDir, electronUserDataDir } from './app-paths.js';
import { dataDirFailureDialog, unexpectedFailureDialog, type BootDialog } from './boot-dialogs.js';
import { checkDataDir } from './data-dir-check.js';
import { bootDesktop, type Desktop } from './desktop.js';
import { newHandOffId, waitForHandOffAnswer } from './hand-off.js';
import { parseLaunchArgs } from './launch-args.js';
import { claimSingleInstance } from './single-instance.js';

/** How long a relay's launch waits for the running app's answer (the relay itself waits 20 s). */
const HAND_OFF_TIMEOUT_MS = 15_000;

const platform = process.platform;
const launch = parseLaunchArgs(process.argv.slice(1));
const dataDir = desktopDataDir(launch, { env: process.env, platform, homedir: os.homedir() });
const logFile = desktopLogFile(dataDir);

app.setName('Patchbay');
// Windows attributes notifications to the Start menu shortcut with this id (electron-builder
// gives the installer's shortcut the appId); without it toasts are not shown as Patchbay's. A
// development run has no such shortcut: Electron's docs say to use the executable's path then.
if (platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_USER_MODEL_ID : process.execPath);
// Must happen before `ready` (Electron refuses it after).
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
const logger = createLogger('desktop');
let dataDirState = checkDataDir(dataDir);
let closeLog = async (): Promise<void> => {};
if (dataDirState.ok) {
  app.setPath('userData', electronUserDataDir(dataDir));
  app.setPath('crashDumps', crashDumpsDir(dataDir));
  try {
    closeLog = startAppLog(dataDir);
  } catch (err) {
    // A data dir that is writable but whose logs folder is not (a file in its place, say).
    dataDirState = { ok: false, message: (err as Error).message };
  }
}
logUncaught(process, logger);
// Native crashes leave a minidump in <data dir>/logs/crashes; nothing is uploaded anywhere.
crashReporter.start({ uploadToServer: false });

if (!dataDirState.ok) {
  const { message } = dataDirState;
  logger.error(`the data dir ${dataDir} cannot be written: ${message}`);
  // The lock is not taken (Chromium would report one it cannot create as "another instance runs").
  void app.whenReady().then(() => sayAndExit(dataDirFailureDialog(dataDir, message), 1));
} else {
  runFirstOrHandOver();
}

function runFirstOrHandOver(): void {
  const handOffId = launch.hidden ? newHandOffId() : undefined;
  let desktop: Desktop | undefined;
  const queued: Array<{ kind: 'focus' } | { kind: 'relay-start'; id: string | undefined }> = [];
  const first = claimSingleInstance(
    app,
    launch,
    {
      focus: () => (desktop ? desktop.showWindow() : queued.push({ kind: 'focus' })),
      relayStart: (id) => (desktop ? desktop.ensureEngine(id) : queued.push({ kind: 'relay-start', id })),
    },
    handOffId,
  );
  if (!first) {
    void handOver(handOffId);
    return;
  }
  app
    .whenReady()
    .then(async () => {
      desktop = await bootDesktop({ launch, dataDir, logFile, logger, closeLog });
      // Launches that arrived while booting.
      for (const request of queued.splice(0)) {
        if (request.kind === 'focus') desktop.showWindow();
        else desktop.ensureEngine(request.id);
      }
    })
    .catch((err: Error) => {
      logger.error(`the desktop app could not start: ${err.stack ?? err.message}`);
      return sayAndExit(unexpectedFailureDialog(err.message, logFile), 1);
    });
}

/**
 * The app already runs for this data dir and has the request now. A relay's (hidden) launch waits
 * for the running app's answer: exit 0 once its hub runs, else say why on stderr (the relay shows
 * it) and exit 1 — an early exit 0 reads as "the hub exited" to the relay (issue 18).
 */
async function handOver(handOffId: string | undefined): Promise<void> {
  if (handOffId === undefined) {
    logger.info(`Patchbay already runs for ${dataDir}; handed the request to it`);
    await closeLog();
    return app.exit(0);
  }
  const answer = await waitForHandOffAnswer(app.getPath('userData'), handOffId, { timeoutMs: HAND_OFF_TIMEOUT_MS });
  if (answer?.state === 'running') {
    logger.info(`Patchbay already runs for ${dataDir}; its hub is at ${answer.url}`);
    await closeLog();
    return app.exit(0);
  }
  const why = answer ? `the running Patchbay app could not start its hub: ${answer.message}` : `the running Patchbay app did not answer within ${HAND_OFF_TIMEOUT_MS / 1000} s`;
  logger.error(`${why} (log: ${logFile})`);
  await closeLog();
  app.exit(1);
}

async function sayAndExit(box: BootDialog, code: number): Promise<void> {
  try {
    await dialog.showMessageBox(box.options);
  } catch (err) {
    // The message box itself failed: the error box is synchronous and has no dependencies.
    dialog.showErrorBox(String(box.options.title ?? 'Patchbay'), `${box.options.message}\n\n${box.options.detail ?? ''} (${(err as Error).message})`);
  }
  await closeLog();
  app.exit(code);
}
