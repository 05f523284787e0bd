/**
 * Server-Sent Events on a node:http response: the one place the hub frames SSE (the doors'
 * streams, the 2026-07-28 replies, `/api/events`, the inspector's live feed) and the one place a
 * reader's pace is measured.
 *
 * Pace (PROTOCOL Q13): a client is judged by what it fails to take over time, never by the size of
 * one message. The writer remembers where each event it could not hand to the socket at once ends,
 * so it knows which event the reader is taking now (the oldest one not fully taken) and how many
 * bytes wait *behind* it (`queued`): a 50 MiB notification a client is busy reading leaves nothing
 * queued behind it but the answer that follows. `stalled(limits)` is true for a writer whose
 * socket refused a write (and has not drained since) when more than `maxBacklogBytes` wait behind
 * the current event and either the reader took nothing for `stallMs`, or what waits is past twice
 * the cap (the memory bound: a producer that cannot be held back may not outrun a slow reader
 * without limit). What the caller does then — answer with errors, end the stream — is its own.
 */
import type { ServerResponse } from 'node:http';
import { Ring } from '../lib/ring.js';

/** The response headers of every SSE stream the hub sends. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // Reverse proxies (nginx) must not buffer a stream.
  'X-Accel-Buffering': 'no',
};

/** How long a reader may take nothing, with more than the cap waiting, before it is judged stalled. */
export const DEFAULT_STALL_MS = 10_000;

export interface PaceLimits {
  /** Most bytes that may wait behind the event the reader is taking while it is stalled. */
  maxBacklogBytes: number;
  /** How long the reader may take nothing at all before it counts as stalled. */
  stallMs: number;
}

/**
 * Hears the bytes a response is sent, as written: its status line and headers (`head`), each
 * piece of its body (`data`), its end (`end`, no text). Set only while an observer records the
 * raw stream (the inspector's "raw stream", off by default): unset, a write costs one check.
 */
export type WireListener = (kind: 'head' | 'data' | 'end', text: string) => void;

/** The status line and headers node:http wrote (its own `_header`, undocumented but stable), or a line of our own. */
export function headOf(res: ServerResponse): string {
  const head = (res as unknown as { _header?: unknown })._header;
  return typeof head === 'string' ? head : `HTTP/1.1 ${res.statusCode}\r\n\r\n`;
}

export class SseWriter {
  /** Time of the last write (data or comment), for keep-alives. */
  lastWrite = 0;
  /** Set while the raw stream is recorded (WireListener). */
  wire: WireListener | undefined = undefined;
  private opened = false;
  /** Bytes handed to `res.write` so far. */
  private written = 0;
  /** Where each event still (partly) in the response's buffer ends, in `written` offsets. */
  private readonly ends = new Ring<number>();
  /** A write was refused and the response has not drained since. */
  private refused = false;
  /** `written - backlog` at the last look, and when it last grew. */
  private taken = 0;
  private progressAt = 0;
  private readonly drainWaiters = new Set<() => void>();

  constructor(readonly res: ServerResponse) {
    res.on('drain', () => {
      this.refused = false;
      this.progressAt = Date.now();
      const waiting = [...this.drainWaiters];
      this.drainWaiters.clear();
      for (const waiter of waiting) waiter();
    });
    // A closed response never drains: whoever waits is released by its own close listener.
    res.once('close', () => this.drainWaiters.clear());
  }

  get isOpen(): boolean {
    return this.opened;
  }

  /** Nothing more can be written (ended, or the connection is gone). */
  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  /** Sends the status and headers at once (a client must not wait for the first event, P10). */
  open(headers: Record<string, string>, status = 200): void {
    if (this.opened) return;
    this.opened = true;
    this.res.writeHead(status, { ...headers, ...SSE_HEADERS });
    this.res.flushHeaders();
    this.wire?.('head', headOf(this.res));
    this.lastWrite = Date.now();
    this.progressAt = this.lastWrite;
  }

  /**
   * One event: `data` on one line (JSON text), with an `id:` and an `event:` name when given.
   * False: the socket did not take it all (the reader is behind); a `drain` follows.
   */
  event(data: string, id?: string, name = 'message'): boolean {
    return this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`, true);
  }

  /** A priming event: an id and empty data, so a client can resume before any message (P9). */
  prime(id: string): void {
    this.write(`id: ${id}\ndata: \n\n`, false);
  }

  /** A comment line (keep-alives, P13), ignored by every reader. */
  comment(text = ''): void {
    this.write(`:${text === '' ? '' : ` ${text}`}\n\n`, false);
  }

  /** Ends the response after what is written; `comment` goes last, as a comment line. */
  end(comment?: string): void {
    if (this.closed) return;
    if (comment !== undefined) this.comment(comment);
    this.res.end();
    this.wire?.('end', '');
  }

  /** Bytes written that the socket has not taken yet. */
  get backlog(): number {
    return this.res.writableLength;
  }

  /** A write was refused and the response has not drained since. */
  get blocked(): boolean {
    return this.refused;
  }

  /** Called once, at the response's next `drain` (not at all if it closes first). */
  onDrain(waiter: () => void): () => void {
    this.drainWaiters.add(waiter);
    return () => this.drainWaiters.delete(waiter);
  }

  /** Bytes waiting behind the event the reader is taking now. */
  get queued(): number {
    const taken = this.written - this.res.writableLength;
    const ends = this.ends;
    while (ends.length > 0 && ends.first! <= taken) ends.shift();
    const head = ends.first;
    return head === undefined ? 0 : this.written - head;
  }

  /** Whether the reader is judged stalled (see the file comment). */
  stalled(limits: PaceLimits, now = Date.now()): boolean {
    if (!this.refused) return false;
    const taken = this.written - this.res.writableLength;
    if (taken > this.taken) {
      this.taken = taken;
      this.progressAt = now;
    }
    const queued = this.queued;
    if (queued <= limits.maxBacklogBytes) return false;
    return queued > 2 * limits.maxBacklogBytes || now - this.progressAt >= limits.stallMs;
  }

  private write(text: string, isEvent: boolean): boolean {
    if (this.closed) return true;
    this.lastWrite = Date.now();
    // Bytes, not characters: writableLength counts bytes. Length is exact for ASCII, which the
    // framing and nearly every message is; a rare non-ASCII event is counted at its byte length.
    const size = text.length;
    this.written += size;
    const ok = this.res.write(text);
    this.wire?.('data', text);
    if (this.res.writableLength === 0) {
      // Everything went to the socket: no event is waiting, nothing to track.
      this.ends.clear();
      this.written = this.taken = 0;
    } else if (isEvent) this.ends.push(this.written);
    if (!ok) this.refused = true;
    return ok;
  }
}
