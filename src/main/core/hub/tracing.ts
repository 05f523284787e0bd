/**
 * Trace context through the hub (W3C Trace Context; MCP SEP-414, part of 2026-07-28: `traceparent`,
 * `tracestate` and `baggage` in `params._meta`, and the W3C headers on HTTP). When a tracer is set
 * (telemetry on), each client request the hub forwards gets a context: the hub's SERVER span for
 * the client's request, parented on what the client sent (or a new trace), and — when the hop to
 * the server is the hub's own — a CLIENT span for the request to the server, whose `traceparent`
 * the forwarded request carries in its `_meta`. Where the next hop is one of the hub's own stages
 * (a profile's aggregate, the era bridge), no CLIENT span is made here: the `traceparent` names the
 * SERVER span, and that stage makes the CLIENT spans (one per member reached).
 *
 * With no tracer, nothing here runs: the request is forwarded as it came, its raw text untouched.
 * The ids are made on the proxy path (they must be in the forwarded request); the spans are built
 * later from the paired exchanges (telemetry/), which carry the ids (SessionWatch.traced).
 */
import { randomBytes } from 'node:crypto';
import type { JsonRpcRequest } from '../protocol/json-rpc.js';

/** What a client said of its trace: from `params._meta`, else the W3C headers of its HTTP request. */
export interface IncomingTrace {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/** The trace of one request through the hub. */
export interface TraceContext {
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /** The hub's SERVER span for the client's request (16 hex digits). */
  readonly spanId: string;
  /** The hub's CLIENT span for its request to the server; absent where a stage of the hub makes it. */
  readonly clientSpanId?: string;
  /** The span the client named as the parent, when it sent a valid `traceparent`. */
  readonly parentSpanId?: string;
  /** Recorded and exported (the sampler said so, or the parent was sampled). */
  readonly sampled: boolean;
  readonly tracestate?: string;
  readonly baggage?: string;
}

/** Decides whether and how a request is traced (the telemetry's sampler); undefined: it is not. */
export interface RequestTracer {
  begin(incoming: IncomingTrace, options: { clientSpan: boolean }): TraceContext | undefined;
}

/** The W3C names, the same in `_meta` and as HTTP headers. */
const HEADER_NAMES = ['traceparent', 'tracestate', 'baggage'] as const;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** A `traceparent` header value taken apart, or undefined when it is not a valid version-00 one. */
export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; sampled: boolean } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return undefined;
  return { traceId: m[1]!, spanId: m[2]!, sampled: (parseInt(m[3]!, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * A context for a request: parented on the client's `traceparent` when it sent a valid one (its
 * trace id, its sampled flag unless `sample` decides otherwise for a new trace), else a new trace.
 */
export function traceFor(incoming: IncomingTrace, options: { clientSpan: boolean; sample(traceId: string): boolean }): TraceContext {
  const parent = parseTraceparent(incoming.traceparent);
  const traceId = parent?.traceId ?? newTraceId();
  const sampled = parent ? parent.sampled : options.sample(traceId);
  const ctx: { -readonly [K in keyof TraceContext]: TraceContext[K] } = { traceId, spanId: newSpanId(), sampled };
  if (options.clientSpan) ctx.clientSpanId = newSpanId();
  if (parent) ctx.parentSpanId = parent.spanId;
  if (typeof incoming.tracestate === 'string' && incoming.tracestate !== '') ctx.tracestate = incoming.tracestate;
  if (typeof incoming.baggage === 'string' && incoming.baggage !== '') ctx.baggage = incoming.baggage;
  return ctx;
}

type Obj = Record<string, unknown>;

/** What a request's `_meta` (else its HTTP request's W3C headers) says of its trace. */
export function incomingTrace(message: JsonRpcRequest, headers?: Readonly<Record<string, string | string[] | undefined>>): IncomingTrace {
  const params = message.params as Obj | undefined;
  const meta = params && typeof params === 'object' ? (params._meta as Obj | undefined) : undefined;
  const out: IncomingTrace = {};
  for (const name of HEADER_NAMES) {
    const fromMeta = meta && typeof meta === 'object' ? meta[name] : undefined;
    const fromHeader = headers?.[name];
    const value = typeof fromMeta === 'string' ? fromMeta : Array.isArray(fromHeader) ? fromHeader[0] : fromHeader;
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * The request as the hub forwards it under `ctx`: `_meta.traceparent` names the hub's CLIENT span
 * (or its SERVER span where a stage of the hub makes the CLIENT spans); the client's
 * `tracestate` and `baggage` travel on. Everything else is as the client sent it.
 */
export function withTrace(message: JsonRpcRequest, ctx: TraceContext): JsonRpcRequest {
  const params = (message.params ?? {}) as Obj;
  const meta: Obj = { ...((params._meta as Obj | undefined) ?? {}) };
  meta.traceparent = formatTraceparent(ctx.traceId, ctx.clientSpanId ?? ctx.spanId, ctx.sampled);
  if (ctx.tracestate !== undefined) meta.tracestate = ctx.tracestate;
  if (ctx.baggage !== undefined) meta.baggage = ctx.baggage;
  return { ...message, params: { ...params, _meta: meta } };
}

/** The W3C headers for an HTTP request carrying the forwarded request (a remote upstream in the 2026 era). */
export function traceHeaders(ctx: TraceContext): Record<string, string> {
  const out: Record<string, string> = { traceparent: formatTraceparent(ctx.traceId, ctx.clientSpanId ?? ctx.spanId, ctx.sampled) };
  if (ctx.tracestate !== undefined) out.tracestate = ctx.tracestate;
  if (ctx.baggage !== undefined) out.baggage = ctx.baggage;
  return out;
}
