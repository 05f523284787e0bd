/**
 * The inspector: keeps what the capture pipeline (traffic/traffic.ts) hands it — every event,
 * redacted, numbered and paired — in memory rings and history files, and publishes it to live
 * subscribers. It is the pipeline's sink (traffic/captured-message.ts): it runs in the
 * pipeline's drain, never on the proxy path, and neither redacts nor pairs itself.
 */
import path from 'node:path';
import type { CaptureHttp, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { Logger } from '../log/logger.js';
import type { CaptureQueue } from '../traffic/capture-tap.js';
import type { CapturedMessage, TrafficSink } from '../traffic/captured-message.js';
import type { TextForm } from '../traffic/message-text.js';
import type { Redactor } from '../traffic/redactor.js';
import { Traffic } from '../traffic/traffic.js';
import type { TrafficSession } from '../traffic/traffic-session.js';
import { writeMessage } from './event-line.js';
import { lastSeqOnDisk, loadSessionIndex, sessionLine } from './history-read.js';
import { HistoryWriter } from './history-writer.js';
import { LineLog } from './line-log.js';
import { MemoryStore } from './memory-store.js';
import { RawStore } from './raw-store.js';
import { SessionRecord } from './session-record.js';
import type { InspectorLimits } from './settings.js';
import { ServerStatsBook } from './stats.js';
import { httpRef, routeOf, StoredEvent, TWIN_COMPLETES } from './stored-event.js';

export interface InspectorOptions {
  dataDir: string;
  limits: InspectorLimits;
  logger: Logger;
  /**
   * The pipeline whose events the inspector stores (the engine's); default: one of its own
   * with the inspector's limits, for a standalone inspector (tests).
   */
  traffic?: Traffic;
}

type Origin = 'client' | 'server' | 'hub';
function messageIndex(upstream: boolean, toServer: boolean, origin: Origin, kind: CapturedMessage['kind']): number {
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

/** The inspector stores what the capture pipeline sees (traffic/captured-message.ts TrafficSink). */
export class Inspector implements TrafficSink {
  readonly memory: MemoryStore;
  /** Per-server call statistics: a passive subscriber of the pipeline's exchanges (the engine subscribes it). */
  readonly stats = new ServerStatsBook();
  /** The raw stream (raw-store.ts): filled only while recording is on (`recordRaw`). */
  readonly raw = new RawStore();
  readonly historyDir: string;
  /** Resolves once the session index of the history files is loaded. */
  historyReady: Promise<void> = Promise.resolve();
  private seq: number;
  private readonly listeners = new Set<(e: StoredEvent) => void>();
  private closed = false;

  private constructor(
    readonly limits: InspectorLimits,
    /** The pipeline the inspector stores the events of. */
    readonly traffic: Traffic,
    dataDir: string,
    lastSeq: number,
    /** Where messages (and history lines) are encoded; the writer takes the lines from it. */
    private readonly lines: LineLog,
    readonly writer: HistoryWriter | undefined,
  ) {
    this.memory = new MemoryStore(limits);
    this.historyDir = path.join(dataDir, 'inspector');
    this.seq = lastSeq;
  }

  static async open(options: InspectorOptions): Promise<Inspector> {
    const dir = path.join(options.dataDir, 'inspector');
    const limits = options.limits;
    const history = limits.history;
    const lastSeq = history ? await lastSeqOnDisk(dir) : 0;
    const lines = new LineLog(history);
    const writer = history ? await HistoryWriter.open(dir, limits, lines, options.logger) : undefined;
    const traffic =
      options.traffic ?? new Traffic({ maxQueue: limits.maxQueue, maxMessageBytes: limits.maxMessageBytes, maxExchangesPerSession: limits.maxEventsPerSession, secretNames: limits.secretNames }, options.logger);
    const inspector = new Inspector(limits, traffic, options.dataDir, lastSeq, lines, writer);
    if (writer) writer.nextSeq = () => inspector.lastSeq + 1;
    if (writer) writer.headLines = () => [...inspector.memory.sessions.values()].filter((r) => r.endedAt === undefined).map((r) => sessionLine(r.summary(false)));
    if (history) {
      inspector.historyReady = loadSessionIndex(dir)
        .then((index) => {
          for (const s of index.values()) if (!inspector.memory.sessions.has(s.id)) inspector.memory.remember(s);
        })
        .catch((err: Error) => options.logger.warn(`inspector history could not be read: ${err.message}`));
    }
    // Capture on: the pipeline hands the inspector every event from now on.
    if (limits.enabled) traffic.attach(inspector);
    return inspector;
  }

  get enabled(): boolean {
    return this.limits.enabled;
  }

  /** The seq of the newest event: the cursor a new live subscriber starts from. */
  get lastSeq(): number {
    return this.seq;
  }

  /** The pipeline's queue (its length, drops: inspector.status). */
  get queue(): CaptureQueue {
    return this.traffic.queue;
  }

  /** The pipeline's redaction (replay redacts its answers and errors with it). */
  get redactor(): Redactor {
    return this.traffic.redactor;
  }

  /** The inspector's id of a hub session (its ObservedSession key), if it was captured. */
  captureIdOf(key: object): string | undefined {
    return this.traffic.sink === this ? this.traffic.captureIdOf(key) : undefined;
  }

  /** Whether the bytes written to clients are recorded (off by default; raw-store.ts). */
  get recordingRaw(): boolean {
    return this.traffic.raw.enabled;
  }

  /** Turns recording of the raw stream on or off: streams opened from now on follow it. */
  recordRaw(enabled: boolean): void {
    this.traffic.raw.enabled = enabled && this.enabled;
  }

  /** Bytes written to a session's client, redacted by the pipeline (the raw stream). */
  wire(session: TrafficSession, time: number, stream: string, kind: 'head' | 'data' | 'end', text: string): void {
    this.raw.add(session.identity.id, { time, stream, kind, text });
  }

  /** Listens to every event as it is stored (in seq order). */
  onEvent(listener: (e: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Processes everything queued, now (replay, tests, shutdown). */
  flush(): void {
    if (this.traffic.sink === this) this.traffic.flush();
    this.writer?.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.traffic.detach(this);
    this.flush();
    this.closed = true;
    this.listeners.clear();
    await this.writer?.close();
  }

  private recordOf(session: TrafficSession): SessionRecord {
    let record = session.sinkState as SessionRecord | undefined;
    if (record) return record;
    record = new SessionRecord(session);
    session.sinkState = record;
    this.memory.sessions.set(record.id, record);
    return record;
  }

  /** A message event (see CapturedMessage): one StoredEvent, for one leg or both. */
  message(session: TrafficSession, m: CapturedMessage): void {
    const record = this.recordOf(session);
    const e = new StoredEvent(m.seq, record.ref, m.time, MESSAGE_ROUTES[messageIndex(m.leg === 'upstream', m.direction === 'to-server', m.origin, m.kind)]!);
    e.method = m.method;
    e.id = m.id;
    const text = m.text;
    e.size = text.size;
    if (text.truncated) e.truncated = true;
    if (m.note !== undefined) e.note = m.note;
    if (m.http !== undefined) e.httpRef = record.httpRefOf(m.http);
    if (m.of !== undefined) e.of = m.of;
    if (m.twinUs >= 0) {
      e.twinUs = m.twinUs;
      if (m.twinCompletes) e.flags |= TWIN_COMPLETES;
    }
    if (m.completed !== undefined) e.completed = m.completed;
    this.store(record, e, text.text, text.form, false, m.learned);
  }

  stderr(session: TrafficSession, seq: number, time: number, line: string): void {
    const record = this.recordOf(session);
    const e = new StoredEvent(seq, record.ref, time, STDERR_ROUTE);
    e.text = line;
    e.size = Buffer.byteLength(line);
    this.store(record, e, undefined);
  }

  http(session: TrafficSession, seq: number, time: number, http: CaptureHttp): void {
    const record = this.recordOf(session);
    const e = new StoredEvent(seq, record.ref, time, HTTP_ROUTE);
    e.httpRef = httpRef(http);
    this.store(record, e, undefined);
  }

  lifecycle(session: TrafficSession, seq: number, time: number, text: string, completed: readonly ExchangeSummary[] | undefined): void {
    const record = this.recordOf(session);
    const e = new StoredEvent(seq, record.ref, time, LIFECYCLE_ROUTE);
    e.text = text;
    // The pipeline hands over a fresh list that nothing else keeps.
    if (completed !== undefined) e.completed = completed as ExchangeSummary[];
    this.store(record, e, undefined, 'utf8', true);
    if (session.endedAt !== undefined) this.memory.retireIfDone(record);
  }

  /**
   * Keeps an event: its line (history) or its message (memory only) into the line log, session
   * counts, memory, then live subscribers (in seq order). A lifecycle event (`withInfo`) carries
   * the session as it stands after it, and the session's line follows it on disk, as it does
   * after an event the session learned from (`learned`).
   */
  private store(record: SessionRecord, e: StoredEvent, json: string | undefined, form: TextForm = 'utf8', withInfo = false, learned = false): void {
    this.seq = e.lastSeq;
    if (withInfo) {
      record.note(e);
      e.sessionInfo = record.summary(true);
    }
    if (this.writer) this.writer.addEvent(e, json, form);
    else if (json !== undefined) writeMessage(this.lines, e, json, form);
    this.lines.mark(e.lastSeq);
    if (!withInfo) record.note(e);
    this.memory.add(record, e);
    this.lines.release(this.memory.oldestSeq ?? Infinity);
    if (learned || withInfo) this.writer?.addLine(sessionLine(record.summary(false)));
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(e);
  }
}
