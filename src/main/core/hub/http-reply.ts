/**
 * The HTTP answer to one POST that carries a request, for both eras' doors: a single
 * `application/json` body when the answer is the first thing there is to send, an SSE stream once
 * something comes before it (progress, a log line, a server→client request). Status and headers
 * are held until that first message is known, so a plain call costs no stream framing — on the
 * hub, and above all on the client, whose SSE handling is most of its CPU per call
 * (docs/performance.md) — and a status can still be chosen for the answer.
 *
 * Used by the 2026-07-28 door (modern-reply.ts, which holds until the first message) and by the
 * 2025 door's request streams (http-sink.ts `replySink`, which also opens the stream once a hold
 * time has passed, so a slow call is resumable (P9, P11) and kept alive (P13) as before).
 * Framing is the one SSE writer's (protocol/sse-writer.ts), the judgement of a reader's pace write-pace.ts's.
 */
import type { ServerResponse } from 'node:http';
import { headOf, SseWriter, type PaceLimits, type WireListener } from '../protocol/sse-writer.js';
import { piecesFor } from '../protocol/wire-bytes.js';

/**
 * How long a 2025 POST's headers are held, once its request is on its way to the server, for an
 * answer that may go as JSON before its SSE stream opens anyway. Long enough for a quick tool's
 * answer (and a 1 MiB one) to go as one body, also on a busy machine; short enough that a slow
 * call's client soon holds an event id to resume from, and that a client which waits for a POST's
 * headers before it sends its next message (one at a time, in order) is not held up for long.
 */
export const DEFAULT_REPLY_HOLD_MS = 250;

/**
 * Above this many characters a JSON body is written as bytes: node:http joins a string body to
 * its header block (a copy of all of it, flattened before it is encoded), a buffer it sends beside
 * the header block.
 */
const BODY_AS_BYTES_AT = 64 * 1024;

export class HttpReply {
  /** True once the SSE stream started (headers sent). */
  private streaming = false;
  private finished = false;
  private primingId: string | undefined;
  private holdTimer: NodeJS.Timeout | undefined;
  readonly writer: SseWriter;

  constructor(
    readonly res: ServerResponse,
    /** The response headers (CORS, the session's); sent with whichever form the answer takes. */
    public headers: Record<string, string>,
  ) {
    this.writer = new SseWriter(res);
  }

  /** Records the bytes sent (protocol/sse-writer.ts WireListener): the stream's and a JSON answer's. */
  set wire(listener: WireListener | undefined) {
    this.writer.wire = listener;
  }

  /** Nothing was sent yet: the answer may still go as one JSON body. */
  get held(): boolean {
    return !this.streaming && !this.finished;
  }

  get isStream(): boolean {
    return this.streaming;
  }

  get done(): boolean {
    return this.finished;
  }

  /** The client's connection is gone. */
  get gone(): boolean {
    return this.res.destroyed;
  }

  /** A priming event (P9) to open the stream with, if it opens. A JSON answer needs none. */
  primeWith(eventId: string): void {
    this.primingId = eventId;
  }

  /** Opens the stream after `ms` if nothing was sent by then. */
  holdFor(ms: number): void {
    if (!this.held || this.holdTimer !== undefined) return;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = undefined;
      if (!this.res.destroyed) this.open();
    }, ms);
    this.holdTimer.unref();
  }

  /** Starts the SSE stream now (headers flushed, then the priming event if any). */
  open(): void {
    if (!this.held) return;
    this.stopHold();
    this.streaming = true;
    this.writer.open(this.headers);
    if (this.primingId !== undefined) this.writer.prime(this.primingId);
  }

  /**
   * A message that is not the final answer: starts the stream if needed. False: the socket did not
   * take it all (protocol/sse-writer.ts).
   */
  event(json: string, eventId?: string): boolean {
    if (this.finished) return true;
    this.open();
    return this.writer.event(json, eventId);
  }

  /**
   * The final answer: one JSON body with `status` if nothing was sent yet, else the stream's last
   * event, and the stream ends.
   */
  final(json: string, status: number, eventId?: string): void {
    if (this.finished) return;
    if (this.streaming) {
      this.finished = true;
      this.writer.event(json, eventId);
      this.writer.end();
      return;
    }
    this.stopHold();
    this.finished = true;
    const res = this.res;
    if (res.destroyed) return;
    // A large answer the server sent as it is goes out as the bytes it came in (wire-bytes.ts):
    // no second encoding of the text, nor the buffer it would fill. Any other large one is
    // encoded once, here.
    const pieces = json.length > BODY_AS_BYTES_AT ? (piecesFor(json) ?? [Buffer.from(json)]) : undefined;
    let length = 0;
    if (pieces !== undefined) for (const p of pieces) length += p.length;
    res.writeHead(status, { ...this.headers, 'Content-Type': 'application/json', 'Content-Length': pieces !== undefined ? length : Buffer.byteLength(json) });
    // Headers and body in one write: end() corks the socket until both are queued (headers
    // flushed apart were a system call, and a wake-up of the client, of their own).
    if (pieces === undefined) res.end(json);
    else if (pieces.length === 1) res.end(pieces[0]);
    else {
      res.cork();
      for (const p of pieces) res.write(p);
      res.end();
    }
    const wire = this.writer.wire;
    if (wire !== undefined) {
      wire('head', headOf(res));
      wire('data', json);
      wire('end', '');
    }
  }

  /** Ends with no answer: an empty stream when none started (`status` undefined), else `status` and no body. */
  end(status?: number): void {
    if (this.finished) return;
    if (this.held && status !== undefined) {
      this.stopHold();
      this.finished = true;
      this.res.writeHead(status, this.headers);
      this.res.end();
      this.writer.wire?.('head', headOf(this.res));
      this.writer.wire?.('end', '');
      return;
    }
    this.open();
    this.finished = true;
    this.writer.end();
  }

  /** An SSE comment on an idle stream (P13); a held answer opens its stream for it. A blocked stream is not idle. */
  keepAlive(text?: string): void {
    if (this.finished) return;
    this.open();
    if (!this.writer.blocked) this.writer.comment(text);
  }

  /** Bytes written that the client has not taken yet. */
  get backlog(): number {
    return this.writer.backlog;
  }

  stalled(limits: PaceLimits, now?: number): boolean {
    return this.writer.stalled(limits, now);
  }

  private stopHold(): void {
    if (this.holdTimer === undefined) return;
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }
}
