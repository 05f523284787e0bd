/**
 * Crash-safe file replacement: a reader (or a crash) sees either the old file or the new one,
 * never half of each. Used for config, secrets, the hub token and client configs.
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errCode } from './err-code.js';

export interface AtomicWriteOptions {
  /** File mode of the result, e.g. 0o600 for secrets. Default: the existing file's mode, else 0o666 minus umask. */
  mode?: number;
  /** Copy the current file to `<name>.bak` first (one backup kept, replaced each write). */
  backup?: boolean;
}

const isWindows = process.platform === 'win32';

/**
 * Write `data` to `file` through a temp file in the same directory (same filesystem, so the
 * rename is atomic), fsynced before the rename so a crash cannot leave an empty file behind.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // Write through a symlink (dotfile managers link config files) instead of replacing the link.
  const target = await realpath(file).catch(() => file);
  const existingMode = await stat(target).then(
    (s) => s.mode & 0o777,
    (err: unknown) => {
      if (errCode(err) === 'ENOENT') return undefined;
      throw err;
    },
  );
  const mode = options.mode ?? existingMode;

  if (options.backup && existingMode !== undefined) {
    await writeBackup(target, existingMode, options.mode);
  }

  const dir = path.dirname(target);
  const temp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    // 'wx': never follow or reuse something already at the temp name.
    const handle = await open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; chmod makes an explicit or preserved mode exact.
    if (mode !== undefined && !isWindows) await chmod(temp, mode);
    await renameWithRetry(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

async function writeBackup(
  target: string,
  existingMode: number,
  requestedMode: number | undefined,
): Promise<void> {
  const bak = `${target}.bak`;
  const bakTemp = `${bak}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await copyFile(target, bakTemp);
    // The backup is never more readable than either the old or the new file (secrets stay 0600).
    if (!isWindows) await chmod(bakTemp, existingMode & (requestedMode ?? 0o777));
    await renameWithRetry(bakTemp, bak);
  } catch (err) {
    await unlink(bakTemp).catch(() => undefined);
    throw err;
  }
}

/** Windows refuses a rename while another process (an editor, an AV scanner) has the file open; it clears quickly. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (err) {
      const code = errCode(err);
      if (
        !isWindows ||
        attempt >= 10 ||
        (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')
      )
        throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
}

/** Persist the rename itself; best effort because not every platform lets a directory be fsynced. */
async function syncDir(dir: string): Promise<void> {
  if (isWindows) return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Ignored: the data is already in place; only durability across a power cut is weaker.
  }
}
