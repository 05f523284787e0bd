/** Temporary directories that are removed after the test that made them. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup.js';

/** A fresh directory under the OS temp dir, named `<prefix>XXXXXX`, removed after the test. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
