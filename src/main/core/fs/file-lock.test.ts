import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileLock } from './file-lock.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pb-file-lock-'));
  file = path.join(dir, 'oauth-refresh.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the refresh lock file', () => {
  it('lets one holder at a time in, across lock objects (as across processes), and is gone after', async () => {
    const events: string[] = [];
    const task = (name: string) => async (): Promise<string> => {
      events.push(`${name} in`);
      await sleep(60);
      events.push(`${name} out`);
      return name;
    };
    const results = await Promise.all([fileLock(file).run(task('a')), fileLock(file).run(task('b')), fileLock(file).run(task('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < events.length; i += 2) expect(events[i]!.split(' ')[0]).toBe(events[i + 1]!.split(' ')[0]);
    await expect(stat(file)).rejects.toThrow();
  });

  it('is released when the task throws', async () => {
    await expect(fileLock(file).run(() => Promise.reject(new Error('refresh failed')))).rejects.toThrow('refresh failed');
    await expect(stat(file)).rejects.toThrow();
  });

  it('takes over a lock whose holder died (not touched for staleMs)', async () => {
    await writeFile(file, 'other-host 42 x');
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    expect(await fileLock(file, { staleMs: 1000, waitMs: 2000 }).run(async () => 'ran')).toBe('ran');
  });

  it('waits for a live holder, then gives up without running the task', async () => {
    await writeFile(file, 'other-host 42 x');
    let ran = false;
    await expect(
      fileLock(file, { staleMs: 10_000, waitMs: 200 }).run(async () => {
        ran = true;
      }),
    ).rejects.toThrow(/another Patchbay process sharing this data dir holds the lock \(.*\); if no Patchbay process runs, delete that file/);
    expect(ran).toBe(false);
    // Someone else's lock is left alone.
    expect((await stat(file)).isFile()).toBe(true);
  });

  it('a holder that works longer than staleMs keeps its lock fresh, so nobody takes it over', async () => {
    const events: string[] = [];
    const long = fileLock(file, { staleMs: 150, beatMs: 30 }).run(async () => {
      events.push('long in');
      await sleep(500);
      events.push('long out');
    });
    // The long holder is in before the short one asks.
    await vi.waitFor(() => expect(events).toContain('long in'));
    const short = fileLock(file, { staleMs: 150, beatMs: 30, waitMs: 5000 }).run(async () => {
      events.push('short');
    });
    await Promise.all([long, short]);
    expect(events).toEqual(['long in', 'long out', 'short']);
  });
});
