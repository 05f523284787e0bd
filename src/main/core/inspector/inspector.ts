/**
 * The inspector: turns what the hub's taps queued into redacted events, pairs them into
 * exchanges, keeps them (memory rings, history files) and publishes them to live subscribers.
 * It runs on the drain of the capture queue, never on the proxy path itself: each drain is
 * time-boxed, so a burst of traffic is processed over several turns of the event loop.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { CaptureHttp, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { Logger } from '../log/logger.js';
import type { UpstreamClosed, UpstreamHttpExchange } from '../upstream/upstream.js';
import type { ObservedSession, SessionObserver } from '../hub/observer.js';
import { CaptureQueue, SessionCapture, type BridgedDetail, type TapItem } from './capture-tap.js';
import { writeMessage } from './event-line.js';
import type { PairingInput } from './exchange-tracker.js';
import { clientHttp } from './http-capture.js';
import { lastSeqOnDisk, loadSessionIndex, sessionLine } from './history-read.js';
import { HistoryWriter } from './history-writer.js';
import { LineLog } from './line-log.js';
import { MemoryStore } from './memory-store.js';
import { messageText, type MessageText } from './message-text.js';
import { Redactor } from './redactor.js';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import { SessionRecord } from './session-record.js';
import type { InspectorLimits } from './settings.js';
import { ServerStatsBook } from './stats.js';
import { httpRef, internMethod, otherLeg, routeOf, ROUTES, StoredEvent, TWIN_COMPLETES } from './stored-event.js';

export interface InspectorOptions {
  dataDir: string;
  limits: InspectorLimits;
  logger: Logger;
}

/** What is kept of a message that no raw text came with and that cannot be serialized (too deep). */
const TOO_DEEP = JSON.stringify('[not captured: the message nests JSON too deeply to serialize]');

/** Work per drain before yielding to the event loop, so proxying never waits long behind capture. */
const DRAIN_BUDGET_MS = 8;

type MessageKind = 'request' | 'notification' | 'response';
type Origin = 'client' | 'server' | 'hub';
function messageIndex(upstream: boolean, toServer: boolean, origin: Origin, kind: MessageKind): number {
  const o = origin === 'client' ? 0 : origin === 'server' ? 1 : 2;
  const k = kind === 'request' ? 0 : kind === 'notification' ? 1 : 2;
  return (((upstream ? 2 : 0) + (toServer ? 0 : 1)) * 3 + o) * 3 + k;
}
/** The routes of messages, by leg, direction, origin and kind: read from a table for every message. */
const MESSAGE_ROUTES: number[] = [];
for (const upstream of [false, true])
  for (const toServer of [true, false])
    for (const origin of ['client', 'server', 'hub'] as const)
      for (const kind of ['request', 'notification', 'response'] as const)
        MESSAGE_ROUTES[messageIndex(upstream, toServer, origin, kind)] = routeOf(upstream ? 'upstream' : 'client', toServer ? 'to-server' : 'to-client', origin, kind);

const STDERR_ROUTE = routeOf('upstream', undefined, 'server', 'stderr');
const HTTP_ROUTE = routeOf('upstream', 'to-server', 'hub', 'http');
const LIFECYCLE_ROUTE = routeOf(undefined, undefined, 'hub', 'lifecycle');

/**
 * performance.now() as epoch ms, to the µs: times are kept (and written) from whole µs, which
 * is as fine as the clock is useful and makes them cheap to write.
 */
function epochMs(t: number): number {
  return Math.round((TIME_ORIGIN + t) * 1000) / 1000;
}
/** performance.timeOrigin is a getter into the runtime: read it once. */
const TIME_ORIGIN = performance.timeOrigin;

/** Header names in lower case, as node:http gives a client's (so both sides read alike). */
function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

