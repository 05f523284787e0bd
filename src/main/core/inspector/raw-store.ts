/**
 * The raw stream: the bytes the hub wrote to clients (each response's head, SSE events with their
 * ids, priming events, keep-alives, JSON bodies), redacted, kept per session in a bounded ring
 * beside the parsed events. Recorded only while turned on (`inspector.raw.set`, off by default):
 * off, no listener is attached to any response and nothing here runs.
 *
 * Bounded twice: a session keeps its newest `maxBytesPerSession` (256 KiB) of text, and the
 * store keeps the sessions it heard from most recently (64); older chunks and sessions are
 * dropped, and a session that lost chunks says so (`truncated`).
 */
import type { RawChunk, RawStream } from '../../../shared/api/inspector-contract.js';
import { Ring } from '../lib/ring.js';

export const RAW_BYTES_PER_SESSION = 256 * 1024;
const MAX_SESSIONS = 64;
/** Chunks per session besides the bytes (keep-alives and ends are tiny). */
const MAX_CHUNKS = 4096;

interface SessionRaw {
  readonly chunks: Ring<RawChunk>;
  bytes: number;
  truncated: boolean;
}

export class RawStore {
  private readonly sessions = new Map<string, SessionRaw>();

  constructor(readonly maxBytesPerSession = RAW_BYTES_PER_SESSION) {}

  add(session: string, chunk: RawChunk): void {
    let raw = this.sessions.get(session);
    if (raw === undefined) {
      raw = { chunks: new Ring<RawChunk>(), bytes: 0, truncated: false };
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    } else this.sessions.delete(session);
    // Most recently heard from last (Map order), so the oldest session goes first.
    this.sessions.set(session, raw);
    raw.chunks.push(chunk);
    raw.bytes += chunk.text.length;
    while ((raw.bytes > this.maxBytesPerSession || raw.chunks.length > MAX_CHUNKS) && raw.chunks.length > 1) {
      raw.bytes -= raw.chunks.shift()!.text.length;
      raw.truncated = true;
    }
  }

  get(session: string, enabled: boolean): RawStream {
    const raw = this.sessions.get(session);
    const chunks: RawChunk[] = [];
    if (raw !== undefined) for (let i = 0; i < raw.chunks.length; i++) chunks.push(raw.chunks.at(i)!);
    return { enabled, maxBytesPerSession: this.maxBytesPerSession, chunks, truncated: raw?.truncated ?? false };
  }
}
