import { describe, expect, it } from 'vitest';
import { formatTraceparent, incomingTrace, parseTraceparent, traceFor, traceHeaders, withTrace } from './tracing.js';

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('W3C trace context (hub/tracing.ts)', () => {
  it('parses version-00 traceparents, refuses malformed and all-zero ones', () => {
    expect(parseTraceparent(PARENT)).toEqual({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', sampled: true });
    expect(parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00')?.sampled).toBe(false);
    for (const bad of [undefined, '', 'garbage', '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`, `00-0af7651916cd43dd8448eb211c80319c-${'0'.repeat(16)}-01`, '00-0af7651916cd43dd8448eb211c8031-b7ad6b7169203331-01']) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
    expect(formatTraceparent('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', true)).toBe(PARENT);
  });

  it('continues the client’s trace when it sent one, else starts one the sampler decides on', () => {
    const continued = traceFor({ traceparent: PARENT, tracestate: 'vendor=1' }, { clientSpan: true, sample: () => false });
    expect(continued).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331', sampled: true, tracestate: 'vendor=1' });
    expect(continued.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(continued.clientSpanId).toMatch(/^[0-9a-f]{16}$/);
    expect(continued.clientSpanId).not.toBe(continued.spanId);
    const fresh = traceFor({}, { clientSpan: false, sample: () => true });
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.parentSpanId).toBeUndefined();
    expect(fresh.clientSpanId).toBeUndefined();
    expect(traceFor({ traceparent: 'garbage' }, { clientSpan: false, sample: () => false }).sampled).toBe(false);
  });

  it('reads `_meta` first, then the W3C headers', () => {
    const request = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'x', _meta: { traceparent: PARENT } } };
    expect(incomingTrace(request, { traceparent: 'other', baggage: 'k=v' })).toEqual({ traceparent: PARENT, baggage: 'k=v' });
    expect(incomingTrace({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { traceparent: ['00-a', 'b'] })).toEqual({ traceparent: '00-a' });
  });

  it('forwards the hub’s span in `_meta`, keeping everything else the client sent', () => {
    const ctx = traceFor({ traceparent: PARENT, baggage: 'user=ada' }, { clientSpan: true, sample: () => true });
    const request = { jsonrpc: '2.0' as const, id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 7, traceparent: PARENT } } };
    const out = withTrace(request, ctx);
    expect(out).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 7, traceparent: `00-${ctx.traceId}-${ctx.clientSpanId}-01`, baggage: 'user=ada' } },
    });
    // The client's message is not changed.
    expect(request.params._meta.traceparent).toBe(PARENT);
    // Where a stage of the hub makes the CLIENT spans, the SERVER span is named instead.
    const staged = traceFor({}, { clientSpan: false, sample: () => true });
    expect(withTrace({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, staged).params).toEqual({ _meta: { traceparent: `00-${staged.traceId}-${staged.spanId}-01` } });
    expect(traceHeaders(ctx)).toEqual({ traceparent: `00-${ctx.traceId}-${ctx.clientSpanId}-01`, baggage: 'user=ada' });
  });
});
