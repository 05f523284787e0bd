/**
 * Before anything else: can the app write its data dir? Everything lives there (config, secrets,
 * the hub token, logs, Chromium's own files and the single-instance lock), and an unwritable one
 * would otherwise end the app before any window could say why (the log cannot open, and Chromium
 * reports a lock it cannot create as "another instance runs").
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type DataDirCheck = { ok: true } | { ok: false; message: string };

export function checkDataDir(dataDir: string): DataDirCheck {
  const probe = path.join(dataDir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(probe, '', { mode: 0o600 });
    rmSync(probe, { force: true });
    return { ok: true };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, message: `${e.code ?? 'error'}: ${e.message}` };
  }
}
