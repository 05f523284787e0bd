/**
 * One logical SSE stream of a session: the stream opened by a POST that carried requests, or the
 * session's standalone GET stream. It outlives the HTTP response it is written to, so a client
 * whose connection drops can resume it with `Last-Event-ID` (PROTOCOL P9–P11): its events are
 * kept, bounded, until it completes while attached, and a resumed GET picks up where it broke.
 *
 * Event ids are `<streamKey>-<n>`: unique within the session and tied to their stream, so a
 * resumption replays only that stream (never another's messages).
 *
 * What a stream is written to is a StreamSink: the endpoint gives an HTTP response as one
 * (http-sink.ts; a POST's reply may turn out to be one JSON body, when its answer came first);
 * the stream itself knows nothing of HTTP.
 */
import { Ring } from '../lib/ring.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { DEFAULT_STALL_MS, type PaceLimits, type WireListener } from '../protocol/sse-writer.js';
import type { StreamSink } from './stream-sink.js';

export interface StreamLimits {
  /** Most events kept for replay, per stream. */
  maxEvents: number;
  /** Most bytes kept for replay, per stream. */
  maxBytes: number;
  /**
   * Most bytes a stalled client may leave waiting behind the message it is reading (default
   * DEFAULT_MAX_BACKLOG_BYTES; see protocol/write-pace.ts for how a client is judged stalled).
   * Applies only where the producer cannot be held back (a shared child, a remote, a profile):
   * the stream is then given up, its open requests answered with an error.
   */
  maxBacklogBytes?: number;
  /** How long a client over that cap may take nothing before it is judged stalled (DEFAULT_STALL_MS). */
  stallMs?: number;
}

export const DEFAULT_MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** The pace limits a stream's client is held to. */
export function paceLimits(limits: Pick<StreamLimits, 'maxBacklogBytes' | 'stallMs'>): PaceLimits {
  return { maxBacklogBytes: limits.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES, stallMs: limits.stallMs ?? DEFAULT_STALL_MS };
}

/** What a stream tells its session about its client's pace (session-streams.ts). */
export interface StreamFlow {
  /** The client stopped keeping up: hold the producer back. */
  blocked(stream: SseStream): void;
  /** It caught up (or went away): the producer may go on. */
  unblocked(stream: SseStream): void;
  /**
   * Whether the producer is held back while the client is behind (a per-session stdio child is
   * paused): then nothing piles up, and the stream is never given up for its client's pace.
   */
  readonly holdsBack: boolean;
  /** Its client is stalled (see StreamLimits): the stream must be given up. */
  overflowed(stream: SseStream): void;
  /**
   * Observers' marks, set only when an observer wants them (hub/observer.ts): a message's JSON
   * text was just written to the client (`delivered`); the bytes a stream's sink writes, for a
   * stream about to be attached (`wireFor`: undefined when nobody records the raw stream).
   */
  readonly delivered?: ((json: string) => void) | undefined;
  readonly wireFor?: ((stream: string) => WireListener | undefined) | undefined;
}

interface StoredEvent {
  n: number;
  data: string;
}

export class SseStream {
  /** Requests of this stream still waiting for their response. Zero on a GET stream. */
  pending = 0;
  /** True once every response went out: the stream ends when it is (or next gets) attached. */
  done = false;
  lastWrite = 0;
  private sink: StreamSink | undefined;
  private readonly events = new Ring<StoredEvent>();
  private bytes = 0;
  private next = 1;
  /** Oldest event number that can still be replayed; older ones were evicted. */
  private floor = 1;
  /** Highest event number written to a connection. */
  private sentUpTo = 0;
  /** The sink said "wait" and has not drained since. */
  private blocked = false;
  /** Given up for its client's pace: from then on only answers are written (the hub's errors, a late result). */
  private overflowed = false;
  private readonly pace: PaceLimits;
  /** Its events are kept for a replay: false once a sink that cannot be resumed was attached. */
  private keep = true;

  constructor(
    readonly key: string,
    private readonly limits: StreamLimits,
    private readonly flow: StreamFlow,
  ) {
    this.pace = paceLimits(limits);
  }

  get attached(): boolean {
    return this.sink !== undefined;
  }

  /** A client could come back for this stream's events (StreamSink.resumable). */
  get resumable(): boolean {
    return this.keep;
  }

  /**
   * Makes `sink` the stream's output and opens it at once (a client must not wait for the first
   * event to see the headers, P10). `headers` are the session's response headers.
   */
  attach(sink: StreamSink, headers: Record<string, string>, primingEvent: boolean): void {
    if (sink.resumable === false) this.keep = false;
    this.sink = sink;
    this.overflowed = false;
    const wire = this.flow.wireFor?.(this.key);
    if (wire !== undefined) sink.tapWire?.(wire);
    sink.open(headers);
    this.lastWrite = Date.now();
    // A priming event (id, empty data) lets a 2025-11-25 client resume even before any message.
    if (primingEvent) sink.prime(`${this.key}-0`);
    sink.onClose(() => {
      if (this.sink !== sink) return;
      this.sink = undefined;
      // A client that left before anything was sent to it holds no event id to resume from.
      if (sink.started === false) this.forgetEvents();
      this.unblock();
    });
  }

