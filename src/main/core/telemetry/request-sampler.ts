/**
 * Telemetry's `RequestTracer` (hub/tracing.ts): the hub asks it for the ids of every client
 * request it forwards, and it decides whether the trace is sampled, with the meaning
 * OTEL_TRACES_SAMPLER gives its values:
 *
 * - `parentbased_*` (the default, `parentbased_always_on`): a request whose client sent a
 *   `traceparent` keeps the client's decision; a new trace is decided by the named root sampler.
 * - `always_on`, `always_off`, `traceidratio`: the sampler decides every request, parent or not.
 *
 * `traceidratio` decides on the trace id alone (its low 52 bits against the ratio), so every hop
 * of one trace through the hub — a profile's members, the era bridge — decides alike. Unsampled
 * requests still carry a context (`-00`): the next service sees the decision; the metrics count
 * them; only their spans are not exported.
 */
import { traceFor, type IncomingTrace, type RequestTracer, type TraceContext } from '../hub/tracing.js';
import type { SamplerName } from './telemetry-config.js';

/** 2^52: the low 13 hex digits of a trace id as a fraction (exact in a double). */
const SPAN_52 = 2 ** 52;

/** True when `traceId`'s randomness falls under `ratio` (0: never, 1: always). */
export function ratioSampled(traceId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  if (ratio <= 0) return false;
  return parseInt(traceId.slice(-13), 16) / SPAN_52 < ratio;
}

/** The root decision of a sampler (what it says of a trace it starts). */
function rootDecision(sampler: SamplerName, ratio: number): (traceId: string) => boolean {
  switch (sampler) {
    case 'always_on':
    case 'parentbased_always_on':
      return () => true;
    case 'always_off':
    case 'parentbased_always_off':
      return () => false;
    case 'traceidratio':
    case 'parentbased_traceidratio':
      return (traceId) => ratioSampled(traceId, ratio);
  }
}

/** The tracer the hub is given when telemetry is on. */
export function requestTracer(sampler: SamplerName, ratio: number): RequestTracer {
  const sample = rootDecision(sampler, ratio);
  const parentBased = sampler.startsWith('parentbased_');
  return {
    begin(incoming: IncomingTrace, options: { clientSpan: boolean }): TraceContext {
      const ctx = traceFor(incoming, { clientSpan: options.clientSpan, sample });
      // traceFor keeps a parent's decision; a sampler that is not parent-based overrules it.
      if (parentBased || ctx.parentSpanId === undefined) return ctx;
      const sampled = sample(ctx.traceId);
      return sampled === ctx.sampled ? ctx : { ...ctx, sampled };
    },
  };
}
