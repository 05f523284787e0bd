/**
 * Issue 23: sampling. The default (`parentbased_always_on`) keeps a client's decision — an
 * unsampled `traceparent` (`-00`) is not exported, and the server is told `-00` too — and
 * samples every trace the hub starts itself (a client that sends none, such as Claude Desktop
 * through the relay). `always_off` exports no spans. Either way the duration metrics count
 * every call.
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { waitFor } from '../helpers/waits.js';
import { startReceiver } from './otlp-receiver.js';
import { SERVER, spanNamed, telemetryHub, TRACE } from './telemetry-harness.js';

describe('sampling', () => {
  it('the default keeps the client’s decision and starts sampled traces for clients that send none', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() } });
    const client = await connect(h, 'p');
    await client.callTool('echo', { text: 'unsampled' }, { traceparent: `00-${TRACE}-00f067aa0ba902b7-00` });
    await client.callTool('whoami');
    const started = await spanNamed(receiver, 'tools/call whoami', SERVER);
    expect(started.parentSpanId).toBeUndefined();
    expect(started.traceId).not.toBe(TRACE);
    const lines = (JSON.parse(await client.tool('dump_input')) as string[]).map((l) => JSON.parse(l) as { params?: { name?: string; _meta?: { traceparent?: string } } });
    expect(lines.find((m) => m.params?.name === 'echo')?.params?._meta?.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
    // Spans leave in completion order, one batch at a time: the later call's span has arrived, so
    // the unsampled call's would have come before it (no sleep needed to see that none did).
    expect(receiver.spans.filter((s) => s.traceId === TRACE)).toEqual([]);
    // The unsampled call still counts.
    await waitFor(() => receiver.metrics.some((m) => m.name === 'mcp.server.operation.duration' && m.points.some((p) => p.attributes['gen_ai.tool.name'] === 'echo')), 'the unsampled call in the metrics');
  });

  it('always_off: no spans, the metrics still count', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() } }, { sampler: 'always_off' });
    const client = await connect(h, 'p');
    await client.callTool('echo', { text: 'x' }, { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` });
    await waitFor(() => receiver.metrics.some((m) => m.name === 'mcp.client.operation.duration' && m.points.some((p) => p.attributes['gen_ai.tool.name'] === 'echo')), 'the call in the metrics');
    expect(receiver.spans).toEqual([]);
  });
});
