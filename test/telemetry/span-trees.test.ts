/**
 * Issue 23: the spans the hub exports for each kind of exchange, in the MCP semantic conventions
 * (names `{mcp.method.name} {target}`, SERVER for the client's request to the hub, CLIENT for the
 * hub's to the server, `error.type`, events), over real processes and real OTLP (http/protobuf,
 * decoded by the receiver with the official definitions): a 2026-07-28 call to a modern server,
 * a 2026 call bridged to a 2025 server, a profile reaching two members, a tool error and a
 * JSON-RPC error, a cancelled call, progress, a nested sampling request and an `input_required`
 * round.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { startReceiver } from './otlp-receiver.js';
import { childOf, CLIENT, CLIENT_SPAN, SERVER, spanNamed, STATUS_ERROR, telemetryHub, TRACE, traceparent, traceSpans } from './telemetry-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 `tools/call` over raw HTTP, with `_meta` extras; the last message of the reply. */
async function modernCall(h: TestHub, server: string, id: number, name: string, args: Record<string, unknown>, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(h, server, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { ...ENVELOPE, ...extra } } }, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name } });
  const { messages } = await messagesOfResponse(res);
  return messages.at(-1)!.result as Record<string, unknown>;
}

/** The `_meta.traceparent` the probe server read with its `tools/call` of `tool`. */
function traceparentIn(dumped: string, tool: string): string | undefined {
  const lines = (JSON.parse(dumped) as string[]).map((l) => JSON.parse(l) as { method?: string; params?: { name?: string; _meta?: { traceparent?: string } } });
  return lines.find((m) => m.method === 'tools/call' && m.params?.name === tool)?.params?._meta?.traceparent;
}