  /**
   * Sends one JSON-RPC message (its JSON text on one line) as an event, or keeps it for replay.
   * `message`: the same message parsed, when the caller has it (an in-process sink uses it).
   */
  push(json: string, message?: JsonRpcMessage): void {
    const n = this.next++;
    if (this.keep) this.remember(n, json);
    if (!this.sink) return;
    // An answer is always written, whatever the client's pace: it ends what the client waits for.
    if (message !== undefined && !('method' in message)) {
      this.writeEvent(n, json, message);
      if (this.blocked) this.judgeStalled();
      return;
    }
    if (this.overflowed || (this.blocked && this.judgeStalled())) return;
    this.writeEvent(n, json, message);
  }

  /**
   * Whether the client is stalled, judged by its pace (protocol/write-pace.ts) and only where the
   * producer is not held back for it; a stalled stream is given up (StreamFlow.overflowed). Also
   * run by the hub's tick, so a client that stops reading is given up even when nothing more comes.
   */
  judgeStalled(now = Date.now()): boolean {
    const sink = this.sink;
    if (this.overflowed || !sink || this.flow.holdsBack || !sink.stalled?.(this.pace, now)) return false;
    this.overflowed = true;
    this.flow.overflowed(this);
    return true;
  }

  /** Bytes the attached client has not taken yet. */
  get backlog(): number {
    return this.sink?.backlog ?? 0;
  }

  /** Replays events after event number `after` (a client's `Last-Event-ID`). */
  replayFrom(after: number): void {
    const events = this.events;
    for (let i = events.firstIndexWhere((e) => e.n > after); i < events.length; i++) {
      const e = events.at(i)!;
      this.writeEvent(e.n, e.data);
    }
  }

  /** Sends what was queued while no connection was attached (a new GET stream). */
  replayUnsent(): void {
    this.replayFrom(this.sentUpTo);
  }

  /** Whether event number `n` of this stream is still known (0 is the priming event). */
  canResumeFrom(n: number): boolean {
    return n >= this.floor - 1 && n < this.next;
  }

  /**
   * Ends the HTTP response if one is attached. A completed stream's events are dropped then; an
   * open one keeps them, since a newer connection (or a resumption) takes over.
   */
  end(): void {
    const sink = this.sink;
    if (!sink) return;
    this.sink = undefined;
    this.unblock();
    sink.end();
    if (this.done) {
      this.events.clear();
      this.bytes = 0;
    }
  }

  /** Writes an SSE comment so idle connections and proxies stay up (P13); a blocked stream is not idle. */
  keepAlive(now: number, idleMs: number): void {
    if (this.blocked) {
      this.judgeStalled(now);
      return;
    }
    if (this.sink && now - this.lastWrite >= idleMs) {
      this.lastWrite = now;
      this.sink.keepAlive();
    }
  }

  /** Nothing can resume this stream any more: its events are dropped, and no more are kept. */
  private forgetEvents(): void {
    this.keep = false;
    this.events.clear();
    this.bytes = 0;
  }

  private remember(n: number, data: string): void {
    this.events.push({ n, data });
    this.bytes += data.length;
    while (this.events.length > this.limits.maxEvents || (this.bytes > this.limits.maxBytes && this.events.length > 1)) {
      const dropped = this.events.shift()!;
      this.bytes -= dropped.data.length;
      this.floor = dropped.n + 1;
    }
  }

  private writeEvent(n: number, json: string, message?: JsonRpcMessage): void {
    if (n > this.sentUpTo) this.sentUpTo = n;
    this.lastWrite = Date.now();
    const sink = this.sink!;
    const taken = sink.message(`${this.key}-${n}`, json, message);
    this.flow.delivered?.(json);
    if (taken === false && !this.blocked && sink.onDrain) {
      this.blocked = true;
      this.flow.blocked(this);
      sink.onDrain(() => {
        if (this.sink === sink) this.unblock();
      });
    }
  }

  private unblock(): void {
    if (!this.blocked) return;
    this.blocked = false;
    this.flow.unblocked(this);
  }
}

/** Splits a `Last-Event-ID` into its stream key and event number, or undefined when malformed. */
export function parseEventId(value: string): { key: string; n: number } | undefined {
  const dash = value.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const n = Number(value.slice(dash + 1));
  if (!Number.isSafeInteger(n) || n < 0) return undefined;
  return { key: value.slice(0, dash), n };
}
