/**
 * The spans of one completed exchange, with the ids the hub gave its request on the proxy path
 * (hub/tracing.ts; `ObservedExchange.trace`) and the times the pipeline measured. Spans are made
 * after the fact, when everything about them is known, as `ReadableSpan` objects the SDK's OTLP
 * exporters take as they are — no live span, context or tracer provider is involved.
 *
 * - A client's request to the hub: a SERVER span (the hub's `spanId`, child of the client's
 *   `traceparent` when it sent one) and, where the hub itself sent the request on, a CLIENT span
 *   (`clientSpanId`, child of the SERVER span) timed by the upstream leg.
 * - A request a stage of the hub sent (a profile's member, the era bridge's session): only its
 *   CLIENT span, child of the SERVER span its `traceparent` named; the stage's own SERVER id is
 *   referenced by nobody, so it is not exported.
 * - Unsampled traces: no spans (the metrics still count them).
 */
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, TraceState, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import type { TraceContext } from '../hub/tracing.js';
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import { errorType, isStage, spanAttributes, spanName, type AttributeContext, type Side } from './exchange-attributes.js';

/** What every span shares. */
export interface SpanSource {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  /** Tool arguments and results on the spans (the user opted in). */
  readonly captureContent: boolean;
}

/** One span, as the exporters read it. */
class ExchangeSpan implements ReadableSpan {
  readonly kind: SpanKind;
  readonly startTime;
  readonly endTime;
  readonly duration;
  readonly links = [];
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;

  constructor(
    readonly name: string,
    side: Side,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    startMs: number,
    endMs: number,
    readonly status: SpanStatus,
    readonly attributes: Attributes,
    readonly events: TimedEvent[],
    source: SpanSource,
  ) {
    this.kind = side === 'server' ? SpanKind.SERVER : SpanKind.CLIENT;
    this.startTime = millisToHrTime(startMs);
    this.endTime = millisToHrTime(Math.max(startMs, endMs));
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    this.resource = source.resource;
    this.instrumentationScope = source.scope;
  }

  spanContext = (): SpanContext => this.context;
}

/** ERROR when `error.type` is set; the description is the JSON-RPC error's message (a tool's text or a cancellation's reason only with content on). */
function statusOf(x: ObservedExchange, captureContent: boolean): SpanStatus {
  if (errorType(x) === undefined) return { code: SpanStatusCode.UNSET };
  const kind = x.error?.kind;
  const content = kind === 'tool_error' || kind === 'cancelled';
  const message = x.error?.message;
  return message !== undefined && (!content || captureContent) ? { code: SpanStatusCode.ERROR, message } : { code: SpanStatusCode.ERROR };
}

/** `gen_ai.tool.call.arguments` and (when it succeeded) `.result`, as JSON text, redacted as in the inspector. */
function contentAttributes(x: ObservedExchange): Attributes | undefined {
  const texts = x.texts;
  if (x.request.method !== 'tools/call' || texts === undefined) return undefined;
  const out: Attributes = {};
  if (texts.params !== undefined) {
    const params = parsed(texts.params);
    // A params text cut at the inspector's limit is a JSON string holding its prefix: kept as it is.
    const args = params !== null && typeof params === 'object' ? (params as { arguments?: unknown }).arguments : params;
    if (args !== undefined) out['gen_ai.tool.call.arguments'] = typeof args === 'string' ? args : JSON.stringify(args);
  }
  if (x.status === 'ok' && texts.result !== undefined) out['gen_ai.tool.call.result'] = texts.result;
  return out;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function contextOf(trace: TraceContext, spanId: string, isRemote: boolean): SpanContext {
  const ctx: SpanContext = { traceId: trace.traceId, spanId, traceFlags: trace.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote };
  if (trace.tracestate !== undefined) ctx.traceState = new TraceState(trace.tracestate);
  return ctx;
}

/**
 * The spans of `x` (none when it was not traced, or not sampled). `events`: its span events
 * (span-events.ts), put on its CLIENT span when it has one — the call the server saw — else on
 * its SERVER span.
 */
export function exchangeSpans(x: ObservedExchange, events: TimedEvent[], attributes: AttributeContext, source: SpanSource): ReadableSpan[] {
  const trace = x.trace;
  if (trace === undefined || !trace.sampled) return [];
  const name = spanName(x);
  const status = statusOf(x, source.captureContent);
  const content = source.captureContent ? contentAttributes(x) : undefined;
  const stage = isStage(x.session);
  const clientSpanId = trace.clientSpanId;
  const spans: ReadableSpan[] = [];
  if (!stage) {
    const parent = trace.parentSpanId === undefined ? undefined : contextOf(trace, trace.parentSpanId, true);
    const attrs = { ...spanAttributes(x, 'server', attributes), ...content };
    spans.push(new ExchangeSpan(name, 'server', contextOf(trace, trace.spanId, false), parent, x.startedAt, x.endedAt, status, attrs, clientSpanId === undefined ? events : [], source));
  }
  if (clientSpanId !== undefined) {
    // The upstream leg's own times when it was seen; a stage's session sees only that leg.
    const upstream = !stage && x.upstreamStartedAt !== undefined && x.upstreamDurationMs !== undefined;
    const start = upstream ? x.upstreamStartedAt! : x.startedAt;
    const end = upstream ? x.upstreamStartedAt! + x.upstreamDurationMs! : x.endedAt;
    const parentId = stage ? trace.parentSpanId : trace.spanId;
    const parent = parentId === undefined ? undefined : contextOf(trace, parentId, false);
    const attrs = { ...spanAttributes(x, 'client', attributes), ...content };
    spans.push(new ExchangeSpan(name, 'client', contextOf(trace, clientSpanId, false), parent, start, end, status, attrs, events, source));
  }
  return spans;
}
