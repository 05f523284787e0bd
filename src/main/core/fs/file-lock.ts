/**
 * A lock among the processes that share a data dir — replicas of `patchbay serve` on one volume
 * (docs/deploy.md), the CLI beside the hub, a relay's engine — for what they all rewrite: the
 * client-token store (home/client-tokens.ts), an OAuth refresh (oauth/server-auth.ts: a rotating
 * refresh token is accepted once, so two processes refreshing it at once would lose it for all).
 *
 * The lock is a file created exclusively (`open(…, 'wx')`), which works across processes, hosts
 * and containers on a shared volume, where process ids mean nothing. Its holder touches it while
 * it works, so a lock whose file has not been touched for `staleMs` was left by a process that
 * died, and is taken over; a holder releases only its own (a nonce), never one taken over.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { errCode } from './err-code.js';

export interface CrossProcessLock {
  /** Runs `task` while holding the lock; rejects (without running it) if the lock cannot be had in time. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export interface FileLockOptions {
  /** A lock file untouched this long is taken over (its holder died). Default 30 s. */
  staleMs?: number;
  /** How long to wait for the lock before giving up. Default 60 s. */
  waitMs?: number;
  /** How often the holder touches the file. Default staleMs / 4. */
  beatMs?: number;
  /** What the error says when the lock cannot be had in time: what the lock guards, what to do. */
  busy?: string;
}

export function fileLock(file: string, options: FileLockOptions = {}): CrossProcessLock {
  const staleMs = options.staleMs ?? 30_000;
  const waitMs = options.waitMs ?? 60_000;
  const beatMs = options.beatMs ?? Math.max(10, Math.floor(staleMs / 4));

  const acquire = async (): Promise<string> => {
    const nonce = `${hostname()} ${process.pid} ${randomBytes(9).toString('base64url')}`;
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        const handle = await open(file, 'wx', 0o600);
        try {
          await handle.writeFile(nonce);
        } finally {
          await handle.close();
        }
        return nonce;
      } catch (err) {
        if (errCode(err) !== 'EEXIST') throw err;
      }
      const age = await stat(file).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${options.busy ?? 'another Patchbay process sharing this data dir holds the lock'} (${file}); if no Patchbay process runs, delete that file`);
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
    }
  };

  const release = async (nonce: string): Promise<void> => {
    // Only our own: a holder that stalled past staleMs may have been taken over meanwhile.
    const now = await readFile(file, 'utf8').catch(() => '');
    if (now === nonce) await unlink(file).catch(() => undefined);
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      const nonce = await acquire();
      const beat = setInterval(() => {
        const t = new Date();
        void utimes(file, t, t).catch(() => undefined);
      }, beatMs);
      beat.unref();
      try {
        return await task();
      } finally {
        clearInterval(beat);
        await release(nonce);
      }
    },
  };
}
