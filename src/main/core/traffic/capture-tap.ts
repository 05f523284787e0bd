/**
 * The hot path of capture. The hub calls a session's tap for every message it moves; each call
 * does O(1) work: it reads the monotonic clock and queues references (the parsed message, the raw
 * text the hub already has, the HTTP request). Redaction, serialisation, pairing and storage
 * happen later, off the proxy path, when the queue is drained (traffic.ts). When the drain falls behind, the
 * queue is full and new items are dropped and counted, never waited for.
 *
 * A message the hub passes through unchanged is seen twice in a row: `fromClient(m, raw)` then
 * `toServer(m, raw)` (or `fromServer` then `toClient`), the very same object and text. The second
 * call then only stamps its time on the first call's item (`t2`), which is still queued: one item,
 * and later one event, for both legs. Anything else (a note, another text, a batch, an item
 * already drained) is queued as an item of its own.
 */
import { performance } from 'node:perf_hooks';
import type { CaptureLeg } from '../../../shared/api/inspector-contract.js';
import { arrival } from '../protocol/arrival.js';
import type { WireListener } from '../protocol/sse-writer.js';
import type { ClientRequestInfo, HubNote, SessionWatch } from '../hub/observer.js';
import type { TraceContext } from '../hub/tracing.js';
import { Ring } from '../lib/ring.js';
import type { JsonRpcId, JsonRpcMessage } from '../protocol/json-rpc.js';
import type { UpstreamClosed, UpstreamEvent, UpstreamHttpExchange } from '../upstream/upstream.js';
import type { ExchangeSession } from './observed-exchange.js';
import type { SessionProfile, TrafficSession } from './traffic-session.js';

/**
 * Why the hub itself wrote a message (the observer port's HubNote), or `bridged`: the server's
 * side of a request the hub bridged between eras (what the server was sent, what it answered).
 */
export type CaptureNote = HubNote | 'bridged';

/** What a `bridged` item carries besides its message: the client's request it belongs to, and the modern headers it went with. */
export interface BridgedDetail {
  readonly of: JsonRpcId;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** What a `traced` item carries: the client's request id, and the ids the hub gave its spans. */
export interface TracedDetail {
  readonly id: JsonRpcId;
  readonly ctx: TraceContext;
}

/** What a `wire` item carries besides its text: the stream it was written to, and what it is. */
export interface WireDetail {
  readonly stream: string;
  readonly kind: 'head' | 'data' | 'end';
}

/** Whether the raw bytes sent to clients are recorded (the inspector's raw stream; off by default). */
export interface RawSwitch {
  enabled: boolean;
}

export type TapKind = 'message' | 'stderr' | 'opened' | 'upstream-open' | 'upstream-closed' | 'upstream-http' | 'upstream-transport' | 'notice' | 'traced' | 'wire' | 'ended';

/** One queued item. A class so every item has the same shape (one hidden class for V8). */
export class TapItem {
  constructor(
    readonly kind: TapKind,
    readonly tap: SessionCapture,
    /** performance.now() when the hub moved it. */
    readonly t: number,
    readonly leg: CaptureLeg | undefined = undefined,
    readonly toServer = false,
    readonly message: JsonRpcMessage | undefined = undefined,
    readonly raw: string | undefined = undefined,
    readonly note: CaptureNote | undefined = undefined,
    readonly req: ClientRequestInfo | undefined = undefined,
    readonly status: number | undefined = undefined,
    /** stderr line, or the failure text of `ended`. */
    readonly text: string | undefined = undefined,
    readonly detail: UpstreamClosed | UpstreamHttpExchange | BridgedDetail | TracedDetail | WireDetail | 'closed' | 'failed' | undefined = undefined,
  ) {}

