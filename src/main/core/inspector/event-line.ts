/**
 * Events as text. Two forms:
 *
 * - The history line (`writeEventLine`), written for every event straight into the line log,
 *   piece by piece from encoded constants and digits: no string is built for the line, and the
 *   message goes in as the (redacted) text the hub already had. A pair is one line, its second
 *   leg in `"twin":{"seq":…,"time":…}` right after the seq (eventsFromLine expands it).
 * - One leg as the API's JSON (`legJson`), for live subscribers only.
 */
import type { CaptureEvent, ExchangeStatus, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { TextForm } from '../traffic/message-text.js';
import type { LineLog } from './line-log.js';
import { timingOf, writeTiming } from './timing-line.js';
import { otherLeg, ROUTES, TWIN_COMPLETES, type CapturedLeg, type StoredEvent } from './stored-event.js';

const str = JSON.stringify;
const B = (text: string): Buffer => Buffer.from(text);

const SEQ = B('{"seq":');
const TWIN = B(',"twin":{"seq":');
const TIME = B(',"time":');
const EXCHANGES = B(',"x":[');
const SIZE = B(',"size":');
const TRUNCATED = B(',"truncated":true');
const TEXT = B(',"text":');
const NOTE = B(',"note":');
const OF = B(',"of":');
const HTTP = B(',"http":');
const SESSION_INFO = B(',"sessionInfo":');
const MESSAGE = B(',"message":');
const CLOSE = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const NEWLINE = 0x0a;

/** `,"method":"…"` by method (a bounded cache: methods are few), as text and encoded. */
const METHODS = new Map<string, { json: string; bytes: Buffer }>();
function methodPart(method: string): { json: string; bytes: Buffer } {
  let part = METHODS.get(method);
  if (part === undefined) {
    const json = `,"method":${str(method)}`;
    part = { json, bytes: B(json) };
    if (METHODS.size < 1000) METHODS.set(method, part);
  }
  return part;
}

/**
 * What follows an event's time up to its id's value, by route, method and whether it has an id:
 * `,"leg":…,"direction":…,"origin":…,"kind":…,"method":…,"id":`, encoded once.
 */
const ROUTE_PARTS: Array<Map<string, [Buffer | undefined, Buffer | undefined]>> = ROUTES.map(() => new Map());
function routePart(route: number, method: string | undefined, hasId: boolean): Buffer {
  // Keyed by the method string itself: the inspector interns them, so its hash is computed once.
  const byMethod = ROUTE_PARTS[route]!;
  const key = method ?? '';
  let parts = byMethod.get(key);
  if (parts === undefined) {
    parts = [undefined, undefined];
    if (byMethod.size < 1000) byMethod.set(key, parts);
  }
  const i = hasId ? 1 : 0;
  return (parts[i] ??= B(ROUTES[route]!.json + (method === undefined ? '' : methodPart(method).json) + (hasId ? ',"id":' : '')));
}

/**
 * An exchange on disk is compact: what the line it completes on already says is left out and
 * put back by `expandExchange` (its id, session and server; `endedAt` is the completing leg's
 * time, `latencyMs` follows from it, `responseSeq` is that leg's seq when it is a response).
 * Keys: r requestSeq, q requester, i requestId, m method, s status, t0 startedAt,
 * u upstreamLatencyMs, c client, cs cancelSeq, pg progress, pc progressCount, err error, ie isError
 * (a failed tool call), why reason, tm timing (`[sent, first byte, answered, delivered]`, ms after
 * t0, null where a mark is missing).
 */
const STATUS_INDEX: Record<ExchangeStatus, number> = { pending: 0, ok: 1, error: 2, cancelled: 3, timeout: 4, orphaned: 5 };
/** `,"q":<requester>,"i":` by requester. */
const REQUESTER_PARTS: Record<string, Buffer> = Object.fromEntries(['client', 'server', 'hub'].map((r) => [r, B(`,"q":"${r}","i":`)]));
/** `,"m":<method>,"s":<status>,"t0":`, encoded once per method and status. */
const EXCHANGE_PARTS = new Map<string, Array<Buffer | undefined>>();
function exchangePart(method: string, status: ExchangeStatus): Buffer {
  let parts = EXCHANGE_PARTS.get(method);
  if (parts === undefined) {
    parts = [];
    if (EXCHANGE_PARTS.size < 1000) EXCHANGE_PARTS.set(method, parts);
  }
  return (parts[STATUS_INDEX[status]] ??= B(`,"m":${str(method)},"s":"${status}","t0":`));
}
const X_OPEN = B('{"r":');
const X_UPSTREAM = B(',"u":');
const X_CANCEL_SEQ = B(',"cs":');
const X_PROGRESS = B(',"pg":');
const X_PROGRESS_COUNT = B(',"pc":');
const X_ERROR = B(',"err":');
const X_IS_ERROR = B(',"ie":1');
const X_REASON = B(',"why":');
const X_ERAS = B(',"nx":');

/** The era fields of an exchange (rare: modern clients and bridged exchanges), compact, or undefined. */
function eraFields(x: ExchangeSummary): CompactExchange['nx'] {
  const trace = x.trace;
  if (x.era !== 'modern' && x.rounds === undefined && x.bridge === undefined && x.parent === undefined && trace === undefined && x.madeBy === undefined) return undefined;
  const nx: NonNullable<CompactExchange['nx']> = {};
  if (x.era === 'modern') nx.e = 'modern';
  if (x.headers !== undefined) nx.h = x.headers;
  if (x.rounds !== undefined) nx.rd = x.rounds;
  if (x.bridge !== undefined) nx.b = x.bridge;
  if (x.parent !== undefined) nx.p = x.parent;
  if (trace !== undefined) nx.t = trace;
  if (x.madeBy !== undefined) nx.a = x.madeBy;
  return nx;
}

/** `,"c":<client>` for the last client name seen: a session's exchanges all carry the same one. */
let lastClient: string | undefined;
let lastClientBytes = B('');

function writeId(log: LineLog, id: string | number | null): void {
  if (typeof id === 'number') log.num(id);
  else log.utf8(str(id));
}

function writeExchange(log: LineLog, x: ExchangeSummary): void {
  log.bytes(X_OPEN);
  log.num(x.requestSeq);
  log.bytes(REQUESTER_PARTS[x.requester]!);
  writeId(log, x.requestId);
  log.bytes(exchangePart(x.method, x.status));
  log.ms(x.startedAt);
  const upstream = x.upstreamLatencyMs;
  if (upstream !== undefined) {
    log.bytes(X_UPSTREAM);
    log.ms(upstream);
  }
  if (x.client !== undefined) {
    if (x.client !== lastClient) {
      lastClient = x.client;
      lastClientBytes = B(`,"c":${str(x.client)}`);
    }
    log.bytes(lastClientBytes);
  }
  if (x.cancelSeq !== undefined) {
    log.bytes(X_CANCEL_SEQ);
    log.num(x.cancelSeq);
  }
  if (x.progressCount > 0) {
    log.bytes(X_PROGRESS);
    log.utf8(str(x.progress));
    log.bytes(X_PROGRESS_COUNT);
    log.num(x.progressCount);
  }
  if (x.error !== undefined) {
    log.bytes(X_ERROR);
    log.utf8(str(x.error));
  }
  if (x.isError) log.bytes(X_IS_ERROR);
  if (x.reason !== undefined) {
    log.bytes(X_REASON);
    log.utf8(str(x.reason));
  }
  const nx = eraFields(x);
  if (nx !== undefined) {
    log.bytes(X_ERAS);
    log.utf8(str(nx));
  }
  const timing = x.timing;
  if (timing !== undefined) writeTiming(log, timing);
  log.byte(CLOSE);
}

function writeExchanges(log: LineLog, xs: ExchangeSummary | ExchangeSummary[]): void {
  log.bytes(EXCHANGES);
  if (!Array.isArray(xs)) writeExchange(log, xs);
  else
    for (let i = 0; i < xs.length; i++) {
      if (i > 0) log.byte(COMMA);
      writeExchange(log, xs[i]!);
    }
  log.byte(CLOSE_ARRAY);
}

/** The compact form of an exchange, as written (see above). */
export interface CompactExchange {
  r: number;
  q: ExchangeSummary['requester'];
  i: string | number;
  m: string;
  s: ExchangeStatus;
  t0: number;
  u?: number;
  c?: string;
  cs?: number;
  pg?: ExchangeSummary['progress'];
  pc?: number;
  err?: ExchangeSummary['error'];
  ie?: 1;
  why?: string;
  tm?: Array<number | null>;
  /** Eras: e the client's era when modern, h its Mcp-* headers, rd input rounds, b the bridged server side, p parent exchange. */
  nx?: { e?: 'modern'; h?: Record<string, string>; rd?: ExchangeSummary['rounds']; b?: ExchangeSummary['bridge']; p?: string; t?: ExchangeSummary['trace']; a?: 'app' };
}

/** An exchange read back from a line, completed by `leg` (the event it completed on). */
export function expandExchange(c: CompactExchange, leg: { seq: number; session: string; server: string; time: number; kind: string }): ExchangeSummary {
  const x = { id: `${leg.session}/${c.r}`, session: leg.session, server: leg.server } as ExchangeSummary;
  if (c.c !== undefined) x.client = c.c;
  x.requester = c.q;
  x.requestId = c.i;
  x.method = c.m;
  x.status = c.s;
  x.startedAt = c.t0;
  x.endedAt = leg.time;
  // As the tracker computes it: whole µs between the two times.
  x.latencyMs = Math.round((leg.time - c.t0) * 1000) / 1000;
  if (c.u !== undefined) x.upstreamLatencyMs = c.u;
  x.requestSeq = c.r;
  if (leg.kind === 'response') x.responseSeq = leg.seq;
  if (c.cs !== undefined) x.cancelSeq = c.cs;
  x.progress = c.pg ?? [];
  x.progressCount = c.pc ?? 0;
  if (c.err !== undefined) x.error = c.err;
  if (c.ie === 1) x.isError = true;
  if (c.why !== undefined) x.reason = c.why;
  const nx = c.nx;
  x.era = nx?.e ?? 'legacy';
  if (nx?.h !== undefined) x.headers = nx.h;
  if (nx?.rd !== undefined) x.rounds = nx.rd;
  if (nx?.b !== undefined) x.bridge = nx.b;
  if (nx?.p !== undefined) x.parent = nx.p;
  if (nx?.t !== undefined) x.trace = nx.t;
  if (nx?.a !== undefined) x.madeBy = nx.a;
  if (c.tm !== undefined) x.timing = timingOf(c.tm);
  return x;
}

/** A message's kept text, as its form says (traffic/message-text.ts). */
function writeText(log: LineLog, text: string, form: TextForm): void {
  if (form === 'ascii') log.ascii(text);
  else if (form === 'quote') log.asciiQuoted(text);
  else log.utf8(text);
}

/**
 * Writes an event's history line into the log, the message (`json`, already redacted, in its
 * `form`) last, and records where the message is (`data`, `start`, `end`) and the
 * line's size.
 */
export function writeEventLine(log: LineLog, e: StoredEvent, json: string | undefined, form: TextForm = 'utf8'): void {
  for (;;) {
    log.begin();
    const from = log.pos;
    log.bytes(SEQ);
    log.num(e.seq);
    if (e.paired) {
      log.bytes(TWIN);
      log.num(e.seq + 1);
      log.bytes(TIME);
      log.ms(e.twinTime);
      if (e.completed !== undefined && (e.flags & TWIN_COMPLETES) !== 0) writeExchanges(log, e.completed);
      log.byte(CLOSE);
    }
    log.bytes(e.ref.prefixTimeBytes);
    log.ms(e.time);
    log.bytes(routePart(e.route, e.method, e.id !== undefined));
    if (e.id !== undefined) writeId(log, e.id);
    log.bytes(SIZE);
    log.num(e.size);
    if (e.truncated) log.bytes(TRUNCATED);
    const text = e.text;
    if (text !== undefined) { log.bytes(TEXT); log.utf8(str(text)); }
    const note = e.note;
    if (note !== undefined) { log.bytes(NOTE); log.utf8(str(note)); }
    const of = e.of;
    if (of !== undefined) { log.bytes(OF); writeId(log, of); }
    if (e.httpRef !== undefined) { log.bytes(HTTP); log.bytes(e.httpRef.bytes); }
    if (e.completed !== undefined && (e.flags & TWIN_COMPLETES) === 0) writeExchanges(log, e.completed);
    const info = e.sessionInfo;
    if (info !== undefined) { log.bytes(SESSION_INFO); log.utf8(str(info)); }
    if (json !== undefined) {
      log.bytes(MESSAGE);
      e.start = log.pos;
      writeText(log, json, form);
      e.end = log.pos;
    }
    log.byte(CLOSE);
    log.byte(NEWLINE);
    if (!log.overflow) {
      log.end();
      // Also without a message: the buffer tells which line-log buffer the line is in.
      e.data = log.chunk;
      if (json === undefined) e.start = e.end = 0;
      e.logBytes = log.pos - from;
      return;
    }
    log.retry();
  }
}

/** Without history: only the message goes into the log (memory reads it from there). */
export function writeMessage(log: LineLog, e: StoredEvent, json: string, form: TextForm = 'utf8'): void {
  for (;;) {
    log.begin();
    e.start = log.pos;
    writeText(log, json, form);
    e.end = log.pos;
    if (!log.overflow) {
      log.end();
      e.data = log.chunk;
      e.logBytes = e.end - e.start;
      return;
    }
    log.retry();
  }
}

/** Numbers that may be missing, as JSON members (`,"name":value`), in one place. */
function num(name: string, value: number | undefined): string {
  return value === undefined ? '' : `,"${name}":${value}`;
}

/** An exchange summary as the API's JSON. */
export function exchangeJson(x: ExchangeSummary): string {
  let s = `{"id":"${x.id}","session":"${x.session}","server":"${x.server}"`;
  if (x.client !== undefined) s += `,"client":${str(x.client)}`;
  s += `,"requester":"${x.requester}","requestId":${typeof x.requestId === 'number' ? x.requestId : str(x.requestId)}${methodPart(x.method).json},"status":"${x.status}","startedAt":${x.startedAt}`;
  s += num('endedAt', x.endedAt) + num('latencyMs', x.latencyMs) + num('upstreamLatencyMs', x.upstreamLatencyMs) + `,"requestSeq":${x.requestSeq}`;
  s += num('responseSeq', x.responseSeq) + num('cancelSeq', x.cancelSeq) + num('lateResponseSeq', x.lateResponseSeq);
  s += `,"progress":${x.progress.length === 0 ? '[]' : str(x.progress)},"progressCount":${x.progressCount}`;
  if (x.error !== undefined) s += `,"error":${str(x.error)}`;
  if (x.isError) s += ',"isError":true';
  if (x.reason !== undefined) s += `,"reason":${str(x.reason)}`;
  if (x.era !== undefined) s += `,"era":"${x.era}"`;
  if (x.headers !== undefined) s += `,"headers":${str(x.headers)}`;
  if (x.rounds !== undefined) s += `,"rounds":${str(x.rounds)}`;
  if (x.bridge !== undefined) s += `,"bridge":${str(x.bridge)}`;
  if (x.parent !== undefined) s += `,"parent":${str(x.parent)}`;
  if (x.madeBy !== undefined) s += `,"madeBy":"${x.madeBy}"`;
  const trace = x.trace;
  if (trace !== undefined) s += `,"trace":${str(trace)}`;
  const timing = x.timing;
  if (timing !== undefined) s += `,"timing":${str(timing)}`;
  return s + '}';
}

/** One leg as the API's JSON (a CaptureEvent), the message spliced in as text. */
export function legJson(e: CapturedLeg): string {
  let s = `{"seq":${e.seq}${e.ref.prefix},"time":${e.time}${ROUTES[e.route]!.json}`;
  if (e.method !== undefined) s += methodPart(e.method).json;
  if (e.id !== undefined) s += `,"id":${typeof e.id === 'number' ? e.id : str(e.id)}`;
  s += `,"size":${e.size}`;
  if (e.truncated) s += ',"truncated":true';
  if (e.text !== undefined) s += `,"text":${str(e.text)}`;
  if (e.note !== undefined) s += `,"note":${str(e.note)}`;
  if (e.of !== undefined) s += `,"of":${typeof e.of === 'number' ? e.of : str(e.of)}`;
  if (e.httpRef !== undefined) s += `,"http":${e.httpRef.json}`;
  const xs = e.exchanges;
  if (xs !== undefined) s += `,"exchanges":[${xs.map(exchangeJson).join(',')}]`;
  if (e.sessionInfo !== undefined) s += `,"sessionInfo":${str(e.sessionInfo)}`;
  const json = e.json;
  return json === undefined ? `${s}}` : `${s},"message":${json}}`;
}

type LineValue = CaptureEvent & { same?: number; x?: CompactExchange[]; twin?: { seq?: unknown; time?: unknown; x?: CompactExchange[] } };

/**
 * The events of a history line: one, or two for a pair (`"twin":{"seq":…,"time":…}`: the same
 * message on the other leg), with their exchanges expanded. `resolve` finds the message of an
 * earlier event that a `same` reference points at (files written by earlier versions).
 */
export function eventsFromLine(line: string, resolve?: (seq: number) => unknown): CaptureEvent[] {
  let value: LineValue | undefined;
  try {
    value = JSON.parse(line) as LineValue;
  } catch {
    return [];
  }
  if (typeof value?.seq !== 'number') return [];
  if (value.same !== undefined) {
    const message = resolve?.(value.same);
    if (message !== undefined) value.message = message;
    delete value.same;
  }
  const { twin, x } = value;
  delete value.twin;
  delete value.x;
  if (x !== undefined) value.exchanges = x.map((c) => expandExchange(c, value));
  if (twin === undefined || typeof twin.seq !== 'number' || typeof twin.time !== 'number') return [value];
  const second: CaptureEvent = { ...value, seq: twin.seq, time: twin.time };
  const leg = otherLeg(value.leg);
  if (leg !== undefined) second.leg = leg;
  delete second.http;
  delete second.exchanges;
  if (twin.x !== undefined) second.exchanges = twin.x.map((c) => expandExchange(c, second));
  return [value, second];
}