/** The inspector observes every session the hub opens (hub/observer.ts) and captures it. */
export class Inspector implements SessionObserver {
  readonly redactor = new Redactor();
  readonly memory: MemoryStore;
  readonly stats = new ServerStatsBook();
  readonly queue: CaptureQueue;
  readonly historyDir: string;
  /** Resolves once the session index of the history files is loaded. */
  historyReady: Promise<void> = Promise.resolve();
  private seq: number;
  private readonly listeners = new Set<(e: StoredEvent) => void>();
  /** Scratch objects of `message` (it runs for every message: no allocation for them). */
  private readonly text: MessageText = { json: '', size: 0, truncated: false, ascii: false };
  private readonly first: PairingInput = { seq: 0, time: 0, leg: undefined, direction: undefined, origin: 'client', kind: '', method: undefined, id: undefined, note: undefined, of: undefined, http: undefined };
  private readonly second: PairingInput = { seq: 0, time: 0, leg: undefined, direction: undefined, origin: 'client', kind: '', method: undefined, id: undefined, note: undefined, of: undefined, http: undefined };
  private closed = false;
  /** Captures by the hub's session key (for replay, which opens a session and reports its id). */
  private readonly captures = new WeakMap<object, SessionCapture>();

  private constructor(
    readonly limits: InspectorLimits,
    private readonly log: Logger,
    dataDir: string,
    lastSeq: number,
    /** Where messages (and history lines) are encoded; the writer takes the lines from it. */
    private readonly lines: LineLog,
    readonly writer: HistoryWriter | undefined,
  ) {
    this.memory = new MemoryStore(limits);
    this.queue = new CaptureQueue(limits.maxQueue, () => this.drain());
    this.historyDir = path.join(dataDir, 'inspector');
    this.seq = lastSeq;
    this.redactor.setSecretNames(limits.secretNames);
  }

  static async open(options: InspectorOptions): Promise<Inspector> {
    const dir = path.join(options.dataDir, 'inspector');
    const history = options.limits.history;
    const lastSeq = history ? await lastSeqOnDisk(dir) : 0;
    const lines = new LineLog(history);
    const writer = history ? await HistoryWriter.open(dir, options.limits, lines, options.logger) : undefined;
    const inspector = new Inspector(options.limits, options.logger, options.dataDir, lastSeq, lines, writer);
    if (writer) writer.nextSeq = () => inspector.lastSeq + 1;
    if (writer) writer.headLines = () => [...inspector.memory.sessions.values()].filter((r) => r.endedAt === undefined).map((r) => sessionLine(r.summary(false)));
    if (history) {
      inspector.historyReady = loadSessionIndex(dir)
        .then((index) => {
          for (const s of index.values()) if (!inspector.memory.sessions.has(s.id)) inspector.memory.remember(s);
        })
        .catch((err: Error) => options.logger.warn(`inspector history could not be read: ${err.message}`));
    }
    return inspector;
  }

  get enabled(): boolean {
    return this.limits.enabled;
  }

  /** The seq of the newest event: the cursor a new live subscriber starts from. */
  get lastSeq(): number {
    return this.seq;
  }

  sessionOpened(session: ObservedSession): SessionCapture | undefined {
    if (!this.limits.enabled || this.closed) return undefined;
    const id = randomBytes(8).toString('hex');
    const capture = new SessionCapture({ id, serverId: session.serverId, clientTransport: session.clientTransport, upstreamTransport: session.upstreamTransport, debug: session.debug, era: session.era ?? 'legacy', ...(session.principal !== undefined ? { principal: session.principal } : {}) }, this.queue);
    this.captures.set(session.key, capture);
    return capture;
  }

  /** The inspector's id of a hub session (its ObservedSession key), if it was captured. */
  captureIdOf(key: object): string | undefined {
    return this.captures.get(key)?.sessionId;
  }