  /** performance.now() when the same message crossed its other leg; -1 if it did not (yet). */
  t2 = -1;
  /** A server's message: performance.now() when its first byte arrived (protocol/arrival.ts); -1 unknown. */
  tb = -1;
  /** A message to the client: performance.now() when it was written to the client; -1 not (yet) known. */
  td = -1;
}

/**
 * Items wait this long for their drain (or until this many are queued). A drain that processes a
 * few hundred items at once runs with its code and data warm in the CPU's caches; one per turn of
 * the event loop, between the hub's own work, ran several times slower per item.
 */
const DRAIN_DELAY_MS = 20;
const DRAIN_BATCH = 1024;
/**
 * A message this large (UTF-16 units) is drained on the next turn instead: batching gains it
 * nothing (its cost is its size), and drained at once it runs while the client reads the answer
 * rather than 20 ms later, in the way of the next call (1 MiB results: ~5 % more MiB/s).
 */
const LARGE_ITEM = 64 * 1024;

/** A bounded FIFO (a Ring) whose drain runs in batches (see DRAIN_DELAY_MS); when full, new items are dropped. */
export class CaptureQueue {
  dropped = 0;
  private readonly items = new Ring<TapItem>();
  private timer: NodeJS.Timeout | undefined;
  private immediate = false;

  constructor(
    readonly max: number,
    private readonly drain: () => void,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /** `force`: lifecycle items (a few per session) pass even when the queue is full. False when dropped. */
  push(item: TapItem, force = false): boolean {
    if (!force && this.items.length >= this.max) {
      this.dropped++;
      item.tap.dropped++;
      return false;
    }
    this.items.push(item);
    if (this.items.length >= DRAIN_BATCH || (item.raw !== undefined && item.raw.length >= LARGE_ITEM)) this.soon();
    else if (this.timer === undefined && !this.immediate) {
      this.timer = setTimeout(this.run, DRAIN_DELAY_MS);
      // Shutdown flushes what is queued; the timer alone must not keep a process alive.
      this.timer.unref();
    }
    return true;
  }

  /** The next item, or undefined when empty. */
  take(): TapItem | undefined {
    return this.items.shift();
  }

  /** Called by the drain when it stopped with items left: run again on the next turn. */
  reschedule(): void {
    if (this.length > 0) this.soon();
  }

  /** Drain on the next turn of the event loop. */
  private soon(): void {
    if (this.immediate) return;
    this.immediate = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    setImmediate(this.run);
  }

  private readonly run = (): void => {
    this.immediate = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.drain();
  };
}

/**
 * What the pipeline knows of a session at the moment the hub opens it: what an exchange's session
 * says of it (observed-exchange.ts), with the profile as the tap has it (its parent resolved to a
 * captured session id when that one was captured).
 */
export interface SessionCaptureInfo extends Omit<ExchangeSession, 'profile'> {
  /** A profile's session to one of its members (hub/observer.ts ObservedSession.profile). */
  profile?: SessionProfile;
}

/**
 * A session's capture: the pipeline's watch of one session (hub/observer.ts). Every method only
 * queues (O(1)); the pipeline's drain (traffic.ts) does the rest.
 */
export class SessionCapture implements SessionWatch {
  /** Items of this session dropped because the queue was full. */
  dropped = 0;
  /**
   * The last message that came in (from the client or the server) while it is still queued: the
   * item its other leg is stamped on. The drain clears it when it takes the item.
   */
  lastIn: TapItem | undefined = undefined;
  /**
   * The last message that went to the client while it is still queued: the item `delivered`
   * stamps (it follows at once when the client's stream takes it). Cleared by the drain too.
   */
  lastOut: TapItem | undefined = undefined;
  /** What the pipeline made of this session so far (set by its drain). */
  session: TrafficSession | undefined = undefined;

  constructor(
    readonly info: SessionCaptureInfo,
    private readonly queue: CaptureQueue,
    /** The pipeline's switch for the raw stream (read per stream opened, never per message). */
    private readonly raw: RawSwitch = { enabled: false },
  ) {
    queue.push(new TapItem('opened', this, performance.now()), true);
  }

  /** The pipeline's (and the inspector's) id of the session (not its Mcp-Session-Id). */
  get sessionId(): string {
    return this.info.id;
  }

  fromClient(message: JsonRpcMessage, raw: string | undefined, http: ClientRequestInfo | undefined, status: number | undefined): void {
    const item = new TapItem('message', this, performance.now(), 'client', true, message, raw, undefined, http, status);
    this.lastIn = this.queue.push(item) ? item : undefined;
  }

  toClient(message: JsonRpcMessage, raw: string | undefined, note: CaptureNote | undefined): void {
    if (note === undefined && this.passedOn(message, raw, false)) return;
    const item = new TapItem('message', this, performance.now(), 'client', false, message, raw, note);
    this.lastOut = this.queue.push(item) ? item : undefined;
  }

