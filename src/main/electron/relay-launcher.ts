/**
 * How Claude Desktop (or any stdio client) starts the relay of the installed app, with no Node.js
 * on the machine: the app's own executable with `ELECTRON_RUN_AS_NODE=1` runs the bundled relay
 * script as plain Node. Every path is absolute: a desktop-launched client has no useful PATH.
 * The export writes `{command, args: [...args, 'relay', <server>], env}` (core/clients).
 *
 * The relay script lives outside app.asar (electron-builder `extraResources`), so it does not
 * depend on asar support in Node mode. An AppImage mounts itself at a new temporary path on every
 * run, so there the command is the AppImage file itself and the script is copied into the data
 * dir at start-up (`relayScriptCopy`).
 */
import path from 'node:path';
import type { RelayLauncher } from '../core/index.js';

export const RELAY_SCRIPT_NAME = 'patchbay-relay.mjs';
/** Set by the launcher in development only: the app dir `electron` needs before `--hidden`. */
export const APP_ENTRY_ENV = 'PATCHBAY_APP_ENTRY';

export interface RelayLauncherInputs {
  platform: NodeJS.Platform;
  /** `process.execPath` of the app: the executable inside the bundle, or `electron` in development. */
  execPath: string;
  /** `process.resourcesPath`: where `extraResources` land in a packaged app. */
  resourcesPath: string;
  /** `app.getAppPath()`: the repo root in development. */
  appPath: string;
  isPackaged: boolean;
  dataDir: string;
  /** `process.env.APPIMAGE`: set by the AppImage runtime to the .AppImage file's path. */
  appImage?: string | undefined;
}

/**
 * Where a script the app ships outside app.asar (`extraResources` to `<folder>/<name>`, built into
 * `dist/<folder>/<name>`) is when the app runs; `copyFrom` is set when it must be copied there
 * first (an AppImage: the copy in `<data dir>/<folder>/` outlives the mount).
 */
export function shippedScriptLocation(inputs: RelayLauncherInputs, folder: string, name: string): { script: string; copyFrom?: string } {
  const p = pathFor(inputs.platform);
  const shipped = inputs.isPackaged ? p.join(inputs.resourcesPath, folder, name) : p.join(inputs.appPath, 'dist', folder, name);
  if (isAppImage(inputs)) return { script: p.join(inputs.dataDir, folder, name), copyFrom: shipped };
  return { script: shipped };
}

/** Where the relay script is when the app runs; `copyFrom` is set when it must be copied first. */
export function relayScriptLocation(inputs: RelayLauncherInputs): { script: string; copyFrom?: string } {
  return shippedScriptLocation(inputs, 'relay', RELAY_SCRIPT_NAME);
}

/** The stable copy of the relay script an AppImage's entries point at. */
export function relayScriptCopy(platform: NodeJS.Platform, dataDir: string): string {
  return pathFor(platform).join(dataDir, 'relay', RELAY_SCRIPT_NAME);
}

/**
 * The executable that runs a shipped script in Node mode (with `ELECTRON_RUN_AS_NODE=1`): the
 * app's own, or the AppImage file (its runtime passes the environment on to the executable inside).
 */
export function nodeModeCommand(inputs: RelayLauncherInputs): string {
  return isAppImage(inputs) ? inputs.appImage! : inputs.execPath;
}

/** The launcher the desktop app hands to the engine's client-config export. */
export function desktopRelayLauncher(inputs: RelayLauncherInputs): RelayLauncher {
  const { script } = relayScriptLocation(inputs);
  const command = nodeModeCommand(inputs);
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  // `electron` alone is not the app: in development the relay must name the app dir to start it.
  if (!inputs.isPackaged) env[APP_ENTRY_ENV] = inputs.appPath;
  return { command, args: [script], env };
}

/**
 * How the relay starts the app when no hub runs (the relay then appends `--data-dir <dir>`):
 * the same executable, not in Node mode, in the tray only. Inside an AppImage the executable sits
 * in a mount that goes away with the relay, so the AppImage file is started instead.
 */
export function appLaunchCommand(env: Readonly<Record<string, string | undefined>>, execPath: string): { command: string; args: string[] } {
  const appEntry = env[APP_ENTRY_ENV];
  const appImage = env.APPIMAGE;
  const command = appImage !== undefined && appImage !== '' ? appImage : execPath;
  return { command, args: [...(appEntry ? [appEntry] : []), '--hidden'] };
}

function isAppImage(inputs: RelayLauncherInputs): boolean {
  return inputs.platform === 'linux' && inputs.isPackaged && typeof inputs.appImage === 'string' && inputs.appImage !== '';
}

function pathFor(platform: NodeJS.Platform): typeof path.posix {
  return platform === 'win32' ? path.win32 : path.posix;
}