describe('spans of each kind of exchange (http/protobuf)', () => {
  it('a 2026-07-28 call to a modern server: SERVER and CLIENT spans in the modern era', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { m: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } });
    await modernCall(h, 'm', 1, 'echo', { text: 'modern' }, { traceparent: traceparent() });
    const spans = await traceSpans(receiver, TRACE, 2);
    const server = spans.find((s) => s.kind === SERVER)!;
    expect(server).toMatchObject({ name: 'tools/call echo', parentSpanId: CLIENT_SPAN });
    expect(server.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'mcp.protocol.version': MODERN, 'patchbay.era.client': 'modern', 'patchbay.era.server': 'modern', 'patchbay.bridged': false, 'jsonrpc.request.id': '1' });
    expect(server.attributes['mcp.session.id']).toBeUndefined();
    const [client] = childOf(spans, server);
    expect(client).toMatchObject({ name: 'tools/call echo', kind: CLIENT });
    expect(client!.attributes).toMatchObject({ 'network.transport': 'pipe', 'patchbay.server': 'm' });
  });

  it('a 2026-07-28 call bridged to a 2025 server: the SERVER span, then the bridge session’s CLIENT span under it, whose context the server got', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() } });
    await modernCall(h, 'p', 1, 'echo', { text: 'bridged' }, { traceparent: traceparent() });
    const spans = await traceSpans(receiver, TRACE, 2);
    const server = spans.find((s) => s.kind === SERVER && s.parentSpanId === CLIENT_SPAN)!;
    expect(server.attributes).toMatchObject({ 'patchbay.era.client': 'modern', 'patchbay.era.server': 'legacy', 'patchbay.bridged': true });
    const [bridge] = childOf(spans, server);
    expect(bridge).toMatchObject({ name: 'tools/call echo', kind: CLIENT });
    expect(bridge!.attributes).toMatchObject({ 'network.transport': 'pipe', 'patchbay.era.client': 'legacy', 'patchbay.era.server': 'legacy' });
    // Nothing else claims the SERVER span as a parent, and the bridge's own SERVER id is nowhere.
    expect(spans.filter((s) => s.kind === SERVER)).toHaveLength(1);
    const dumped = (await modernCall(h, 'p', 2, 'dump_input', {}, {})) as { content: Array<{ text: string }> };
    expect(traceparentIn(dumped.content[0]!.text, 'echo')).toBe(`00-${TRACE}-${bridge!.spanId}-01`);
  });

  it('a profile: each call’s SERVER span has the CLIENT span of the member it reached (two members, two calls)', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { a: probeServer(), b: probeServer() }, config: { profiles: { pair: { servers: ['a', 'b'] } } } });
    const client = await connect(h, '@pair');
    await client.callTool('a__echo', { text: 'to a' }, { traceparent: traceparent() });
    await client.callTool('b__echo', { text: 'to b' }, { traceparent: traceparent() });
    const spans = await traceSpans(receiver, TRACE, 4);
    const servers = spans.filter((s) => s.kind === SERVER);
    expect(servers.map((s) => s.name).sort()).toEqual(['tools/call a__echo', 'tools/call b__echo']);
    for (const server of servers) {
      expect(server.parentSpanId).toBe(CLIENT_SPAN);
      expect(server.attributes).toMatchObject({ 'patchbay.profile': '@pair', 'patchbay.server': '@pair', 'gen_ai.tool.name': server.name.slice('tools/call '.length) });
      const members = childOf(spans, server);
      expect(members).toHaveLength(1);
      const member = server.name.endsWith('a__echo') ? 'a' : 'b';
      expect(members[0]).toMatchObject({ name: 'tools/call echo', kind: CLIENT });
      expect(members[0]!.attributes).toMatchObject({ 'patchbay.server': member, 'patchbay.profile': '@pair', 'gen_ai.tool.name': 'echo', 'network.transport': 'pipe' });
    }
  });

  it('a tool error is `tool_error`, a JSON-RPC error its code; both spans say ERROR', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { e: everythingServer(), p: probeServer() } });
    const e = await connect(h, 'e');
    await e.callTool('test_error_handling', {}, { traceparent: traceparent(TRACE, '1111111111111111') });
    const p = await connect(h, 'p');
    await p.callTool('nope', {}, { traceparent: traceparent(TRACE, '2222222222222222') });
    const spans = await traceSpans(receiver, TRACE, 4);
    const toolError = spans.filter((s) => s.name === 'tools/call test_error_handling');
    expect(toolError.map((s) => s.kind).sort()).toEqual([SERVER, CLIENT]);
    for (const s of toolError) {
      expect(s.attributes['error.type']).toBe('tool_error');
      expect(s.attributes['rpc.response.status_code']).toBeUndefined();
      // The tool's text is content: not the status description unless content capture is on.
      expect(s.status).toEqual({ code: STATUS_ERROR });
    }
    const rpcError = spans.filter((s) => s.name === 'tools/call nope');
    expect(rpcError.map((s) => s.kind).sort()).toEqual([SERVER, CLIENT]);
    for (const s of rpcError) {
      expect(s.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
      expect(s.status).toEqual({ code: STATUS_ERROR, message: 'unknown tool nope' });
    }
  });

  it('a cancelled call, and progress: span events as the inspector’s timeline shows them', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() } });
    const client: TestClient = await connect(h, 'p');
    await client.callTool('slow_progress', { steps: 3, intervalMs: 20 }, { traceparent: traceparent(TRACE, '3333333333333333'), progressToken: 'tok' });
    const pending = await client.post({ jsonrpc: '2.0', id: 'hang-1', method: 'tools/call', params: { name: 'hang', arguments: {}, _meta: { traceparent: traceparent(TRACE, '4444444444444444') } } });
    await waitFor(async () => (await client.tool('dump_input')).includes('hang-1'), 'the hang call reached the server');
    await client.notify('notifications/cancelled', { requestId: 'hang-1', reason: 'the user gave up' });
    await pending.body?.cancel();

    const progress = await spanNamed(receiver, 'tools/call slow_progress', CLIENT);
    expect(progress.events.map((e) => e.name)).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress']);
    expect(progress.events.map((e) => e.attributes)).toEqual([1, 2, 3].map((n) => ({ 'patchbay.progress': n, 'patchbay.progress.total': 3 })));
    expect(progress.events.every((e) => e.timeNs >= progress.startNs && e.timeNs <= progress.endNs)).toBe(true);
    const cancelled = await spanNamed(receiver, 'tools/call hang', SERVER);
    expect(cancelled.attributes['error.type']).toBe('cancelled');
    expect(cancelled.status.code).toBe(STATUS_ERROR);
    const cancelledClient = await spanNamed(receiver, 'tools/call hang', CLIENT);
    expect(cancelledClient.events.map((e) => e.name)).toContain('notifications/cancelled');
    // The reason is the client's words (content): not exported without content capture.
    expect(JSON.stringify(receiver.spans.map((s) => s.events.map((e) => e.attributes)))).not.toContain('the user gave up');
  });

  it('a sampling request the server made during a call is an event on that call’s span', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { e: everythingServer() } });
    const client = new LegacyClient({ name: 'legacy-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'sampled' } }));
    await client.connect(new LegacyHttpTransport(new URL(h.mcpUrl('e')), { requestInit: { headers: h.authHeader() } }));
    await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    await client.close();
    const span = await spanNamed(receiver, 'tools/call test_sampling', CLIENT);
    const nested = span.events.find((e) => e.name === 'sampling/createMessage');
    expect(nested?.attributes).toMatchObject({ 'mcp.method.name': 'sampling/createMessage', 'patchbay.status': 'ok' });
    expect(nested!.timeNs >= span.startNs && nested!.timeNs <= span.endNs).toBe(true);
  });

  it('an input_required round (a 2026 client of a 2025 server asking elicitation) is an event on the SERVER span; the elicitation on the bridge’s CLIENT span', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { e: everythingServer() } });
    const client = new ModernClient({ name: 'modern-client', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { username: 'grace', email: 'grace@example.com' } }));
    await client.connect(new ModernHttpTransport(new URL(h.mcpUrl('e')), { requestInit: { headers: h.authHeader() } }));
    await client.callTool({ name: 'test_elicitation', arguments: { message: 'who are you?' } });
    await client.close();
    const server = await spanNamed(receiver, 'tools/call test_elicitation', SERVER, (s) => s.events.length > 0);
    expect(server.attributes).toMatchObject({ 'patchbay.era.client': 'modern', 'patchbay.bridged': true });
    const round = server.events.find((e) => e.name === 'input_required');
    expect(round?.attributes).toMatchObject({ 'patchbay.input.round': 1, 'patchbay.input.methods': ['elicitation/create'], 'patchbay.input.retried': true });
    const bridge = await spanNamed(receiver, 'tools/call test_elicitation', CLIENT, (s) => s.parentSpanId === server.spanId);
    expect(bridge.traceId).toBe(server.traceId);
    expect(bridge.events.map((e) => e.name)).toContain('elicitation/create');
  });
});
