/**
 * Where the Electron binary is, if it is installed — found the way node_modules/electron/index.js
 * finds it, without its fallback (which downloads the binary: this machine has no network for it).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures.js';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

export function findElectronBinary(): ElectronBinary {
  const pkg = path.join(REPO_ROOT, 'node_modules', 'electron');
  if (!existsSync(path.join(pkg, 'package.json'))) return { ok: false, reason: 'the electron package is not installed (npm install)' };
  const pathFile = path.join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, relative ?? 'electron') : relative ? path.join(pkg, 'dist', relative) : undefined;
  if (!binary) {
    return { ok: false, reason: `no Electron binary: ${pathFile} is missing (the binary is downloaded on first use; run \`npx electron --version\` on a machine with network access, or set ELECTRON_OVERRIDE_DIST_PATH)` };
  }
  if (!existsSync(binary)) return { ok: false, reason: `no Electron binary at ${binary}` };
  return { ok: true, path: binary };
}
