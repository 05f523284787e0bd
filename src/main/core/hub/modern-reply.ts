/**
 * The HTTP answer to one modern-era request (2026-07-28 basic/transports/streamable-http): a
 * single JSON body when the final response is all there is, an SSE stream when notifications
 * (progress, logs, a subscription's changes) come first. Nothing is written until the first
 * message is known, so a plain call costs no stream framing, and a protocol error keeps the HTTP
 * status the spec gives it (404 for an unknown method, 400 for a version or header problem) —
 * a status cannot change once a stream has started. That choice, and the writing, is http-reply.ts,
 * which the 2025 door's request streams use too; this file adds the era's policy (no stream before
 * the first message, 204 for an answerless end, the graceful answer at shutdown, the pace check).
 *
 * Flow control (issue 17): a modern call cannot be held back for one client — the era multiplexes
 * every modern client of a stdio server over one child (modern-stdio.ts), and the bridge serves
 * them over a legacy session it shares (legacy-bridge.ts) — so a reply gets the cap-only bound a
 * shared child's stream gets (sse-stream.ts): it is measured only once a write of it was refused,
 * and once its client has left more than `maxBacklogBytes` waiting, `overflowing` says so and the
 * runner gives the call up (modern-call.ts). The final answer is always written, whatever
 * its size, after everything before it.
 */
import type { ServerResponse } from 'node:http';
import { ErrorCode } from '../../../shared/protocol.js';
import { DEFAULT_STALL_MS, type PaceLimits, type WireListener } from '../protocol/sse-writer.js';
import { HttpReply } from './http-reply.js';
import { DEFAULT_MAX_BACKLOG_BYTES } from './sse-stream.js';

/** HTTP statuses of the modern era's protocol-level errors; every other error stays in-band (200). */
const ERROR_STATUS: ReadonlyMap<number, number> = new Map([
  [ErrorCode.ParseError, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingRequiredClientCapability, 400],
  [ErrorCode.UnsupportedProtocolVersion, 400],
]);

/** The status a final error answer is sent with when no stream has started. */
export function statusForError(code: number | undefined): number {
  return code === undefined ? 200 : (ERROR_STATUS.get(code) ?? 200);
}

export class ModernReply {
  /** JSON or SSE, decided by the first message (http-reply.ts, shared with the 2025 door). */
  private readonly reply: HttpReply;
  /**
   * The answer that ends this request gracefully when the hub shuts down: a `subscriptions/listen`
   * stream gets its successful response (subscriptions "Graceful Closure"); others get none.
   */
  graceful: string | undefined;

  constructor(
    res: ServerResponse,
    headers: Record<string, string>,
    /** The pace a client is held to (protocol/write-pace.ts; the hub's stream limits). */
    private readonly pace: PaceLimits = { maxBacklogBytes: DEFAULT_MAX_BACKLOG_BYTES, stallMs: DEFAULT_STALL_MS },
  ) {
    this.reply = new HttpReply(res, headers);
  }

  get done(): boolean {
    return this.reply.done;
  }

  /** Records the bytes this reply sends (an observer's raw stream). */
  set wire(listener: WireListener) {
    this.reply.wire = listener;
  }

  /** The client's connection is gone (it closed the stream: its cancellation). */
  get gone(): boolean {
    return this.reply.gone;
  }

  /** Called once when the response closes: after the answer, or when the client went away first. */
  onGone(listener: () => void): void {
    this.reply.res.once('close', listener);
  }

  get isStream(): boolean {
    return this.reply.isStream;
  }

  /** Bytes written that the client has not taken yet. */
  get backlog(): number {
    return this.reply.backlog;
  }

  /**
   * The client is judged stalled (protocol/write-pace.ts: it took nothing for a while with more
   * than the cap waiting behind what it reads, or let twice the cap pile up): nothing more may be
   * written but the call's final answer. A client busy reading one large message is never judged
   * stalled for it.
   */
  get overflowing(): boolean {
    return !this.reply.done && this.reply.stalled(this.pace);
  }

  /** A notification of the call: starts the stream if needed. */
  notification(json: string): void {
    this.reply.event(json);
  }

  /** Opens the stream at once with nothing in it (a `subscriptions/listen` stream, which may stay quiet). */
  open(): void {
    this.reply.open();
  }

  /**
   * The final answer. `status`: what to answer with if no stream started (a remote's status for
   * its error, or the status the error's code calls for); ignored once streaming.
   */
  final(json: string, status: number): void {
    this.reply.final(json, status);
  }

  /** Ends without an answer (a stream the server closed; a listen stream whose client went away): 204 when no stream started. */
  end(): void {
    this.reply.end(204);
  }

  /** The hub is shutting down: the graceful answer when there is one, else the stream just ends. */
  shutdown(): void {
    if (this.graceful !== undefined) this.final(this.graceful, 200);
    else this.end();
  }

  /**
   * An SSE comment on an idle stream, so proxies and clients keep it open. A reply still held
   * (no message yet) gets none: the modern era holds its answer until the first message.
   */
  keepAlive(now: number, idleMs: number): void {
    const reply = this.reply;
    if (reply.isStream && !reply.done && now - reply.writer.lastWrite >= idleMs) reply.keepAlive();
  }
}
