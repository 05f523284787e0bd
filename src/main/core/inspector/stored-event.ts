/**
 * A captured event as the inspector keeps it in memory. Two things keep it cheap, since one is
 * made for every message the hub moves:
 *
 * - The message text is not a JavaScript string: it is bytes in the line log (line-log.ts),
 *   written once, and decoded only when someone reads it.
 * - A message the hub passed through unchanged (per-session stdio: the very text that came in
 *   on one leg goes out on the other) is one event for both legs, a *pair*: the second leg has
 *   the next seq and only its own time (`twinUs`). Readers see two legs (`CapturedLeg`): the
 *   event itself, and a `TwinLeg` view made when read.
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
import { otherLeg } from '../traffic/captured-message.js';

export { otherLeg };

/** What every event of a session shares: its id, its server, and both as JSON (`,"session":…,"server":…`). */
export interface SessionRef {
  readonly id: string;
  readonly server: string;
  readonly prefix: string;
  /** `prefix` followed by `,"time":`, encoded for the line log. */
  readonly prefixTimeBytes: Buffer;
}

export function sessionRef(id: string, server: string): SessionRef {
  const prefix = `,"session":${JSON.stringify(id)},"server":${JSON.stringify(server)}`;
  return { id, server, prefix, prefixTimeBytes: Buffer.from(`${prefix},"time":`) };
}

/** An HTTP exchange's details, with their JSON encoded once (shared while they stay the same). */
export interface HttpRef {
  readonly http: CaptureHttp;
  readonly json: string;
  readonly bytes: Buffer;
}

export function httpRef(http: CaptureHttp): HttpRef {
  const json = JSON.stringify(http);
  return { http, json, bytes: Buffer.from(json) };
}

/** Per-event memory besides its bytes in the line log (the event object, ring slots). */
export const EVENT_OVERHEAD = 120;

const LEGS = ['', 'client', 'upstream'] as const;
const DIRECTIONS = ['', 'to-server', 'to-client'] as const;
const ORIGINS = ['client', 'server', 'hub'] as const;
const KINDS = ['request', 'notification', 'response', 'stderr', 'lifecycle', 'http'] as const;
const index = (names: readonly string[]): Record<string, number> => Object.fromEntries(names.map((n, i) => [n, i]));
const LEG_INDEX = index(LEGS);
const DIRECTION_INDEX = index(DIRECTIONS);
const ORIGIN_INDEX = index(ORIGINS);
const KIND_INDEX = index(KINDS);

interface Route {
  leg: CaptureLeg | undefined;
  direction: CaptureDirection | undefined;
  origin: CaptureOrigin;
  kind: CaptureKind;
  /** `,"leg":…,"direction":…,"origin":…,"kind":…`, and encoded. */
  json: string;
  bytes: Buffer;
  /** The same route on the other leg. */
  twin: number;
}

/** Leg, direction, origin and kind as one small number: four fields less in every event. */
export function routeOf(leg: CaptureLeg | undefined, direction: CaptureDirection | undefined, origin: CaptureOrigin, kind: CaptureKind): number {
  return ((LEG_INDEX[leg ?? '']! * DIRECTIONS.length + DIRECTION_INDEX[direction ?? '']!) * ORIGINS.length + ORIGIN_INDEX[origin]!) * KINDS.length + KIND_INDEX[kind]!;
}

export const ROUTES: Route[] = [];
for (const leg of LEGS)
  for (const direction of DIRECTIONS)
    for (const origin of ORIGINS)
      for (const kind of KINDS) {
        const json = (leg ? `,"leg":"${leg}"` : '') + (direction ? `,"direction":"${direction}"` : '') + `,"origin":"${origin}","kind":"${kind}"`;
        const other = leg === 'client' ? 'upstream' : leg === 'upstream' ? 'client' : undefined;
        ROUTES.push({ leg: leg || undefined, direction: direction || undefined, origin, kind, json, bytes: Buffer.from(json), twin: routeOf(other, direction || undefined, origin, kind) });
      }


