/**
 * Where the desktop app finds its data and its own files. Pure (inputs injected) so every
 * platform's and both layouts' answers (development checkout, packaged app) are testable.
 */
import path from 'node:path';
import { resolveDataDir, type DataDirInputs } from '../core/index.js';
import type { LaunchArgs } from './launch-args.js';

/**
 * The data dir: `--data-dir` (the relay passes it when it starts the app), else `PATCHBAY_HOME`,
 * else the per-user folder the CLI uses too — so `patchbay relay`, `patchbay export` and the app
 * agree on one config, one hub token and one `hub.json`.
 */
export function desktopDataDir(launch: LaunchArgs, inputs: DataDirInputs): string {
  const p = inputs.platform === 'win32' ? path.win32 : path.posix;
  return launch.dataDir !== undefined ? p.resolve(launch.dataDir) : resolveDataDir(inputs);
}

/**
 * Chromium's own files (caches, local storage, the single-instance lock) go below the data dir
 * rather than beside it: on macOS and Windows Electron's default userData folder *is* the data
 * dir's location, and the lock then follows the data dir (one app per data dir).
 */
export function electronUserDataDir(dataDir: string): string {
  return path.join(dataDir, 'electron');
}

export interface AppFiles {
  /** The built renderer (Vite's output), served to the window as app://patchbay/. */
  rendererRoot: string;
  /** The sandboxed preload: one CommonJS file (scripts/build-electron.mjs bundles it). */
  preload: string;
  /** Tray images (scripts/make-icons.mjs draws them). */
  trayDir: string;
  /** The window icon on Windows and Linux (macOS takes the bundle's icon). */
  windowIcon: string;
}

/** `appPath` is `app.getAppPath()`: the repo root in development, `…/app.asar` when packaged. */
export function appFiles(appPath: string): AppFiles {
  return {
    rendererRoot: path.join(appPath, 'dist', 'renderer'),
    preload: path.join(appPath, 'dist', 'preload', 'preload.cjs'),
    trayDir: path.join(appPath, 'assets', 'tray'),
    windowIcon: path.join(appPath, 'assets', 'icons', '512x512.png'),
  };
}
