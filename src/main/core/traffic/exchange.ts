/**
 * One request↔response exchange as the pairing keeps it (exchange-tracker.ts), and what pairing
 * reads out of a message to make it: whether a tool call failed, what a request is about.
 */
import type { CaptureEra, CaptureLeg, CaptureOrigin, ExchangeBridge, ExchangeStatus, ExchangeSummary, ExchangeTiming, InputRound, ProgressEntry } from '../../../shared/api/inspector-contract.js';
import type { Id } from './exchange-lists.js';
import type { TraceContext } from '../hub/tracing.js';

/** Shared by every exchange without progress (most of them): one array less per exchange. */
export const NO_PROGRESS: ProgressEntry[] = Object.freeze([]) as unknown as ProgressEntry[];

/** Longest text kept from a failed tool's content as the exchange's reason. */
const MAX_TOOL_ERROR_TEXT = 500;

/**
 * A tool that failed answers with a normal result carrying `isError: true` (MCP tools spec):
 * the call was answered, the tool was not. Undefined when the result is not such a failure;
 * else the first text of its content (possibly empty), for the reason.
 */
export function toolFailure(message: unknown): string | undefined {
  const result = (message as { result?: { isError?: unknown; content?: unknown } } | undefined)?.result;
  if (result === null || typeof result !== 'object' || result.isError !== true) return undefined;
  if (Array.isArray(result.content)) {
    for (const c of result.content as Array<{ type?: unknown; text?: unknown }>) {
      if (c !== null && typeof c === 'object' && c.type === 'text' && typeof c.text === 'string') return c.text.slice(0, MAX_TOOL_ERROR_TEXT);
    }
  }
  return '';
}

export function paramsOf(message: unknown): Record<string, unknown> | undefined {
  const p = (message as { params?: unknown } | undefined)?.params;
  return p !== null && typeof p === 'object' ? (p as Record<string, unknown>) : undefined;
}

/**
 * What a request is about: the tool of `tools/call`, the prompt of `prompts/get` (`params.name`),
 * the resource of `resources/read` (`params.uri`); undefined for other methods.
 */
export function requestTarget(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method !== 'tools/call' && method !== 'prompts/get' && method !== 'resources/read') return undefined;
  const target = method === 'resources/read' ? params?.uri : params?.name;
  return typeof target === 'string' ? target : undefined;
}

/**
 * An exchange as pairing hands it out: the contract's summary, and what the exchange feed
 * (observed-exchange.ts) needs besides, kept as getters so that neither the inspector's API
 * (which copies named fields) nor JSON ever sees them.
 */
export interface TrackedExchange extends ExchangeSummary {
  /** Tool name, prompt name or resource URI (requestTarget). */
  readonly target: string | undefined;
  /** UTF-8 bytes of the request as it crossed where it was first seen. */
  readonly requestBytes: number | undefined;
  /**
   * For a server's request with no `parent` from an era bridge: the client's call it came
   * during (the oldest one still open, which is where the hub routes it: docs/architecture.md,
   * "Stream affinity"). The inspector's own summary leaves it out.
   */
  readonly enclosing: string | undefined;
  /** The hub's trace of the request when telemetry traced it (hub/tracing.ts): every id. */
  readonly traceContext: TraceContext | undefined;
  /** When the request went out on its other leg (epoch ms): the start of the hub's request to the server. */
  readonly upstreamStartedAt: number | undefined;
}

/** µs from `from` to `to` (times in ms, kept to the µs): a small integer, stored unboxed. */
export const micros = (from: number, to: number): number => Math.round((to - from) * 1000);

/**
 * One exchange: the public fields are the ExchangeSummary of the contract; pairing state is kept
 * in private fields, which neither JSON nor object spread ever sees. One is kept for every call
 * (up to `maxExchanges` per session), so it is small: times after the start are µs offsets
 * (small integers need no heap box of their own) and what can be derived is (id, latencies).
 */
export class Exchange implements TrackedExchange {
  client: string | undefined = undefined;
  status: ExchangeStatus = 'pending';
  responseSeq: number | undefined = undefined;
  cancelSeq: number | undefined = undefined;
  lateResponseSeq: number | undefined = undefined;
  progress: ProgressEntry[] = NO_PROGRESS;
  progressCount = 0;
  error: { code: number; message: string } | undefined = undefined;
  isError: true | undefined = undefined;
  reason: string | undefined = undefined;
  era: CaptureEra | undefined = undefined;
  headers: Record<string, string> | undefined = undefined;
  rounds: InputRound[] | undefined = undefined;
  bridge: ExchangeBridge | undefined = undefined;
  parent: string | undefined = undefined;
  madeBy: 'app' | undefined = undefined;
  readonly #firstLeg: CaptureLeg | undefined;
  #progressToken: Id | undefined = undefined;
  /** µs from the start to the end, and to the request and the answer on the other leg. */
  #endUs: number | undefined = undefined;
  #otherRequestUs: number | undefined = undefined;
  #otherResponseUs: number | undefined = undefined;
  /** µs from the start to the answer's first byte from the server, and to its delivery to the client. */
  #firstByteUs: number | undefined = undefined;
  #deliveredUs: number | undefined = undefined;
  #target: string | undefined = undefined;
  #requestBytes: number | undefined = undefined;
  #enclosing: string | undefined = undefined;
  #trace: TraceContext | undefined = undefined;