/** One leg of a captured event, as every reader sees it. */
export interface CapturedLeg {
  readonly seq: number;
  readonly time: number;
  readonly session: string;
  readonly server: string;
  readonly ref: SessionRef;
  readonly route: number;
  readonly leg: CaptureLeg | undefined;
  readonly direction: CaptureDirection | undefined;
  readonly origin: CaptureOrigin;
  readonly kind: CaptureKind;
  readonly method: string | undefined;
  readonly id: string | number | null | undefined;
  /** UTF-8 bytes of the message as it crossed. */
  readonly size: number;
  /** Valid JSON: the redacted message, or a JSON string holding a truncated prefix (decoded on each read). */
  readonly json: string | undefined;
  readonly truncated: boolean | undefined;
  readonly text: string | undefined;
  readonly note: string | undefined;
  /** On `bridged` events: the client's request id this server-side message belongs to. */
  readonly of: string | number | undefined;
  readonly httpRef: HttpRef | undefined;
  readonly http: CaptureHttp | undefined;
  /** Exchanges this leg completed. */
  readonly exchanges: ExchangeSummary[] | undefined;
  readonly sessionInfo: InspectorSession | undefined;
}

interface Rare {
  text?: string;
  note?: string;
  of?: string | number;
  sessionInfo?: InspectorSession;
}

export function completedList(completed: ExchangeSummary | ExchangeSummary[] | undefined): ExchangeSummary[] | undefined {
  return completed === undefined || Array.isArray(completed) ? completed : [completed];
}

/** `flags`: the exchanges completed belong to the second leg of the pair. */
export const TWIN_COMPLETES = 1;
const TRUNCATED = 2;

/**
 * One class, every field set in the constructor (one hidden class), and as few fields as can be:
 * the inspector keeps up to a hundred thousand, and the garbage collector copies each one.
 * Fields most events lack live in `rare`.
 */
export class StoredEvent implements CapturedLeg {
  method: string | undefined = undefined;
  id: string | number | null | undefined = undefined;
  size = 0;
  httpRef: HttpRef | undefined = undefined;
  /** Exchanges this event completed (on its second leg when `flags` has TWIN_COMPLETES); mostly one. */
  completed: ExchangeSummary | ExchangeSummary[] | undefined = undefined;
  /** The message: bytes [start, end) of `data`, a buffer of the line log. */
  data: Buffer | undefined = undefined;
  start = 0;
  end = 0;
  /** Bytes this event takes in the line log (its history line, or its message). */
  logBytes = 0;
  /** A pair: µs from the first leg to the second (which has seq + 1); -1 for a single leg. */
  twinUs = -1;
  flags = 0;
  private rare: Rare | undefined = undefined;

