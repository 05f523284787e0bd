/**
 * A captured event as the inspector keeps it: the message as (redacted) JSON text, never
 * re-parsed until someone reads it. The same text object is shared by the two legs of a message
 * that the hub passed through unchanged, and written to disk once (`same` points at the first).
 * Serialisation is by hand and from cached pieces: it runs for every captured message.
 */
import type {
  CaptureDirection,
  CaptureEvent,
  CaptureHttp,
  CaptureKind,
  CaptureLeg,
  CaptureOrigin,
  ExchangeSummary,
  InspectorSession,
} from '../../../shared/api/inspector-contract.js';

/** What every event of a session shares: its id, its server, and both as JSON (`,"session":…,"server":…`). */
export interface SessionRef {
  readonly id: string;
  readonly server: string;
  readonly prefix: string;
}

export function sessionRef(id: string, server: string): SessionRef {
  return { id, server, prefix: `,"session":${JSON.stringify(id)},"server":${JSON.stringify(server)}` };
}

/** Per-event memory besides the message text (the event object, ring slots). */
export const EVENT_OVERHEAD = 160;

const LEGS = ['', 'client', 'upstream'] as const;
const DIRECTIONS = ['', 'to-server', 'to-client'] as const;
const ORIGINS = ['client', 'server', 'hub'] as const;
const KINDS = ['request', 'notification', 'response', 'stderr', 'lifecycle', 'http'] as const;
const index = (names: readonly string[]): Record<string, number> => Object.fromEntries(names.map((n, i) => [n, i]));
const LEG_INDEX = index(LEGS);
const DIRECTION_INDEX = index(DIRECTIONS);
const ORIGIN_INDEX = index(ORIGINS);
const KIND_INDEX = index(KINDS);
/** For each route number: its parts, and `,"leg":…,"direction":…,"origin":…,"kind":…` built once. */
const ROUTES: Array<{ leg: CaptureLeg | undefined; direction: CaptureDirection | undefined; origin: CaptureOrigin; kind: CaptureKind; json: string }> = [];
for (const leg of LEGS)
  for (const direction of DIRECTIONS)
    for (const origin of ORIGINS)
      for (const kind of KINDS) {
        const json = (leg ? `,"leg":"${leg}"` : '') + (direction ? `,"direction":"${direction}"` : '') + `,"origin":"${origin}","kind":"${kind}"`;
        ROUTES.push({ leg: leg || undefined, direction: direction || undefined, origin, kind, json });
      }

/** Leg, direction, origin and kind as one small number: four fields less in every event. */
export function routeOf(leg: CaptureLeg | undefined, direction: CaptureDirection | undefined, origin: CaptureOrigin, kind: CaptureKind): number {
  return ((LEG_INDEX[leg ?? '']! * DIRECTIONS.length + DIRECTION_INDEX[direction ?? '']!) * ORIGINS.length + ORIGIN_INDEX[origin]!) * KINDS.length + KIND_INDEX[kind]!;
}

interface Rare {
  text?: string;
  note?: string;
  truncated?: boolean;
  sessionInfo?: InspectorSession;
}

/**
 * One class, every field set in the constructor (one hidden class), and as few fields as can
 * be: the inspector keeps up to hundreds of thousands, and each one the garbage collector copies.
 * Fields most events lack live in `rare`.
 */
export class StoredEvent {
  method: string | undefined = undefined;
  id: string | number | null | undefined = undefined;
  size = 0;
  /** Valid JSON: the redacted message, or a JSON string holding a truncated prefix. */
  json: string | undefined = undefined;
  /** HTTP details and their JSON, shared by the messages of a session while they stay the same. */
  httpRef: { http: CaptureHttp; json: string } | undefined = undefined;
  exchanges: ExchangeSummary[] | undefined = undefined;
  /** An earlier event with the very same text. */
  sameAs: number | undefined = undefined;
  private rare: Rare | undefined = undefined;

  constructor(
    readonly seq: number,
    readonly ref: SessionRef,
    readonly time: number,
    readonly route: number,
  ) {}

  get session(): string {
    return this.ref.id;
  }
  get server(): string {
    return this.ref.server;
  }
  get leg(): CaptureLeg | undefined {
    return ROUTES[this.route]!.leg;
  }
  get direction(): CaptureDirection | undefined {
    return ROUTES[this.route]!.direction;
  }
  get origin(): CaptureOrigin {
    return ROUTES[this.route]!.origin;
  }
  get kind(): CaptureKind {
    return ROUTES[this.route]!.kind;
  }
  get http(): CaptureHttp | undefined {
    return this.httpRef?.http;
  }
  get text(): string | undefined {
    return this.rare?.text;
  }
  set text(text: string | undefined) {
    (this.rare ??= {}).text = text;
  }
  get note(): string | undefined {
    return this.rare?.note;
  }
  set note(note: string | undefined) {
    (this.rare ??= {}).note = note;
  }
  get truncated(): boolean | undefined {
    return this.rare?.truncated;
  }
  set truncated(truncated: boolean | undefined) {
    (this.rare ??= {}).truncated = truncated;
  }
  get sessionInfo(): InspectorSession | undefined {
    return this.rare?.sessionInfo;
  }
  set sessionInfo(info: InspectorSession | undefined) {
    (this.rare ??= {}).sessionInfo = info;
  }
  /** Memory this event holds (its text counts only where it is not shared). */
  get memBytes(): number {
    return EVENT_OVERHEAD + (this.sameAs === undefined ? (this.json?.length ?? 0) : 0) + (this.rare?.text?.length ?? 0);
  }
}

