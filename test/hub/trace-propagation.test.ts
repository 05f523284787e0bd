/**
 * Trace context through the hub (issue 23, SEP-414), with a tracer set as telemetry sets one: the
 * hub's span for a client's request continues the client's `traceparent` (from `_meta`), and what
 * reaches the server names the hub's CLIENT span — on a 2025 session, a 2026-07-28 call bridged
 * to a 2025 server (the bridge's session makes the CLIENT span, under the call's span), and a
 * profile (one CLIENT span per member reached, under the profile's span). The ids reach the
 * inspector's exchanges. Real processes (the probe fixture, whose `dump_input` tool returns every
 * line it read) and real HTTP on loopback; the tracer is the hub's own `traceFor` with every
 * trace sampled, recording what it made.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/shared/api/inspector-contract.js';
import { traceFor, type RequestTracer, type TraceContext } from '../../src/main/core/hub/tracing.js';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { REMOTE_HTTP_SERVER, startFixture } from '../remote/remote-harness.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const PARENT = `00-${TRACE}-${CLIENT_SPAN}-01`;

function recordingTracer(): { tracer: RequestTracer; made: TraceContext[] } {
  const made: TraceContext[] = [];
  return {
    made,
    tracer: {
      begin: (incoming, options) => {
        const ctx = traceFor(incoming, { ...options, sample: () => true });
        made.push(ctx);
        return ctx;
      },
    },
  };
}

/** The `_meta.traceparent` of the `tools/call` of `tool` the probe server read. */
async function receivedTraceparent(client: TestClient, tool: string): Promise<string | undefined> {
  const lines = JSON.parse(await client.tool('dump_input')) as string[];
  const call = lines.map((l) => JSON.parse(l) as { method?: string; params?: { name?: string; _meta?: { traceparent?: string } } }).find((m) => m.method === 'tools/call' && m.params?.name === tool);
  return call?.params?._meta?.traceparent;
}

async function exchangesOf(h: TestHub, server: string, method: string): Promise<Exchange[]> {
  return waitFor(async () => {
    const sessions = (await apiCall<{ sessions: Array<{ id: string; server: string }> }>(h, 'inspector.sessions.list', { limit: 100 })).value!.sessions.filter((s) => s.server === server);
    const out: Exchange[] = [];
    for (const s of sessions) out.push(...(await apiCall<{ exchanges: Exchange[] }>(h, 'inspector.exchanges.list', { session: s.id, limit: 100 })).value!.exchanges.filter((x) => x.method === method && x.trace));
    return out.length > 0 ? out : undefined;
  }, `traced ${method} exchanges of '${server}'`);
}

describe('trace context through the hub (SEP-414)', () => {
  it('a 2025 session: the hub continues the client’s trace, and the server gets the hub’s CLIENT span', async () => {
    const { tracer, made } = recordingTracer();
    const h = await startHub({ servers: { p: probeServer() }, engine: { tracer } });
    const client = await connect(h, 'p');
    await client.callTool('echo', { text: 'traced' }, { traceparent: PARENT, tracestate: 'vendor=1' });
    const ctx = made.find((c) => c.parentSpanId === CLIENT_SPAN)!;
    expect(ctx).toMatchObject({ traceId: TRACE, sampled: true, tracestate: 'vendor=1' });
    expect(await receivedTraceparent(client, 'echo')).toBe(`00-${TRACE}-${ctx.clientSpanId}-01`);
    // A request with no traceparent starts a trace of its own.
    await client.callTool('whoami');
    expect(made.some((c) => c.traceId !== TRACE && c.parentSpanId === undefined)).toBe(true);
    const [echo] = (await exchangesOf(h, 'p', 'tools/call')).filter((x) => x.trace?.traceId === TRACE);
    expect(echo!.trace).toEqual({ traceId: TRACE, spanId: ctx.spanId });
  });

  it('a 2025 session to a remote server: the POST carries the CLIENT span as a W3C header too', async () => {
    const { tracer, made } = recordingTracer();
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const h = await startHub({ servers: { r: { url: remote.url } }, engine: { tracer } });
    const client = await connect(h, 'r');
    await client.callTool('echo', { text: 'over http' }, { traceparent: PARENT });
    const ctx = made.find((c) => c.parentSpanId === CLIENT_SPAN)!;
    const seen = await remote.debug<Array<{ rpc?: string[]; headers: Record<string, string | undefined> }>>('/_debug/requests');
    const post = seen.find((r) => (r.rpc ?? []).includes('tools/call'))!;
    expect(post.headers.traceparent).toBe(`00-${TRACE}-${ctx.clientSpanId}-01`);
  });

  it('a 2026-07-28 call bridged to a 2025 server: the bridge’s session makes the CLIENT span, under the call’s', async () => {
    const { tracer, made } = recordingTracer();
    const h = await startHub({ servers: { p: probeServer() }, engine: { tracer } });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = async (id: number, name: string, extra: Record<string, unknown> = {}): Promise<string> => {
      const res = await post(h, 'p', { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { ...meta, ...extra } } }, { headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name } });
      const { messages } = await messagesOfResponse(res);
      return ((messages.at(-1)!.result as { content: Array<{ text: string }> }).content[0]!.text);
    };
    await call(1, 'echo', { traceparent: PARENT });
    const outer = made.find((c) => c.parentSpanId === CLIENT_SPAN)!;
    expect(outer.clientSpanId).toBeUndefined();
    const hop = made.find((c) => c.parentSpanId === outer.spanId)!;
    expect(hop).toMatchObject({ traceId: TRACE });
    const lines = (JSON.parse(await call(2, 'dump_input')) as string[]).map((l) => JSON.parse(l) as { method?: string; params?: { name?: string; _meta?: Record<string, unknown> } });
    const received = lines.find((m) => m.method === 'tools/call' && m.params?.name === 'echo')!;
    expect(received.params!._meta!.traceparent).toBe(`00-${TRACE}-${hop.clientSpanId}-01`);
  });

  it('a profile: one CLIENT span per member reached, under the profile’s span', async () => {
    const { tracer, made } = recordingTracer();
    const h = await startHub({ servers: { a: probeServer(), b: probeServer() }, config: { profiles: { pair: { servers: ['a', 'b'] } } }, engine: { tracer } });
    const client = await connect(h, '@pair');
    await client.callTool('a__echo', { text: 'to a' }, { traceparent: PARENT });
    const outer = made.find((c) => c.parentSpanId === CLIENT_SPAN)!;
    expect(outer.clientSpanId).toBeUndefined();
    const member = made.find((c) => c.parentSpanId === outer.spanId)!;
    expect(member).toMatchObject({ traceId: TRACE, clientSpanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // What member a read: the forwarded call, under its own (unprefixed) name, naming the member's CLIENT span.
    const dumped = JSON.parse(await client.tool('a__dump_input')) as string[];
    const received = dumped.map((l) => JSON.parse(l) as { method?: string; params?: { name?: string; _meta?: { traceparent?: string } } }).find((m) => m.method === 'tools/call' && m.params?.name === 'echo');
    expect(received?.params?._meta?.traceparent).toBe(`00-${TRACE}-${member.clientSpanId}-01`);
  });
});
