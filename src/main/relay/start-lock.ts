/**
 * The lock that lets exactly one of many relays started at once launch the hub. It is a file
 * created with O_EXCL holding the owner's pid and the time; a lock whose owner died, or that is
 * older than any start could take, is stale and is taken over — by renaming it away first, so
 * that of two relays finding the same stale lock only one removes it.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink, link } from 'node:fs/promises';
import { errCode } from '../core/index.js';
import { isAlive } from './hub-discovery.js';

export interface LockOwner {
  pid: number;
  /** Milliseconds since the epoch when the lock was taken. */
  since: number;
}

export interface StartLock {
  release(): Promise<void>;
}

/**
 * Takes the lock, or resolves undefined when a live owner holds it. `staleAfterMs` bounds how long
 * a lock can be held: a hub start that takes longer has failed anyway.
 */
export async function tryLock(file: string, staleAfterMs: number, now: () => number = Date.now): Promise<StartLock | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const content = `${process.pid}\n${now()}\n`;
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
      return { release: () => releaseIfOurs(file, content) };
    } catch (err) {
      if (errCode(err) !== 'EEXIST') throw err;
    }
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue; // released meanwhile: try again
    const owner = parseOwner(text);
    // A lock being written right now reads empty: give its owner the benefit of the doubt.
    if (owner === undefined && text === '') return undefined;
    if (owner && isAlive(owner.pid) && now() - owner.since < staleAfterMs) return undefined;
    await takeOverStale(file, text);
  }
  return undefined;
}

export function parseOwner(text: string): LockOwner | undefined {
  const [pid, since] = text.split('\n');
  const p = Number(pid);
  const s = Number(since);
  return Number.isSafeInteger(p) && p > 0 && Number.isFinite(s) ? { pid: p, since: s } : undefined;
}

async function takeOverStale(file: string, staleText: string): Promise<void> {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return; // another relay moved it first
    throw err;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) {
    // Between our read and the rename, a live owner replaced the stale lock: put theirs back.
    await link(aside, file).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

async function releaseIfOurs(file: string, content: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === content) await unlink(file).catch(() => undefined);
}
