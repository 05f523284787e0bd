/**
 * Patchbay's demo server as the desktop app runs it (the entry a fresh data dir's config gets,
 * core/config/first-run.ts): the app's own executable in Node mode (`ELECTRON_RUN_AS_NODE=1`)
 * running the demo server bundled into one file (scripts/build-electron.mjs →
 * dist/demo/patchbay-demo-server.mjs). A machine with the app needs neither Node.js nor npx.
 *
 * Why the script ships outside app.asar (electron-builder `extraResources`, like the relay): the
 * server is a child process, and to every program but Electron app.asar is one opaque file — a
 * path inside it is no file at all. Electron's asar support would apply here only because the
 * child happens to be the app's executable in Node mode (it stays on there unless ELECTRON_NO_ASAR
 * is set), and the bundle is ESM, which reaches an archive only through Electron's patches to
 * Node's ESM loader (resolution inside app.asar has regressed before — issue 18). A plain file
 * beside app.asar runs under any Node (what the tests and a person debugging do), can be copied
 * out of an AppImage's mount, and is what the path written into config.json really names.
 *
 * An AppImage mounts at a new path every run, so there (as for the relay) the command is the
 * AppImage file and the script a copy in `<data dir>/demo/` made at every start-up.
 */
import type { StdioServerConfig } from '../../shared/config-schema.js';
import { nodeModeCommand, shippedScriptLocation, type RelayLauncherInputs } from './relay-launcher.js';

export const DEMO_SCRIPT_NAME = 'patchbay-demo-server.mjs';
/** The folder of the bundle in dist/, in the app's resources and (AppImage) in the data dir. */
export const DEMO_SCRIPT_FOLDER = 'demo';

/** Where the demo server's script is when the app runs; `copyFrom` is set when it must be copied first. */
export function demoScriptLocation(inputs: RelayLauncherInputs): { script: string; copyFrom?: string } {
  return shippedScriptLocation(inputs, DEMO_SCRIPT_FOLDER, DEMO_SCRIPT_NAME);
}

/** The demo server entry the desktop app hands to the engine (EngineOptions.demoServer). */
export function desktopDemoServer(inputs: RelayLauncherInputs): StdioServerConfig {
  return { command: nodeModeCommand(inputs), args: [demoScriptLocation(inputs).script], env: { ELECTRON_RUN_AS_NODE: '1' } };
}