  constructor(
    readonly session: string,
    readonly server: string,
    readonly requester: CaptureOrigin,
    readonly requestId: string | number,
    readonly method: string,
    readonly startedAt: number,
    readonly requestSeq: number,
    firstLeg: CaptureLeg | undefined,
  ) {
    this.#firstLeg = firstLeg;
  }

  get id(): string {
    return `${this.session}/${this.requestSeq}`;
  }
  get endedAt(): number | undefined {
    return this.#endUs === undefined ? undefined : (Math.round(this.startedAt * 1000) + this.#endUs) / 1000;
  }
  /** As the requester saw it: first sighting of the request → the answer on its leg. */
  get latencyMs(): number | undefined {
    return this.#endUs === undefined ? undefined : this.#endUs / 1000;
  }
  /** The other leg's share (hub → server → hub), once the exchange is over. */
  get upstreamLatencyMs(): number | undefined {
    if (this.#endUs === undefined || this.#otherRequestUs === undefined || this.#otherResponseUs === undefined) return undefined;
    return (this.#otherResponseUs - this.#otherRequestUs) / 1000;
  }
  get firstLeg(): CaptureLeg | undefined {
    return this.#firstLeg;
  }
  get progressToken(): Id | undefined {
    return this.#progressToken;
  }
  set progressToken(token: Id | undefined) {
    this.#progressToken = token;
  }
  get target(): string | undefined {
    return this.#target;
  }
  set target(target: string | undefined) {
    this.#target = target;
  }
  get requestBytes(): number | undefined {
    return this.#requestBytes;
  }
  set requestBytes(bytes: number | undefined) {
    this.#requestBytes = bytes;
  }
  get enclosing(): string | undefined {
    return this.#enclosing;
  }
  set enclosing(id: string | undefined) {
    this.#enclosing = id;
  }
  /** The hub's trace of the request (telemetry on): its ids for the summary. */
  get trace(): { traceId: string; spanId: string } | undefined {
    const t = this.#trace;
    return t === undefined ? undefined : { traceId: t.traceId, spanId: t.spanId };
  }
  get traceContext(): TraceContext | undefined {
    return this.#trace;
  }
  set traceContext(ctx: TraceContext | undefined) {
    this.#trace = ctx;
  }
  /** When the request went out on its other leg (epoch ms), once it did. */
  get upstreamStartedAt(): number | undefined {
    return this.#otherRequestUs === undefined ? undefined : (Math.round(this.startedAt * 1000) + this.#otherRequestUs) / 1000;
  }
  /** True when the request was seen on its other leg already. */
  get seenOnOtherLeg(): boolean {
    return this.#otherRequestUs !== undefined;
  }
  otherLegRequest(time: number): void {
    this.#otherRequestUs = micros(this.startedAt, time);
  }
  otherLegResponse(time: number): void {
    this.#otherResponseUs = micros(this.startedAt, time);
  }
  firstByteAt(time: number): void {
    this.#firstByteUs = micros(this.startedAt, time);
  }
  deliveredAt(time: number): void {
    this.#deliveredUs = micros(this.startedAt, time);
  }
  /**
   * Marks the events alone cannot give back (the first byte, the delivery), from the exchange as
   * it was written when it completed: an exchange paired again from history keeps them.
   */
  restoreMarks(t: ExchangeTiming): void {
    if (t.firstByteMs !== undefined) this.#firstByteUs = Math.round(t.firstByteMs * 1000);
    if (t.deliveredMs !== undefined) this.#deliveredUs = Math.round(t.deliveredMs * 1000);
  }
  /**
   * The marks between the start and the end, in ms after `startedAt` (docs/inspector.md,
   * "Timing"): made when read (the API, history), never kept as an object.
   */
  get timing(): ExchangeTiming | undefined {
    const sent = this.#otherRequestUs;
    const firstByte = this.#firstByteUs;
    const answered = this.#otherResponseUs;
    const delivered = this.#deliveredUs;
    if (sent === undefined && firstByte === undefined && answered === undefined && delivered === undefined) return undefined;
    const t: ExchangeTiming = {};
    if (sent !== undefined) t.sentMs = sent / 1000;
    if (firstByte !== undefined) t.firstByteMs = firstByte / 1000;
    if (answered !== undefined) t.answeredMs = answered / 1000;
    if (delivered !== undefined) t.deliveredMs = delivered / 1000;
    return t;
  }

  finish(status: ExchangeStatus, time: number, responseSeq: number | undefined, reason: string | undefined): void {
    this.status = status;
    this.#endUs = micros(this.startedAt, time);
    if (responseSeq !== undefined) this.responseSeq = responseSeq;
    if (reason !== undefined) this.reason = reason;
  }
}