const str = JSON.stringify;
const METHODS = new Map<string, string>();

function methodPart(method: string): string {
  let part = METHODS.get(method);
  if (part === undefined) {
    part = `,"method":${str(method)}`;
    if (METHODS.size < 1000) METHODS.set(method, part);
  }
  return part;
}

/** Numbers that may be missing, as JSON members (`,"name":value`), in one place. */
function num(name: string, value: number | undefined): string {
  return value === undefined ? '' : `,"${name}":${value}`;
}

/**
 * An exchange summary as JSON, by hand (JSON.stringify of the class is several times slower,
 * and one is written with every response). Session ids are hex and server ids are restricted
 * to URL-safe characters (SERVER_ID_PATTERN), so neither needs escaping.
 */
export function exchangeJson(x: ExchangeSummary): string {
  let s = `{"id":"${x.id}","session":"${x.session}","server":"${x.server}"`;
  if (x.client !== undefined) s += `,"client":${str(x.client)}`;
  s += `,"requester":"${x.requester}","requestId":${typeof x.requestId === 'number' ? x.requestId : str(x.requestId)}${methodPart(x.method)},"status":"${x.status}","startedAt":${x.startedAt}`;
  s += num('endedAt', x.endedAt) + num('latencyMs', x.latencyMs) + num('upstreamLatencyMs', x.upstreamLatencyMs) + `,"requestSeq":${x.requestSeq}`;
  s += num('responseSeq', x.responseSeq) + num('cancelSeq', x.cancelSeq) + num('lateResponseSeq', x.lateResponseSeq);
  s += `,"progress":${x.progress.length === 0 ? '[]' : str(x.progress)},"progressCount":${x.progressCount}`;
  if (x.error !== undefined) s += `,"error":${str(x.error)}`;
  if (x.reason !== undefined) s += `,"reason":${str(x.reason)}`;
  return s + '}';
}

/** The event's JSON up to (not including) its message and closing brace. */
export function eventHead(e: StoredEvent): string {
  let s = `{"seq":${e.seq}${e.ref.prefix},"time":${e.time}${ROUTES[e.route]!.json}`;
  if (e.method !== undefined) s += methodPart(e.method);
  if (e.id !== undefined) s += `,"id":${typeof e.id === 'number' ? e.id : str(e.id)}`;
  s += `,"size":${e.size}`;
  if (e.truncated) s += ',"truncated":true';
  if (e.text !== undefined) s += `,"text":${str(e.text)}`;
  if (e.note !== undefined) s += `,"note":${str(e.note)}`;
  if (e.httpRef !== undefined) s += `,"http":${e.httpRef.json}`;
  if (e.exchanges !== undefined) s += `,"exchanges":[${e.exchanges.length === 1 ? exchangeJson(e.exchanges[0]!) : e.exchanges.map(exchangeJson).join(',')}]`;
  if (e.sessionInfo !== undefined) s += `,"sessionInfo":${str(e.sessionInfo)}`;
  return s;
}

/**
 * One line of JSON (no newline inside): the event with its message spliced in as text, so the
 * message is never parsed and re-serialised. On disk a repeated message is written as `same`.
 */
export function eventLine(e: StoredEvent, disk: boolean): string {
  return eventHead(e) + eventTail(e, disk);
}

/** What follows the head: the message (or a reference to it) and the closing brace. */
export function eventTail(e: StoredEvent, disk: boolean): string {
  if (e.json === undefined) return '}';
  return disk && e.sameAs !== undefined ? `,"same":${e.sameAs}}` : `,"message":${e.json}}`;
}

/** The event as the API returns it. */
export function toApiEvent(e: StoredEvent): CaptureEvent {
  const out: CaptureEvent = { seq: e.seq, session: e.session, server: e.server, time: e.time, origin: e.origin, kind: e.kind, size: e.size };
  if (e.leg !== undefined) out.leg = e.leg;
  if (e.direction !== undefined) out.direction = e.direction;
  if (e.method !== undefined) out.method = e.method;
  if (e.id !== undefined) out.id = e.id;
  if (e.json !== undefined) out.message = parseOr(e.json);
  if (e.truncated) out.truncated = true;
  if (e.text !== undefined) out.text = e.text;
  if (e.note !== undefined) out.note = e.note;
  if (e.http !== undefined) out.http = e.http;
  if (e.exchanges !== undefined) out.exchanges = e.exchanges.map((x) => ({ ...x, progress: [...x.progress] }));
  if (e.sessionInfo !== undefined) out.sessionInfo = e.sessionInfo;
  return out;
}

function parseOr(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/**
 * An event read back from a history line. `resolve` finds the message of an earlier event that a
 * `same` reference points at.
 */
export function eventFromLine(line: string, resolve?: (seq: number) => unknown): CaptureEvent | undefined {
  let value: (CaptureEvent & { same?: number }) | undefined;
  try {
    value = JSON.parse(line) as CaptureEvent & { same?: number };
  } catch {
    return undefined;
  }
  if (typeof value?.seq !== 'number') return undefined;
  if (value.same !== undefined) {
    const message = resolve?.(value.same);
    if (message !== undefined) value.message = message;
    delete value.same;
  }
  return value;
}