  constructor(
    readonly seq: number,
    readonly ref: SessionRef,
    /** Epoch ms, to the µs. */
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
  get json(): string | undefined {
    return this.data === undefined || this.end === this.start ? undefined : this.data.toString('utf8', this.start, this.end);
  }
  get exchanges(): ExchangeSummary[] | undefined {
    return (this.flags & TWIN_COMPLETES) === 0 ? completedList(this.completed) : undefined;
  }
  get truncated(): boolean | undefined {
    return (this.flags & TRUNCATED) !== 0 ? true : undefined;
  }
  set truncated(truncated: boolean | undefined) {
    this.flags = truncated ? this.flags | TRUNCATED : this.flags & ~TRUNCATED;
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
  get of(): string | number | undefined {
    return this.rare?.of;
  }
  set of(of: string | number | undefined) {
    (this.rare ??= {}).of = of;
  }
  get sessionInfo(): InspectorSession | undefined {
    return this.rare?.sessionInfo;
  }
  set sessionInfo(info: InspectorSession | undefined) {
    (this.rare ??= {}).sessionInfo = info;
  }
  get paired(): boolean {
    return this.twinUs >= 0;
  }
  /** 2 for a pair, else 1. */
  get legs(): number {
    return this.twinUs >= 0 ? 2 : 1;
  }
  /** The seq of the last leg. */
  get lastSeq(): number {
    return this.twinUs >= 0 ? this.seq + 1 : this.seq;
  }
  get twinTime(): number {
    return (Math.round(this.time * 1000) + this.twinUs) / 1000;
  }
  /** The second leg of a pair, as a leg of its own (made on each call: readers only). */
  twin(): TwinLeg {
    return new TwinLeg(this);
  }
  /** Memory this event holds. */
  get memBytes(): number {
    return EVENT_OVERHEAD + this.logBytes + (this.rare?.text?.length ?? 0);
  }
}

/** The second leg of a pair: the same message, on the other leg, one seq later. */
export class TwinLeg implements CapturedLeg {
  constructor(readonly base: StoredEvent) {}
  get seq(): number {
    return this.base.seq + 1;
  }
  get time(): number {
    return this.base.twinTime;
  }
  get session(): string {
    return this.base.session;
  }
  get server(): string {
    return this.base.server;
  }
  get ref(): SessionRef {
    return this.base.ref;
  }
  get route(): number {
    return ROUTES[this.base.route]!.twin;
  }
  get leg(): CaptureLeg | undefined {
    return otherLeg(this.base.leg);
  }
  get direction(): CaptureDirection | undefined {
    return this.base.direction;
  }
  get origin(): CaptureOrigin {
    return this.base.origin;
  }
  get kind(): CaptureKind {
    return this.base.kind;
  }
  get method(): string | undefined {
    return this.base.method;
  }
  get id(): string | number | null | undefined {
    return this.base.id;
  }
  get size(): number {
    return this.base.size;
  }
  get json(): string | undefined {
    return this.base.json;
  }
  get truncated(): boolean | undefined {
    return this.base.truncated;
  }
  get text(): string | undefined {
    return undefined;
  }
  get note(): string | undefined {
    return undefined;
  }
  get of(): string | number | undefined {
    return undefined;
  }
  get httpRef(): HttpRef | undefined {
    return undefined;
  }
  get http(): CaptureHttp | undefined {
    return undefined;
  }
  get exchanges(): ExchangeSummary[] | undefined {
    return (this.base.flags & TWIN_COMPLETES) !== 0 ? completedList(this.base.completed) : undefined;
  }
  get sessionInfo(): InspectorSession | undefined {
    return undefined;
  }
}

/**
 * An exchange as the API returns it: a plain object with the contract's fields (the tracker's
 * derives some and keeps private pairing state).
 */
export function exchangeSummary(x: ExchangeSummary): ExchangeSummary {
  const out = { id: x.id, session: x.session, server: x.server } as ExchangeSummary;
  if (x.client !== undefined) out.client = x.client;
  out.requester = x.requester;
  out.requestId = x.requestId;
  out.method = x.method;
  out.status = x.status;
  out.startedAt = x.startedAt;
  if (x.endedAt !== undefined) out.endedAt = x.endedAt;
  if (x.latencyMs !== undefined) out.latencyMs = x.latencyMs;
  if (x.upstreamLatencyMs !== undefined) out.upstreamLatencyMs = x.upstreamLatencyMs;
  out.requestSeq = x.requestSeq;
  if (x.responseSeq !== undefined) out.responseSeq = x.responseSeq;
  if (x.cancelSeq !== undefined) out.cancelSeq = x.cancelSeq;
  if (x.lateResponseSeq !== undefined) out.lateResponseSeq = x.lateResponseSeq;
  out.progress = [...x.progress];
  out.progressCount = x.progressCount;
  if (x.error !== undefined) out.error = x.error;
  if (x.isError) out.isError = true;
  if (x.reason !== undefined) out.reason = x.reason;
  if (x.era !== undefined) out.era = x.era;
  if (x.headers !== undefined) out.headers = x.headers;
  // Copies: an open exchange's rounds and server side still grow.
  if (x.rounds !== undefined) out.rounds = x.rounds.map((r) => ({ ...r }));
  if (x.bridge !== undefined) out.bridge = { era: x.bridge.era, seqs: [...x.bridge.seqs] };
  if (x.parent !== undefined) out.parent = x.parent;
  if (x.madeBy !== undefined) out.madeBy = x.madeBy;
  const trace = x.trace;
  if (trace !== undefined) out.trace = trace;
  const timing = x.timing;
  if (timing !== undefined) out.timing = timing;
  return out;
}

/** A leg as the API returns it. */
export function toApiEvent(e: CapturedLeg): CaptureEvent {
  const out: CaptureEvent = { seq: e.seq, session: e.session, server: e.server, time: e.time, origin: e.origin, kind: e.kind, size: e.size };
  if (e.leg !== undefined) out.leg = e.leg;
  if (e.direction !== undefined) out.direction = e.direction;
  if (e.method !== undefined) out.method = e.method;
  if (e.id !== undefined) out.id = e.id;
  const json = e.json;
  if (json !== undefined) out.message = parseOr(json);
  if (e.truncated) out.truncated = true;
  if (e.text !== undefined) out.text = e.text;
  if (e.note !== undefined) out.note = e.note;
  if (e.of !== undefined) out.of = e.of;
  if (e.http !== undefined) out.http = e.http;
  if (e.exchanges !== undefined) out.exchanges = e.exchanges.map(exchangeSummary);
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
