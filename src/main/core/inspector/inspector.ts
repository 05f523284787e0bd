/**
 * The inspector: turns what the hub's taps queued into redacted events, pairs them into
 * exchanges, keeps them (memory rings, history files) and publishes them to live subscribers.
 * It runs on the drain of the capture queue, never on the proxy path itself: each drain is
 * time-boxed, so a burst of traffic is processed over several turns of the event loop.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { CaptureHttp, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { ServerRuntime } from '../hub/server-runtime.js';
import type { Logger } from '../log/logger.js';
import type { UpstreamClosed, UpstreamHttpExchange } from '../upstream/upstream.js';
import { CaptureQueue, SessionCapture, type SessionTap, type TapItem } from './capture-tap.js';
import { lastSeqOnDisk, loadSessionIndex, sessionLine } from './history-read.js';
import { HistoryWriter } from './history-writer.js';
import { MemoryStore } from './memory-store.js';
import { Redactor } from './redactor.js';
import { SessionRecord } from './session-record.js';
import type { InspectorLimits } from './settings.js';
import { ServerStatsBook } from './stats.js';
import { messageText, TextCache } from './message-text.js';
import { routeOf, StoredEvent } from './stored-event.js';

export interface InspectorOptions {
  dataDir: string;
  limits: InspectorLimits;
  logger: Logger;
}

/** What the hub asks of the inspector: a tap for each session it opens (undefined: capture off). */
export interface CaptureHooks {
  openSession(serverId: string, runtime: ServerRuntime, debug: boolean): SessionTap | undefined;
}

/** Work per drain before yielding to the event loop, so proxying never waits long behind capture. */
const DRAIN_BUDGET_MS = 8;

function upstreamTransport(runtime: ServerRuntime): string {
  const c = runtime.config as Record<string, unknown>;
  if (runtime.kind === 'stdio') return runtime.stateless ? 'stdio-stateless' : c.shared === true ? 'stdio-shared' : 'stdio';
  const t = c.transport ?? c.type;
  return t === 'sse' ? 'sse' : t === 'streamable-http' || t === 'http' || t === 'streamableHttp' ? 'streamable-http' : 'http';
}

export class Inspector implements CaptureHooks {
  readonly redactor = new Redactor();
  readonly memory: MemoryStore;
  readonly stats = new ServerStatsBook();
  readonly queue: CaptureQueue;
  readonly historyDir: string;
  /** Resolves once the session index of the history files is loaded. */
  historyReady: Promise<void> = Promise.resolve();
  private seq: number;
  private readonly listeners = new Set<(e: StoredEvent) => void>();
  private readonly records = new WeakMap<SessionCapture, SessionRecord>();
  private readonly texts = new TextCache();
  private closed = false;

