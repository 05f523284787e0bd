/**
 * Events as text. Two forms:
 *
 * - The history line (`writeEventLine`), written for every event straight into the line log,
 *   piece by piece from encoded constants and digits: no string is built for the line, and the
 *   message goes in as the (redacted) text the hub already had. A pair is one line, its second
 *   leg in `"twin":{"seq":…,"time":…}` right after the seq (eventsFromLine expands it).
 * - One leg as the API's JSON (`legJson`), for live subscribers only.
 */
import type { ExchangeStatus, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { LineLog } from './line-log.js';
import { ROUTES, TWIN_COMPLETES, type CapturedLeg, type StoredEvent } from './stored-event.js';

const str = JSON.stringify;
const B = (text: string): Buffer => Buffer.from(text);

const SEQ = B('{"seq":');
const TWIN = B(',"twin":{"seq":');
const TIME = B(',"time":');
const EXCHANGES = B(',"exchanges":[');
const SIZE = B(',"size":');
const TRUNCATED = B(',"truncated":true');
const TEXT = B(',"text":');
const NOTE = B(',"note":');
const HTTP = B(',"http":');
const SESSION_INFO = B(',"sessionInfo":');
const MESSAGE = B(',"message":');
const X_ID = B('{"id":"');
const X_CLIENT = B(',"client":');
const X_ENDED = B(',"endedAt":');
const X_LATENCY = B(',"latencyMs":');
const X_UPSTREAM = B(',"upstreamLatencyMs":');
const X_REQUEST_SEQ = B(',"requestSeq":');
const X_RESPONSE_SEQ = B(',"responseSeq":');
const X_CANCEL_SEQ = B(',"cancelSeq":');
const X_LATE_SEQ = B(',"lateResponseSeq":');
const X_NO_PROGRESS = B(',"progress":[],"progressCount":');
const X_PROGRESS = B(',"progress":');
const X_PROGRESS_COUNT = B(',"progressCount":');
const X_ERROR = B(',"error":');
const X_REASON = B(',"reason":');
const REQUESTERS: Record<string, Buffer> = Object.fromEntries(['client', 'server', 'hub'].map((r) => [r, B(`,"requester":"${r}","requestId":`)]));
const CLOSE = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const QUOTE = 0x22;
const SLASH = 0x2f;
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

const STATUS_INDEX: Record<ExchangeStatus, number> = { pending: 0, ok: 1, error: 2, cancelled: 3, timeout: 4, orphaned: 5 };
/** `,"method":…,"status":…,"startedAt":` of an exchange, encoded once per method and status. */
const EXCHANGE_PARTS = new Map<string, Array<Buffer | undefined>>();
function exchangePart(method: string, status: ExchangeStatus): Buffer {
  let parts = EXCHANGE_PARTS.get(method);
  if (parts === undefined) {
    parts = [];
    if (EXCHANGE_PARTS.size < 1000) EXCHANGE_PARTS.set(method, parts);
  }
  return (parts[STATUS_INDEX[status]] ??= B(`${methodPart(method).json},"status":"${status}","startedAt":`));
}

/** The last client name and its JSON: a session's exchanges all carry the same one. */
let lastClient: string | undefined;
let lastClientBytes = B('""');

function writeId(log: LineLog, id: string | number | null): void {
  if (typeof id === 'number') log.num(id);
  else log.utf8(str(id));
}

/**
 * An exchange of the event's session (its id is `<session>/<requestSeq>`, and the session and
 * server are the event's: `ref.prefixBytes` says both).
 */
function writeExchange(log: LineLog, e: StoredEvent, x: ExchangeSummary): void {
  log.bytes(X_ID);
  log.utf8(x.session);
  log.byte(SLASH);
  log.num(x.requestSeq);
  log.byte(QUOTE);
  log.bytes(e.ref.prefixBytes);
  if (x.client !== undefined) {
    if (x.client !== lastClient) {
      lastClient = x.client;
      lastClientBytes = B(str(x.client));
    }
    log.bytes(X_CLIENT);
    log.bytes(lastClientBytes);
  }
  log.bytes(REQUESTERS[x.requester]!);
  writeId(log, x.requestId);
  log.bytes(exchangePart(x.method, x.status));
  log.ms(x.startedAt);
  if (x.endedAt !== undefined) { log.bytes(X_ENDED); log.ms(x.endedAt); }
  if (x.latencyMs !== undefined) { log.bytes(X_LATENCY); log.ms(x.latencyMs); }
  if (x.upstreamLatencyMs !== undefined) { log.bytes(X_UPSTREAM); log.ms(x.upstreamLatencyMs); }
  log.bytes(X_REQUEST_SEQ);
  log.num(x.requestSeq);
  if (x.responseSeq !== undefined) { log.bytes(X_RESPONSE_SEQ); log.num(x.responseSeq); }
  if (x.cancelSeq !== undefined) { log.bytes(X_CANCEL_SEQ); log.num(x.cancelSeq); }
  if (x.lateResponseSeq !== undefined) { log.bytes(X_LATE_SEQ); log.num(x.lateResponseSeq); }
  if (x.progress.length === 0) log.bytes(X_NO_PROGRESS);
  else { log.bytes(X_PROGRESS); log.utf8(str(x.progress)); log.bytes(X_PROGRESS_COUNT); }
  log.num(x.progressCount);
  if (x.error !== undefined) { log.bytes(X_ERROR); log.utf8(str(x.error)); }
  if (x.reason !== undefined) { log.bytes(X_REASON); log.utf8(str(x.reason)); }
  log.byte(CLOSE);
}

function writeExchanges(log: LineLog, e: StoredEvent, xs: ExchangeSummary | ExchangeSummary[]): void {
  log.bytes(EXCHANGES);
  if (!Array.isArray(xs)) writeExchange(log, e, xs);
  else
    for (let i = 0; i < xs.length; i++) {
      if (i > 0) log.byte(COMMA);
      writeExchange(log, e, xs[i]!);
    }
  log.byte(CLOSE_ARRAY);
}

/**
 * Writes an event's history line into the log, the message (`json`, already redacted) last, and
 * records where the message is (`data`, `start`, `end`) and the line's size.
 */
export function writeEventLine(log: LineLog, e: StoredEvent, json: string | undefined): void {
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
      if (e.completed !== undefined && (e.flags & TWIN_COMPLETES) !== 0) writeExchanges(log, e, e.completed);
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
    if (e.httpRef !== undefined) { log.bytes(HTTP); log.bytes(e.httpRef.bytes); }
    if (e.completed !== undefined && (e.flags & TWIN_COMPLETES) === 0) writeExchanges(log, e, e.completed);
    const info = e.sessionInfo;
    if (info !== undefined) { log.bytes(SESSION_INFO); log.utf8(str(info)); }
    if (json !== undefined) {
      log.bytes(MESSAGE);
      e.start = log.pos;
      log.utf8(json);
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
export function writeMessage(log: LineLog, e: StoredEvent, json: string): void {
  for (;;) {
    log.begin();
    e.start = log.pos;
    log.utf8(json);
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
  if (x.reason !== undefined) s += `,"reason":${str(x.reason)}`;
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
  if (e.httpRef !== undefined) s += `,"http":${e.httpRef.json}`;
  const xs = e.exchanges;
  if (xs !== undefined) s += `,"exchanges":[${xs.map(exchangeJson).join(',')}]`;
  if (e.sessionInfo !== undefined) s += `,"sessionInfo":${str(e.sessionInfo)}`;
  const json = e.json;
  return json === undefined ? `${s}}` : `${s},"message":${json}}`;
}
