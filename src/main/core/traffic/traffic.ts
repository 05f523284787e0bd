/**
 * The capture pipeline beneath the inspector: the observer the engine hands the hub. Its taps
 * (capture-tap.ts) queue what the hub moves, O(1) on the proxy path; its drain, off the proxy
 * path and time-boxed, turns each queued item into events — numbered, redacted (redactor.ts),
 * paired into exchanges (exchange-tracker.ts) — and publishes two things:
 *
 * - every event, to one sink (the inspector, which stores, indexes and serves them:
 *   captured-message.ts is the seam);
 * - every completed exchange, paired and redacted, to any number of subscribers (`onExchange`:
 *   the inspector's statistics, an exporter).
 *
 * It observes nothing while nobody needs it: with no sink and no active subscriber the hub gets
 * no watch for a new session, so capture off costs nothing per message.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CaptureHttp } from '../../../shared/api/inspector-contract.js';
import type { ObservedSession, SessionObserver } from '../hub/observer.js';
import type { Logger } from '../log/logger.js';
import type { UpstreamClosed, UpstreamHttpExchange } from '../upstream/upstream.js';
import { CaptureQueue, SessionCapture, type RawSwitch, type TapItem, type TracedDetail, type WireDetail } from './capture-tap.js';
import type { TrafficSink } from './captured-message.js';
import { epochMs } from './clock.js';
import type { TrackedExchange } from './exchange.js';
import { ExchangeFeed, type ExchangeFeedOptions, type ExchangeListener, type SessionEndedListener } from './exchange-feed.js';
import { MessageStep } from './message-step.js';
import { observedExchange, type Completion, type ExchangeTexts } from './observed-exchange.js';
import { Redactor } from './redactor.js';
import type { TrafficLimits } from './traffic-limits.js';
import { TrafficSession } from './traffic-session.js';

/** Work per drain before yielding to the event loop, so proxying never waits long behind capture. */
const DRAIN_BUDGET_MS = 8;

export class Traffic implements SessionObserver {
  readonly redactor = new Redactor();
  readonly queue: CaptureQueue;
  private readonly feed: ExchangeFeed;
  private readonly step: MessageStep;
  private closed = false;
  /** The seq of the newest event made. */
  private last = 0;
  private target: TrafficSink | undefined;
  /**
   * Whether the bytes written to clients are recorded (the inspector's raw stream): off by
   * default; the inspector turns it on when asked. Read per stream opened, never per message.
   */
  readonly raw: RawSwitch = { enabled: false };
  /** Captures by the hub's session key (replay and the playground ask for their session's id; profiles name their parent). */
  private readonly captures = new WeakMap<object, SessionCapture>();

  constructor(
    readonly limits: TrafficLimits,
    private readonly log: Logger,
  ) {
    this.redactor.setSecretNames(limits.secretNames);
    this.queue = new CaptureQueue(limits.maxQueue, () => this.drain());
    this.feed = new ExchangeFeed(log);
    this.step = new MessageStep(this);
  }

  /** True while someone needs the traffic: a sink, or a subscriber that is not passive. */
  get active(): boolean {
    return !this.closed && (this.target !== undefined || this.feed.active > 0);
  }

  /** Where every event goes (the inspector while capture is on). */
  get sink(): TrafficSink | undefined {
    return this.target;
  }

  /** The seq of the newest event made. */
  get seq(): number {
    return this.last;
  }

  /** Numbers the next event. */
  nextSeq(): number {
    return ++this.last;
  }

  /** Hands every event from now on to `sink` (the inspector); numbering continues after its last seq. */
  attach(sink: TrafficSink): void {
    this.target = sink;
    this.last = Math.max(this.last, sink.lastSeq);
  }

  /** Takes everything queued into the sink, then stops handing it events. */
  detach(sink: TrafficSink): void {
    if (this.target !== sink) return;
    this.flush();
    this.target = undefined;
  }

  /**
   * Calls `listener` with every exchange that completes from now on (in sessions the hub opens
   * while the pipeline runs: see ExchangeFeedOptions.passive), in the drain, in completion order.
   * Returns the unsubscribe function.
   */
  onExchange(listener: ExchangeListener, options: ExchangeFeedOptions = {}): () => void {
    return this.feed.add(listener, options);
  }