  /** Listens to every event as it is stored (in seq order). */
  onEvent(listener: (e: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Processes everything queued, now (replay, tests, shutdown). */
  flush(): void {
    for (let item = this.queue.take(); item; item = this.queue.take()) this.process(item);
    this.writer?.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.listeners.clear();
    await this.writer?.close();
  }

  private drain(): void {
    const start = performance.now();
    let n = 0;
    for (let item = this.queue.take(); item; item = this.queue.take()) {
      try {
        this.process(item);
      } catch (err) {
        this.log.warn(`inspector: could not process a captured item: ${(err as Error).message}`);
      }
      if (++n % 32 === 0 && performance.now() - start > DRAIN_BUDGET_MS) break;
    }
    this.queue.reschedule();
  }

  private recordFor(item: TapItem, time: number): SessionRecord {
    let record = item.tap.record;
    if (record) return record;
    const info = item.tap.info;
    record = new SessionRecord(
      { id: info.id, server: info.serverId, clientTransport: info.clientTransport, upstreamTransport: info.upstreamTransport, debug: info.debug, era: info.era, startedAt: time, ...(info.principal !== undefined ? { principal: info.principal } : {}) },
      this.limits.maxEventsPerSession,
      (text) => this.redactor.redact(text),
    );
    record.dropCounter = item.tap;
    item.tap.record = record;
    this.memory.sessions.set(record.id, record);
    return record;
  }

  private process(item: TapItem): void {
    // Taken from the queue: the tap can no longer stamp a second leg on it.
    if (item.tap.lastIn === item) item.tap.lastIn = undefined;
    const time = epochMs(item.t);
    const record = this.recordFor(item, time);
    switch (item.kind) {
      case 'opened':
        this.lifecycle(record, time, `session opened (${record.identity.clientTransport} → ${record.identity.upstreamTransport})`);
        return;
      case 'message':
        this.message(record, item, time);
        return;
      case 'stderr': {
        const e = new StoredEvent(++this.seq, record.ref, time, STDERR_ROUTE);
        const text = this.redactor.redact(item.text ?? '');
        e.text = text;
        e.size = Buffer.byteLength(text);
        this.store(record, e, undefined);
        return;
      }
      case 'upstream-open':
        record.upstreamOpened();
        if (record.upstreamOpens > 1) this.lifecycle(record, time, `server connection re-opened for this session (restart ${record.upstreamOpens - 1}, initialize replayed)`);
        return;
      case 'upstream-closed': {
        const info = item.detail as UpstreamClosed;
        const stderrTail = info.stderrTail === undefined ? undefined : this.redactor.redact(info.stderrTail);
        record.fail(this.redactor.redact(info.message), { exitCode: info.exitCode, signal: info.signal, stderrTail });
        this.lifecycle(record, time, record.failure!.reason);
        return;
      }
      case 'upstream-http':
        this.http(record, item.detail as UpstreamHttpExchange, time);
        return;
      case 'upstream-transport': {
        // The label given at open came from the config; `auto` may have fallen back to HTTP+SSE.
        const transport = item.text ?? record.identity.upstreamTransport;
        if (transport === record.identity.upstreamTransport) return;
        record.identity.upstreamTransport = transport;
        if (transport === 'sse') this.lifecycle(record, time, 'server connection fell back to the legacy HTTP+SSE transport (the server did not take Streamable HTTP)');
        return;
      }
      case 'ended': {
        const completed = record.tracker.endSession(time, 'the session ended before an answer');
        for (const x of completed) this.completed(record, x);
        record.end(time, item.detail as 'closed' | 'failed', item.text === undefined ? undefined : this.redactor.redact(item.text));
        this.lifecycle(record, time, record.state === 'failed' ? `session failed: ${record.failure?.reason ?? ''}` : 'session closed', completed);
        this.memory.retireIfDone(record);
        return;
      }
    }
  }

  /**
   * A message, on one leg or (a pair) on both: one event either way. Both legs are paired in
   * order, the second with its own seq (the next) and time.
   */
  private message(record: SessionRecord, item: TapItem, time: number): void {
    const m = item.message!;
    const isCall = 'method' in m;
    const kind = isCall ? ('id' in m ? 'request' : 'notification') : 'response';
    // A bridged message is the server's side of an exchange: what the hub sent it, what it answered.
    const bridged = item.note === 'bridged';
    const origin = bridged ? (item.toServer ? 'hub' : 'server') : item.note !== undefined ? 'hub' : !item.toServer ? 'server' : record.identity.debug ? 'hub' : 'client';
    const direction = item.toServer ? 'to-server' : 'to-client';
    const e = new StoredEvent(++this.seq, record.ref, time, MESSAGE_ROUTES[messageIndex(item.leg === 'upstream', item.toServer, origin, kind)]!);
    if (isCall) e.method = internMethod(m.method);
    if ('id' in m) e.id = m.id;
    const text = messageText(item.raw ?? stringifyOrUndefined(m) ?? TOO_DEEP, this.redactor, this.limits.maxMessageBytes, this.text);
    const json = text.json;
    e.size = text.size;
    if (text.truncated) e.truncated = true;
    if (item.note !== undefined) e.note = item.note;
    if (item.req) {
      record.lastHttp = clientHttp(record.lastHttp, item.req, item.status, this.redactor);
      e.httpRef = record.lastHttp.ref;
    }
    let of: string | number | undefined;
    if (bridged) {
      const detail = item.detail as BridgedDetail;
      of = e.of = detail.of;
      if (detail.headers !== undefined) e.httpRef = httpRef({ headers: this.redactor.redactHeaders(lowerCaseNames(detail.headers)) });
    }
    // The tracker sees plain objects of one shape (the event's fields are getters).
    const first = this.first;
    first.seq = e.seq;
    first.time = time;
    first.leg = item.leg;
    first.direction = direction;
    first.origin = origin;
    first.kind = kind;
    first.method = e.method;
    first.id = e.id;
    first.note = item.note;
    first.of = of;
    first.http = item.req ? e.httpRef?.http : undefined;
    let completed = record.tracker.observe(first, m);
    if (item.t2 >= 0) {
      const second = this.second;
      second.seq = e.seq + 1;
      second.time = epochMs(item.t2);
      second.leg = otherLeg(item.leg);
      second.direction = direction;
      second.origin = origin;
      second.kind = kind;
      second.method = e.method;
      second.id = e.id;
      const more = record.tracker.observe(second, m);
      if (more !== undefined && completed !== undefined) {
        // Both legs completed exchanges (not a case the hub produces): two events, then.
        this.keep(record, e, completed, json, text.ascii);
        const e2 = new StoredEvent(++this.seq, record.ref, second.time, ROUTES[e.route]!.twin);
        e2.method = e.method;
        e2.id = e.id;
        e2.size = e.size;
        e2.truncated = e.truncated;
        this.keep(record, e2, more, json, text.ascii);
        return;
      }
      this.seq++;
      e.twinUs = Math.round(second.time * 1000) - Math.round(time * 1000);
      if (more !== undefined) {
        completed = more;
        e.flags |= TWIN_COMPLETES;
      }
    }
    this.keep(record, e, completed, json, text.ascii);
  }

  private keep(record: SessionRecord, e: StoredEvent, completed: ExchangeSummary | undefined, json: string, ascii: boolean): void {
    if (completed !== undefined) {
      e.completed = completed;
      this.completed(record, completed);
    }
    this.store(record, e, json, ascii);
  }

  private http(record: SessionRecord, info: UpstreamHttpExchange, time: number): void {
    const e = new StoredEvent(++this.seq, record.ref, time, HTTP_ROUTE);
    const http: CaptureHttp = { method: info.method, url: this.redactor.redact(info.url) };
    if (info.status !== undefined) http.status = info.status;
    if (info.requestHeaders) http.headers = this.redactor.redactHeaders(info.requestHeaders);
    if (info.responseHeaders) http.responseHeaders = this.redactor.redactHeaders(info.responseHeaders);
    e.httpRef = httpRef(http);
    this.store(record, e, undefined);
  }

  private completed(record: SessionRecord, x: ExchangeSummary): void {
    if (!record.identity.debug) this.stats.record(x);
  }

  private lifecycle(record: SessionRecord, time: number, text: string, completed: ExchangeSummary[] = []): void {
    const e = new StoredEvent(++this.seq, record.ref, time, LIFECYCLE_ROUTE);
    e.text = text;
    if (completed.length > 0) e.completed = completed;
    this.store(record, e, undefined, false, true);
  }

  /**
   * Keeps an event: its line (history) or its message (memory only) into the line log, session
   * counts, memory, then live subscribers (in seq order). A lifecycle event (`withInfo`) carries
   * the session as it stands after it, and the session's line follows it on disk.
   */
  private store(record: SessionRecord, e: StoredEvent, json: string | undefined, ascii = false, withInfo = false): void {
    let learned = false;
    if (withInfo) {
      learned = record.note(e);
      e.sessionInfo = record.summary(true);
    }
    if (this.writer) this.writer.addEvent(e, json, ascii);
    else if (json !== undefined) writeMessage(this.lines, e, json, ascii);
    this.lines.mark(e.lastSeq);
    if (!withInfo) learned = record.note(e);
    this.memory.add(record, e);
    this.lines.release(this.memory.oldestSeq ?? Infinity);
    if (learned || withInfo) this.writer?.addLine(sessionLine(record.summary(false)));
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(e);
  }
}