  private constructor(
    readonly limits: InspectorLimits,
    private readonly log: Logger,
    dataDir: string,
    lastSeq: number,
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
    const writer = history ? await HistoryWriter.open(dir, options.limits, options.logger) : undefined;
    const inspector = new Inspector(options.limits, options.logger, options.dataDir, lastSeq, writer);
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

  openSession(serverId: string, runtime: ServerRuntime, debug: boolean): SessionTap | undefined {
    if (!this.limits.enabled || this.closed) return undefined;
    const id = randomBytes(8).toString('hex');
    return new SessionCapture({ id, serverId, clientTransport: debug ? 'hub' : 'streamable-http', upstreamTransport: upstreamTransport(runtime), debug }, this.queue);
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

  private recordFor(item: TapItem): SessionRecord {
    let record = this.records.get(item.tap);
    if (record) return record;
    const info = item.tap.info;
    record = new SessionRecord(
      { id: info.id, server: info.serverId, clientTransport: info.clientTransport, upstreamTransport: info.upstreamTransport, debug: info.debug, startedAt: performance.timeOrigin + item.t },
      this.limits.maxEventsPerSession,
      (text) => this.redactor.redact(text),
    );
    record.dropCounter = item.tap;
    this.records.set(item.tap, record);
    this.memory.sessions.set(record.id, record);
    return record;
  }

  private process(item: TapItem): void {
    const record = this.recordFor(item);
    const time = performance.timeOrigin + item.t;
    switch (item.kind) {
      case 'opened':
        this.lifecycle(record, time, `session opened (${record.identity.clientTransport} → ${record.identity.upstreamTransport})`);
        return;
      case 'message':
        this.message(record, item, time);
        return;
      case 'stderr': {
        const e = this.event(record, time, 'upstream', undefined, 'server', 'stderr');
        const text = this.redactor.redact(item.text ?? '');
        e.text = text;
        e.size = Buffer.byteLength(text);
        this.store(record, e);
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

  private event(record: SessionRecord, time: number, leg: StoredEvent['leg'], direction: StoredEvent['direction'], origin: StoredEvent['origin'], kind: StoredEvent['kind']): StoredEvent {
    return new StoredEvent(++this.seq, record.ref, time, routeOf(leg, direction, origin, kind));
  }

  private message(record: SessionRecord, item: TapItem, time: number): void {
    const m = item.message!;
    const isCall = 'method' in m;
    const kind = isCall ? ('id' in m ? 'request' : 'notification') : 'response';
    const origin = item.note !== undefined ? 'hub' : !item.toServer ? 'server' : record.identity.debug ? 'hub' : 'client';
    const e = this.event(record, time, item.leg, item.toServer ? 'to-server' : 'to-client', origin, kind);
    if (isCall) e.method = m.method;
    if ('id' in m) e.id = m.id;
    const key = item.raw ?? m;
    const cached = this.texts.get(key);
    const text = cached?.text ?? messageText(item.raw ?? JSON.stringify(m), this.redactor, this.limits.maxMessageBytes);
    if (cached) {
      // The other leg of a message the hub passed through unchanged: share its text (readers
      // resolve a reference within their recent lines, hence the distance limit).
      if (e.seq - cached.seq <= 512) e.sameAs = cached.seq;
    } else {
      this.texts.put(key, text, e.seq);
    }
    e.size = text.size;
    e.json = text.json;
    if (text.truncated) e.truncated = true;
    if (item.note !== undefined) e.note = item.note;
    if (item.req) {
      e.httpRef = this.httpOf(record, item.req, item.status);
    }
    const completed = record.tracker.observe(e, m);
    if (completed !== undefined) {
      e.exchanges = completed;
      for (const x of completed) this.completed(record, x);
    }
    this.store(record, e);
  }

  /**
   * The HTTP details of a client's request, redacted. A session's requests mostly carry the same
   * headers: when they do, the previous (already redacted) object is shared, which saves its
   * redaction, its JSON and its memory.
   */
  private httpOf(record: SessionRecord, req: IncomingMessage, status: number | undefined): { http: CaptureHttp; json: string } {
    const prev = record.lastHttp;
    const method = req.method ?? 'POST';
    const url = this.redactor.redact(req.url ?? '');
    if (prev && prev.http.method === method && prev.http.url === url && prev.http.status === status && this.sameHeaders(prev.http.headers!, req.headers)) return prev;
    const http: CaptureHttp = { method, url, headers: this.redactor.redactHeaders(req.headers) };
    if (status !== undefined) http.status = status;
    record.lastHttp = { http, json: JSON.stringify(http) };
    return record.lastHttp;
  }

  private sameHeaders(prev: Record<string, string>, headers: IncomingMessage['headers']): boolean {
    let n = 0;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      n++;
      const before = prev[name];
      if (before === undefined) return false;
      if (this.redactor.isSecretName(name)) continue;
      const text = typeof value === 'string' ? value : value.join(', ');
      if (this.redactor.redact(text) !== before) return false;
    }
    return n === Object.keys(prev).length;
  }

  private http(record: SessionRecord, info: UpstreamHttpExchange, time: number): void {
    const e = this.event(record, time, 'upstream', 'to-server', 'hub', 'http');
    const http: CaptureHttp = { method: info.method, url: this.redactor.redact(info.url) };
    if (info.status !== undefined) http.status = info.status;
    if (info.requestHeaders) http.headers = this.redactor.redactHeaders(info.requestHeaders);
    if (info.responseHeaders) http.responseHeaders = this.redactor.redactHeaders(info.responseHeaders);
    e.httpRef = { http, json: JSON.stringify(http) };
    this.store(record, e);
  }

  private completed(record: SessionRecord, x: ExchangeSummary): void {
    if (!record.identity.debug) this.stats.record(x);
  }

  private lifecycle(record: SessionRecord, time: number, text: string, completed: ExchangeSummary[] = []): void {
    const e = this.event(record, time, undefined, undefined, 'hub', 'lifecycle');
    e.text = text;
    if (completed.length > 0) e.exchanges = completed;
    this.store(record, e, () => {
      e.sessionInfo = record.summary(true);
      this.writer?.addLine(sessionLine(record.summary(false)));
    });
  }

  /** Keeps an event: session counts, memory, disk, then live subscribers (in seq order). */
  private store(record: SessionRecord, e: StoredEvent, beforePublish?: () => void): void {
    const learned = record.note(e);
    this.memory.add(record, e);
    beforePublish?.();
    this.writer?.addEvent(e);
    if (learned) this.writer?.addLine(sessionLine(record.summary(false)));
    for (const listener of this.listeners) listener(e);
  }
}