  /**
   * Calls `listener` once for every session that ends (in sessions the pipeline observes: it
   * listens passively, like a passive exchange subscriber), in the drain: the session's
   * duration, for an exporter's session metrics. Returns the unsubscribe function.
   */
  onSessionEnded(listener: SessionEndedListener): () => void {
    return this.feed.addSessionListener(listener);
  }

  sessionOpened(session: ObservedSession): SessionCapture | undefined {
    if (!this.active) return undefined;
    const id = randomBytes(8).toString('hex');
    const profile = session.profile === undefined ? undefined : { id: session.profile.id, parentSession: session.profile.parent === undefined ? undefined : this.captures.get(session.profile.parent)?.sessionId };
    const capture = new SessionCapture(
      {
        id,
        serverId: session.serverId,
        clientTransport: session.clientTransport,
        upstreamTransport: session.upstreamTransport,
        debug: session.debug,
        era: session.era ?? 'legacy',
        ...(session.principal !== undefined ? { principal: session.principal } : {}),
        ...(session.via !== undefined ? { via: session.via } : {}),
        ...(session.mcpSessionId !== undefined ? { mcpSessionId: session.mcpSessionId } : {}),
        ...(profile !== undefined ? { profile } : {}),
      },
      this.queue,
      this.raw,
    );
    this.captures.set(session.key, capture);
    return capture;
  }

  /** The pipeline's id of a hub session (its ObservedSession key), if it was observed. */
  captureIdOf(key: object): string | undefined {
    return this.captures.get(key)?.sessionId;
  }

  /** Processes everything queued, now (queries, replay, tests, shutdown). */
  flush(): void {
    for (let item = this.queue.take(); item; item = this.queue.take()) this.process(item);
  }

