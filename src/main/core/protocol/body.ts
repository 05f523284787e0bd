/**
 * Reads a request body up to a limit. An oversize body is drained (up to a hard cap) before the
 * 413 goes out, so the client reads the answer instead of a reset connection (PROTOCOL P8).
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large'; bytes: number; drained: boolean } | { ok: false; reason: 'aborted' };

/** Past this many bytes an oversize upload is no longer drained: the connection is dropped. */
const DRAIN_CAP = 64 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    if (Number.isFinite(declared) && declared > DRAIN_CAP) {
      resolve({ ok: false, reason: 'too-large', bytes: declared, drained: false });
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over || size > limit) {
        over = true;
        chunks.length = 0;
        if (size > DRAIN_CAP) {
          req.removeAllListeners('data');
          resolve({ ok: false, reason: 'too-large', bytes: size, drained: false });
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) resolve({ ok: false, reason: 'too-large', bytes: size, drained: true });
      else resolve({ ok: true, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
    });
    req.on('aborted', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
  });
}
