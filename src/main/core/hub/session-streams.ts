/**
 * A session's SSE streams (P10, P11): the standalone GET stream (key "0") and one stream per POST
 * that carries requests. A request stream ends once every request on it was answered; if its
 * client went away before that, the completed stream is kept (a bounded number of them) so that
 * a reconnect with `Last-Event-ID` can still collect the answers.
 *
 * Flow control (issue 17): while any stream's client is not keeping up, the session is told to
 * hold its upstream back (`pause`), and told again once every such stream drained or went away.
 */
import type { WireListener } from '../protocol/sse-writer.js';
import { SseStream, type StreamFlow, type StreamLimits } from './sse-stream.js';
import type { StreamSink } from './stream-sink.js';

/** Completed streams whose client went away, kept for `Last-Event-ID` resumption. */
const MAX_UNCLAIMED_STREAMS = 32;

/** What the session does about its client's pace. */
export interface SessionFlow {
  /** true: some stream's client is not keeping up; false: none is any more. */
  pause(paused: boolean): void;
  /** A stream whose client is stalled (sse-stream.ts): answer its requests with an error and end it. */
  overflowed(stream: SseStream): void;
  /** Whether the upstream is held back (paused) while a client is behind, rather than outrun. */
  holdsBack(): boolean;
  /** Observers' marks (StreamFlow): absent when no observer wants them. */
  delivered?: ((json: string) => void) | undefined;
  wireFor?: ((stream: string) => WireListener | undefined) | undefined;
}

export class SessionStreams implements StreamFlow {
  /** The standalone GET stream: server messages that belong to no request wait here. */
  readonly get: SseStream;
  private readonly byKey = new Map<string, SseStream>();
  private nextKey = 1;
  private unclaimed: string[] = [];
  /** Streams whose client is not keeping up right now. */
  private blockedCount = 0;
  readonly delivered: ((json: string) => void) | undefined;
  readonly wireFor: ((stream: string) => WireListener | undefined) | undefined;

  constructor(
    private readonly limits: StreamLimits,
    private readonly flow: SessionFlow,
  ) {
    // Passed on as they are: the streams call them directly (nothing when nobody observes).
    this.delivered = flow.delivered;
    this.wireFor = flow.wireFor;
    this.get = new SseStream('0', limits, this);
    this.byKey.set('0', this.get);
  }

  get paused(): boolean {
    return this.blockedCount > 0;
  }

  blocked(): void {
    if (this.blockedCount++ === 0) this.flow.pause(true);
  }

  unblocked(): void {
    if (--this.blockedCount === 0) this.flow.pause(false);
  }

  overflowed(stream: SseStream): void {
    this.flow.overflowed(stream);
  }

  get holdsBack(): boolean {
    return this.flow.holdsBack();
  }

  /** A new stream for a POST that carries requests, attached to its sink. */
  open(sink: StreamSink, headers: Record<string, string>, primingEvents: boolean): SseStream {
    const stream = new SseStream(String(this.nextKey++), this.limits, this);
    this.byKey.set(stream.key, stream);
    stream.attach(sink, headers, primingEvents);
    return stream;
  }

  /** Attaches the GET stream to a new sink (replacing an older one) and sends what waited. */
  attachGet(sink: StreamSink, headers: Record<string, string>, primingEvents: boolean): void {
    if (this.get.attached) this.get.end();
    this.get.attach(sink, headers, primingEvents);
    this.get.replayUnsent();
  }

  /** Resumes a stream after event `n` (P11). False when the stream is unknown or `n` was evicted. */
  resume(key: string, n: number, sink: StreamSink, headers: Record<string, string>): boolean {
    const stream = this.byKey.get(key);
    if (!stream || !stream.canResumeFrom(n)) return false;
    if (stream.attached) stream.end();
    stream.attach(sink, headers, false);
    stream.replayFrom(n);
    if (stream.done) this.finish(stream);
    return true;
  }

  /** Every response of the stream went out: end it, or keep it (bounded) for a resumption. */
  complete(stream: SseStream): void {
    stream.done = true;
    if (stream.attached || !stream.resumable) {
      this.finish(stream);
      return;
    }
    this.unclaimed.push(stream.key);
    while (this.unclaimed.length > MAX_UNCLAIMED_STREAMS) this.byKey.delete(this.unclaimed.shift()!);
  }

  /** A client holds one of the streams open. */
  anyAttached(): boolean {
    for (const s of this.byKey.values()) if (s.attached) return true;
    return false;
  }

  keepAlive(now: number, idleMs: number): void {
    for (const s of this.byKey.values()) s.keepAlive(now, idleMs);
  }

  /** Ends every stream (the session ended). */
  endAll(): void {
    for (const s of this.byKey.values()) s.end();
    this.byKey.clear();
  }

  private finish(stream: SseStream): void {
    stream.end();
    this.byKey.delete(stream.key);
  }
}