  /** Processes what is queued and observes no new session. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private drain(): void {
    const start = performance.now();
    let n = 0;
    for (let item = this.queue.take(); item; item = this.queue.take()) {
      try {
        this.process(item);
      } catch (err) {
        this.log.warn(`capture: could not process a captured item: ${(err as Error).message}`);
      }
      if (++n % 32 === 0 && performance.now() - start > DRAIN_BUDGET_MS) break;
    }
    this.queue.reschedule();
  }

  private sessionFor(item: TapItem, time: number): TrafficSession {
    let session = item.tap.session;
    if (session) return session;
    const info = item.tap.info;
    session = new TrafficSession(
      { id: info.id, server: info.serverId, clientTransport: info.clientTransport, upstreamTransport: info.upstreamTransport, debug: info.debug, era: info.era, startedAt: time, ...(info.principal !== undefined ? { principal: info.principal } : {}), ...(info.via !== undefined ? { via: info.via } : {}), ...(info.mcpSessionId !== undefined ? { mcpSessionId: info.mcpSessionId } : {}) },
      info.profile,
      this.limits.maxExchangesPerSession,
      (text) => this.redactor.redact(text),
    );
    session.dropCounter = item.tap;
    item.tap.session = session;
    return session;
  }

  private process(item: TapItem): void {
    // Taken from the queue: the tap can no longer stamp a second leg on it.
    if (item.tap.lastIn === item) item.tap.lastIn = undefined;
    if (item.tap.lastOut === item) item.tap.lastOut = undefined;
    const time = epochMs(item.t);
    const session = this.sessionFor(item, time);
    const sink = this.target;
    switch (item.kind) {
      case 'opened':
        this.lifecycle(session, time, `session opened (${session.identity.clientTransport} → ${session.identity.upstreamTransport})`);
        return;
      case 'message':
        this.step.message(session, item, time);
        return;
      case 'stderr': {
        const seq = this.nextSeq();
        sink?.stderr(session, seq, time, this.redactor.redact(item.text ?? ''));
        return;
      }
      case 'upstream-open':
        session.upstreamOpened();
        if (session.upstreamOpens > 1) this.lifecycle(session, time, `server connection re-opened for this session (restart ${session.upstreamOpens - 1}, initialize replayed)`);
        return;
      case 'upstream-closed': {
        const info = item.detail as UpstreamClosed;
        const stderrTail = info.stderrTail === undefined ? undefined : this.redactor.redact(info.stderrTail);
        session.fail(this.redactor.redact(info.message), { exitCode: info.exitCode, signal: info.signal, stderrTail });
        this.lifecycle(session, time, session.failure!.reason);
        return;
      }
      case 'upstream-http': {
        const seq = this.nextSeq();
        if (sink !== undefined) sink.http(session, seq, time, this.http(item.detail as UpstreamHttpExchange));
        return;
      }
      case 'upstream-transport': {
        // The label given at open came from the config; `auto` may have fallen back to HTTP+SSE.
        const transport = item.text ?? session.identity.upstreamTransport;
        if (transport === session.identity.upstreamTransport) return;
        session.identity.upstreamTransport = transport;
        if (transport === 'sse') this.lifecycle(session, time, 'server connection fell back to the legacy HTTP+SSE transport (the server did not take Streamable HTTP)');
        return;
      }
      case 'notice':
        // What a check beside the path found (guard/secret-guard.ts): a line in the session's timeline.
        this.lifecycle(session, time, this.redactor.redact(item.text ?? ''));
        return;
      case 'wire': {
        // Bytes as written to the client, redacted as every message is (no seq: not an event).
        const detail = item.detail as WireDetail;
        sink?.wire?.(session, time, detail.stream, detail.kind, detail.kind === 'end' ? '' : this.redactor.redact(item.text ?? ''));
        return;
      }
      case 'traced': {
        const { id, ctx } = item.detail as TracedDetail;
        if (typeof id === 'string' || typeof id === 'number') session.tracker.traced(id, ctx);
        return;
      }
      case 'ended': {
        const completed = session.tracker.endSession(time, 'the session ended before an answer');
        session.end(time, item.detail as 'closed' | 'failed', item.text === undefined ? undefined : this.redactor.redact(item.text));
        this.lifecycle(session, time, session.state === 'failed' ? `session failed: ${session.failure?.reason ?? ''}` : 'session closed', completed);
        for (const x of completed) this.completed(session, x, 'ended', undefined, undefined, undefined);
        session.requestTexts = undefined;
        if (this.feed.sessionsWanted) {
          this.feed.publishEnded({ session: session.observed, startedAt: session.identity.startedAt, endedAt: time, state: session.state === 'failed' ? 'failed' : 'closed', protocolVersion: session.protocolVersion, serverEra: session.serverEra });
        }
        return;
      }
    }
  }

  private http(info: UpstreamHttpExchange): CaptureHttp {
    const http: CaptureHttp = { method: info.method, url: this.redactor.redact(info.url) };
    if (info.status !== undefined) http.status = info.status;
    if (info.requestHeaders) http.headers = this.redactor.redactHeaders(info.requestHeaders);
    if (info.responseHeaders) http.responseHeaders = this.redactor.redactHeaders(info.responseHeaders);
    return http;
  }

  private lifecycle(session: TrafficSession, time: number, text: string, completed?: TrackedExchange[]): void {
    const seq = this.nextSeq();
    this.target?.lifecycle(session, seq, time, text, completed !== undefined && completed.length > 0 ? completed : undefined);
  }

  /**
   * An exchange completed (the drain, message-step.ts): to the subscribers, if any. `how`,
   * `note`, `message`: what completed it; `size`: that message's bytes.
   */
  completed(session: TrafficSession, x: TrackedExchange, how: Completion, note: string | undefined, message: unknown, size: number | undefined): void {
    if (this.feed.size > 0) {
      const texts = this.feed.textsWanted > 0 ? (): ExchangeTexts => this.textsOf(session, x, how, message) : undefined;
      this.feed.publish(observedExchange(x, session, how, note, message, size), texts);
    }
    session.requestTexts?.delete(x);
    // Nobody stores this session's exchanges (the inspector trims them with its events otherwise).
    if (this.target === undefined) session.tracker.dropBefore(Infinity);
  }

  private textsOf(session: TrafficSession, x: TrackedExchange, how: Completion, message: unknown): ExchangeTexts {
    const texts: ExchangeTexts = {};
    const params = session.requestTexts?.get(x);
    if (params !== undefined) texts.params = params;
    if (how === 'response') {
      const answer = message as { result?: unknown; error?: unknown };
      if (answer.result !== undefined) texts.result = this.step.redactedText(answer.result);
      if (answer.error !== undefined) texts.error = this.step.redactedText(answer.error);
    }
    return texts;
  }

  /** A request opened `x` (message-step.ts): keep its params' text for the subscribers that want texts. */
  holdParams(session: TrafficSession, x: TrackedExchange, message: unknown): void {
    const params = (message as { params?: unknown }).params;
    if (params !== undefined) (session.requestTexts ??= new Map()).set(x, this.step.redactedText(params));
  }

  /** Subscribers that want texts (their request params are kept from the request on). */
  get textsWanted(): boolean {
    return this.feed.textsWanted > 0;
  }
}
