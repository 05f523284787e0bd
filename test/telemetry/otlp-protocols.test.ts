/**
 * Issue 23: the hub exporting over OTLP — http/protobuf, http/json and gRPC — to a receiver in
 * the test that decodes with the official OTLP definitions. A 2025 client's `tools/call` with a
 * `traceparent` in `_meta`: the hub's SERVER span is the child of the client's span, its CLIENT
 * span the child of the SERVER span, and the server (the probe fixture, a real child process)
 * received the CLIENT span's `traceparent`. The duration metrics arrive as histograms in seconds
 * with the conventions' buckets and attributes; the session durations once the session ends.
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { waitFor } from '../helpers/waits.js';
import { MCP_DURATION_BUCKETS } from '../../src/main/core/telemetry/mcp-metrics.js';
import { startReceiver, type ReceivedMetric, type ReceiverProtocol } from './otlp-receiver.js';
import { childOf, CLIENT, CLIENT_SPAN, SERVER, telemetryHub, TRACE, traceparent, traceSpans } from './telemetry-harness.js';

function metric(metrics: ReceivedMetric[], name: string, method?: string): ReceivedMetric | undefined {
  return metrics.find((m) => m.name === name && (method === undefined || m.points.some((p) => p.attributes['mcp.method.name'] === method)));
}

describe('OTLP export, each protocol', () => {
  for (const protocol of ['http/protobuf', 'http/json', 'grpc'] as const satisfies readonly ReceiverProtocol[]) {
    it(`${protocol}: a 2025 call's SERVER and CLIENT spans continue the client's trace; the server got the CLIENT span; the metrics arrive`, async () => {
      const receiver = await startReceiver(protocol);
      const h = await telemetryHub(receiver, protocol, { servers: { p: probeServer() } }, { serviceName: 'patchbay-test', resourceAttributes: { 'deployment.environment.name': 'test' } });
      const client = await connect(h, 'p');
      await client.callTool('echo', { text: 'traced' }, { traceparent: traceparent(), tracestate: 'vendor=1' });

      const spans = await traceSpans(receiver, TRACE, 2);
      const server = spans.find((s) => s.kind === SERVER)!;
      expect(server).toMatchObject({ name: 'tools/call echo', parentSpanId: CLIENT_SPAN, scope: 'patchbay' });
      expect(server.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'jsonrpc.request.id': '1',
        'mcp.protocol.version': client.protocolVersion,
        'mcp.session.id': client.sessionId,
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'patchbay.server': 'p',
        'patchbay.era.client': 'legacy',
        'patchbay.era.server': 'legacy',
        'patchbay.bridged': false,
      });
      expect(server.attributes['error.type']).toBeUndefined();
      expect(server.resource).toMatchObject({ 'service.name': 'patchbay-test', 'deployment.environment.name': 'test', 'telemetry.sdk.language': 'nodejs' });
      const [upstream] = childOf(spans, server);
      expect(upstream).toMatchObject({ name: 'tools/call echo', kind: CLIENT, traceId: TRACE });
      expect(upstream!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'network.transport': 'pipe', 'patchbay.server': 'p' });
      expect(upstream!.attributes['mcp.session.id']).toBeUndefined();
      expect(upstream!.startNs >= server.startNs && upstream!.endNs <= server.endNs).toBe(true);

      // What the server read: the hub's CLIENT span as the parent, the client's tracestate kept.
      const lines = (JSON.parse(await client.tool('dump_input')) as string[]).map((l) => JSON.parse(l) as { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } });
      const received = lines.find((m) => m.method === 'tools/call' && m.params?.name === 'echo')!;
      expect(received.params!._meta).toMatchObject({ traceparent: `00-${TRACE}-${upstream!.spanId}-01`, tracestate: 'vendor=1' });

      const metrics = await waitFor(() => (metric(receiver.metrics, 'mcp.server.operation.duration', 'tools/call') && metric(receiver.metrics, 'mcp.client.operation.duration', 'tools/call') ? receiver.metrics : undefined), 'the operation metrics');
      for (const name of ['mcp.server.operation.duration', 'mcp.client.operation.duration']) {
        const m = metric(metrics, name, 'tools/call')!;
        expect(m.unit).toBe('s');
        const point = m.points.find((p) => p.attributes['mcp.method.name'] === 'tools/call')!;
        expect(point.explicitBounds).toEqual(MCP_DURATION_BUCKETS);
        expect(point.count).toBeGreaterThanOrEqual(1);
        expect(point.sum).toBeLessThan(10);
        expect(point.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': client.protocolVersion, 'patchbay.server': 'p', 'network.transport': name.includes('server') ? 'tcp' : 'pipe' });
        // Per-request identifiers never reach a metric (cardinality).
        expect(point.attributes['jsonrpc.request.id']).toBeUndefined();
        expect(point.attributes['mcp.session.id']).toBeUndefined();
      }

      // The session ends: both session durations (the client's with the hub, the hub's with the server).
      await (await client.delete()).body?.cancel();
      await waitFor(() => metric(receiver.metrics, 'mcp.server.session.duration') && metric(receiver.metrics, 'mcp.client.session.duration'), 'the session metrics');
      const serverSession = metric(receiver.metrics, 'mcp.server.session.duration')!.points[0]!;
      expect(serverSession.attributes).toMatchObject({ 'mcp.protocol.version': client.protocolVersion, 'network.transport': 'tcp', 'patchbay.server': 'p' });
      expect(metric(receiver.metrics, 'mcp.client.session.duration')!.points[0]!.attributes).toMatchObject({ 'network.transport': 'pipe', 'patchbay.server': 'p' });
      if (protocol !== 'grpc') expect(receiver.contentTypes.every((t) => t.includes(protocol === 'http/json' ? 'json' : 'protobuf'))).toBe(true);
    });
  }
});
