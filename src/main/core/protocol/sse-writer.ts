/**
 * Server-Sent Events on a node:http response: the one place the hub frames SSE (the doors'
 * streams, the 2026-07-28 replies, `/api/events`, the inspector's live feed).
 *
 * Pace (PROTOCOL Q13) is judged by write-pace.ts, on the response's buffer: `stalled(limits)` says
 * whether the reader fell too far behind; what the caller does then — answer with errors, end the
 * stream — is its own.
 */
import type { ServerResponse } from 'node:http';
import { WritePace, type PaceLimits } from './write-pace.js';

export { DEFAULT_STALL_MS, type PaceLimits } from './write-pace.js';

/** The response headers of every SSE stream the hub sends. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // Reverse proxies (nginx) must not buffer a stream.
  'X-Accel-Buffering': 'no',
};

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
  /** The reader's pace, on the response's buffer. */
  private readonly pace: WritePace;
  private readonly drainWaiters = new Set<() => void>();

  constructor(readonly res: ServerResponse) {
    this.pace = new WritePace(res);
    res.on('drain', () => {
      this.pace.drained();
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
    this.pace.progressed(this.lastWrite);
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
    return this.pace.blocked;
  }

  /** Called once, at the response's next `drain` (not at all if it closes first). */
  onDrain(waiter: () => void): () => void {
    this.drainWaiters.add(waiter);
    return () => this.drainWaiters.delete(waiter);
  }

  /** Bytes waiting behind the event the reader is taking now. */
  get queued(): number {
    return this.pace.queued;
  }

  /** Whether the reader is judged stalled (write-pace.ts). */
  stalled(limits: PaceLimits, now = Date.now()): boolean {
    return this.pace.stalled(limits, now);
  }

  private write(text: string, isEvent: boolean): boolean {
    if (this.closed) return true;
    this.lastWrite = Date.now();
    // Bytes, not characters: writableLength counts bytes. Length is exact for ASCII, which the
    // framing and nearly every message is; a rare non-ASCII event is counted at its byte length.
    const size = text.length;
    const ok = this.res.write(text);
    this.wire?.('data', text);
    this.pace.wrote(size, ok, isEvent);
    return ok;
  }
}