  /** The message `toClient` just had was written to the client: one clock read, on its queued item. */
  delivered(json: string): void {
    const out = this.lastOut;
    if (out === undefined || out.raw !== json) return;
    out.td = performance.now();
    this.lastOut = undefined;
  }

  /**
   * A listener for the bytes a new stream to the client is sent, while the raw stream is recorded
   * (each write queued as it is, redacted later in the drain); otherwise none, and nothing runs.
   */
  wireTap(stream: string): WireListener | undefined {
    if (!this.raw.enabled) return undefined;
    const details: Record<WireDetail['kind'], WireDetail> = { head: { stream, kind: 'head' }, data: { stream, kind: 'data' }, end: { stream, kind: 'end' } };
    return (kind, text) => {
      this.queue.push(new TapItem('wire', this, performance.now(), 'client', false, undefined, undefined, undefined, undefined, undefined, text, details[kind]));
    };
  }

  toServer(message: JsonRpcMessage, raw: string | undefined, note: CaptureNote | undefined): void {
    if (note === undefined && this.passedOn(message, raw, true)) return;
    this.queue.push(new TapItem('message', this, performance.now(), 'upstream', true, message, raw, note));
  }

  fromServer(message: JsonRpcMessage, raw: string): void {
    const item = new TapItem('message', this, performance.now(), 'upstream', false, message, raw);
    item.tb = arrival.at;
    this.lastIn = this.queue.push(item) ? item : undefined;
  }

  bridged(of: JsonRpcId, toServer: boolean, message: JsonRpcMessage, raw: string | undefined, headers: Readonly<Record<string, string>> | undefined): void {
    const detail: BridgedDetail = { of, headers };
    this.queue.push(new TapItem('message', this, performance.now(), 'upstream', toServer, message, raw, 'bridged', undefined, undefined, undefined, detail));
  }

  /** The hub traced a client's request (telemetry on): queued before the request goes upstream. */
  traced(id: JsonRpcId, ctx: TraceContext): void {
    const detail: TracedDetail = { id, ctx };
    this.queue.push(new TapItem('traced', this, performance.now(), 'upstream', true, undefined, undefined, undefined, undefined, undefined, undefined, detail), true);
  }

  /** The message that just came in goes out unchanged: its item gets the second leg's time. */
  private passedOn(message: JsonRpcMessage, raw: string | undefined, toServer: boolean): boolean {
    const last = this.lastIn;
    if (last === undefined || last.message !== message || last.raw !== raw || last.toServer !== toServer) return false;
    last.t2 = performance.now();
    this.lastIn = undefined;
    if (!toServer) this.lastOut = last;
    return true;
  }

  upstreamOpened(): void {
    this.queue.push(new TapItem('upstream-open', this, performance.now(), 'upstream'), true);
  }

  upstreamClosed(info: UpstreamClosed): void {
    this.queue.push(new TapItem('upstream-closed', this, performance.now(), 'upstream', false, undefined, undefined, undefined, undefined, undefined, undefined, info), true);
  }

  upstreamEvent(event: UpstreamEvent): void {
    const t = performance.now();
    if (event.type === 'stderr') this.queue.push(new TapItem('stderr', this, t, 'upstream', false, undefined, undefined, undefined, undefined, undefined, event.line));
    else if (event.type === 'http') this.queue.push(new TapItem('upstream-http', this, t, 'upstream', true, undefined, undefined, undefined, undefined, undefined, undefined, event.exchange));
    else if (event.type === 'transport') this.queue.push(new TapItem('upstream-transport', this, t, 'upstream', false, undefined, undefined, undefined, undefined, undefined, event.transport), true);
    else if (event.type === 'notice') this.queue.push(new TapItem('notice', this, t, 'upstream', false, undefined, undefined, undefined, undefined, undefined, event.text), true);
    else if (event.type === 'bridged') this.bridged(event.of, event.toServer, event.message, event.raw, event.headers);
    // A re-initialization reaches the capture as messages and upstreamOpened (the session sees to it).
  }

  ended(state: 'closed' | 'failed', failure: string | undefined): void {
    this.queue.push(new TapItem('ended', this, performance.now(), undefined, false, undefined, undefined, undefined, undefined, undefined, failure, state), true);
  }
}
