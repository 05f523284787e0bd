import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseOwner, tryLock } from './start-lock.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-lock-test-'));
  file = path.join(dir, 'hub.start.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A pid that surely belongs to no running process: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('start lock', () => {
  it('is taken by one caller at a time and released by its owner only', async () => {
    const first = await tryLock(file, 60_000);
    expect(first).toBeDefined();
    expect(parseOwner(await readFile(file, 'utf8'))?.pid).toBe(process.pid);
    expect(await tryLock(file, 60_000)).toBeUndefined();
    await first!.release();
    const second = await tryLock(file, 60_000);
    expect(second).toBeDefined();
    await second!.release();
    await expect(readFile(file)).rejects.toThrow();
  });

  it('lets exactly one of many concurrent callers win', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => tryLock(file, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('takes over a lock whose owner died, leaving no stray files', async () => {
    await writeFile(file, `${deadPid()}\n${Date.now()}\n`);
    const lock = await tryLock(file, 60_000);
    expect(lock).toBeDefined();
    expect(parseOwner(await readFile(file, 'utf8'))?.pid).toBe(process.pid);
    await lock!.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock held longer than any start could take, and a garbled one', async () => {
    await writeFile(file, `${process.pid}\n${Date.now() - 120_000}\n`);
    expect(await tryLock(file, 60_000)).toBeDefined();
    await rm(file);
    await writeFile(file, 'garbage');
    expect(await tryLock(file, 60_000)).toBeDefined();
  });

  it('treats a lock being written (still empty) as held', async () => {
    await writeFile(file, '');
    expect(await tryLock(file, 60_000)).toBeUndefined();
  });
});
