import { describe, expect, it } from 'vitest';
import { ratioSampled, requestTracer } from './request-sampler.js';

const SAMPLED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const UNSAMPLED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';

describe('the request tracer’s sampler (OTEL_TRACES_SAMPLER)', () => {
  it('parentbased_*: a parent’s decision wins; new traces follow the root sampler', () => {
    const on = requestTracer('parentbased_always_on', 1);
    expect(on.begin({ traceparent: UNSAMPLED }, { clientSpan: true })!.sampled).toBe(false);
    expect(on.begin({}, { clientSpan: true })!.sampled).toBe(true);
    const off = requestTracer('parentbased_always_off', 1);
    expect(off.begin({ traceparent: SAMPLED }, { clientSpan: true })!.sampled).toBe(true);
    expect(off.begin({}, { clientSpan: false })!.sampled).toBe(false);
  });

  it('always_on, always_off: every request decided alike, parent or not (ids kept)', () => {
    const off = requestTracer('always_off', 1).begin({ traceparent: SAMPLED }, { clientSpan: true })!;
    expect(off).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331', sampled: false });
    expect(off.clientSpanId).toMatch(/^[0-9a-f]{16}$/);
    expect(requestTracer('always_on', 1).begin({ traceparent: UNSAMPLED }, { clientSpan: true })!.sampled).toBe(true);
  });

  it('traceidratio decides on the trace id alone: the same for every hop of a trace, about the ratio overall', () => {
    const tracer = requestTracer('traceidratio', 0.25);
    let sampled = 0;
    for (let i = 0; i < 4000; i++) {
      const ctx = tracer.begin({}, { clientSpan: true })!;
      expect(ratioSampled(ctx.traceId, 0.25)).toBe(ctx.sampled);
      if (ctx.sampled) sampled++;
    }
    expect(sampled / 4000).toBeGreaterThan(0.2);
    expect(sampled / 4000).toBeLessThan(0.3);
    expect(ratioSampled('0af7651916cd43dd8448eb211c80319c', 0)).toBe(false);
    expect(ratioSampled('0af7651916cd43dd8448eb211c80319c', 1)).toBe(true);
  });
});
