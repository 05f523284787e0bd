import type { IncomingMessage } from 'node:http';
import { MiB } from './memory.js';
import { withTimeout } from './waits.js';

/** Reads a whole response slowly (a 20 ms pause after every MiB), as a slow client does, and returns its body. */
export function readSlowly(res: IncomingMessage, timeoutMs = 60_000): Promise<string> {
  return withTimeout(
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let sinceRest = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        sinceRest += chunk.length;
        if (sinceRest < MiB) return;
        sinceRest = 0;
        res.pause();
        setTimeout(() => res.resume(), 20);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    }),
    timeoutMs,
    'a slowly read response',
  );
}
