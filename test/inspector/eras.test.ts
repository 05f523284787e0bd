/**
 * Issue 14 item 6: the inspector in both eras, over real processes and the official SDKs.
 *
 * - Modern client (SDK v2 pinned to 2026-07-28) → hub → a modern server (pass-through): one
 *   "session" per modern client, exchanges with era and Mcp-* headers, a multi-round-trip call as
 *   one exchange with its input round nested, secrets masked in the new headers too.
 * - Modern client → a legacy server (the hub's bridge): the same on the client's side, and the
 *   server's side (the legacy request with the hub's id, the server's elicitation request, the
 *   client's answer, the final result) on the same exchange.
 * - Legacy client (SDK v1) → a modern-only server: the exchange's server side in the modern era
 *   (envelope, headers, input_required, the retry), and the elicitation the hub asked the legacy
 *   client for nested under the call.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import '../helpers/cleanup.js';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';
import { startCaptureHub, type CaptureHub } from './inspector-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';
/** A secret with non-ASCII characters: the SDK sends it in `Mcp-Param-Region` as base64. */
const REGION_SECRET = 'région-sekrit-Ω-4242';
const PLAIN_SECRET = 'plain-region-sekrit-9137';

async function modernClient(hub: CaptureHub, serverId: string, name = 'modern-client'): Promise<ModernClient> {
  const client = new ModernClient({ name, version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { username: 'grace', email: 'grace@example.com' } }));
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  onCleanup(() => client.close());
  return client;
}

async function legacyClient(hub: CaptureHub, serverId: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'legacy-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { username: 'grace', email: 'grace@example.com' } }));
  await client.connect(new LegacyHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  onCleanup(() => client.close());
  return client;
}

/** The session of a server whose client has this name (waiting for the drain). */
async function sessionOf(hub: CaptureHub, server: string, client: string, era: 'legacy' | 'modern'): Promise<InspectorSession> {
  let found: InspectorSession | undefined;
  await waitFor(async () => {
    found = (await hub.sessions()).find((s) => s.server === server && s.client?.name === client && s.era === era);
    return found !== undefined;
  }, `the captured session of ${client}`);
  return found!;
}

/** The completed `tools/call` exchanges of a tool in a session. */
async function callsOf(hub: CaptureHub, session: string, tool: string): Promise<Exchange[]> {
  let calls: Exchange[] = [];
  await waitFor(async () => {
    calls = (await hub.exchanges(session, true)).filter((x) => x.method === 'tools/call' && (x.request as { params?: { name?: string } }).params?.name === tool);
    return calls.length > 0 && calls.every((x) => x.status !== 'pending');
  }, `the ${tool} exchanges of ${session}`);
  return calls;
}

describe('the inspector, a modern client → a modern server (pass-through)', () => {
  it('one session per modern client; era, Mcp-* headers, an input round nested; secrets masked in the new headers', async () => {
    const hub = await startCaptureHub({ servers: { dual: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } }, secrets: { REGION_SECRET, PLAIN_SECRET } });
    const client = await modernClient(hub, 'dual');
    const other = await modernClient(hub, 'dual', 'other-modern-client');
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    await client.callTool({ name: 'echo', arguments: { text: 'two' } });
    await other.callTool({ name: 'echo', arguments: { text: 'three' } });
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(JSON.stringify(elicited.content)).toContain('grace');
    await client.callTool({ name: 'test_x_mcp_header', arguments: { region: REGION_SECRET } });
    await client.callTool({ name: 'test_x_mcp_header', arguments: { region: PLAIN_SECRET } });

    // Sessionless traffic, grouped: one entry per modern client, named from its requests' _meta.
    const session = await sessionOf(hub, 'dual', 'modern-client', 'modern');
    await sessionOf(hub, 'dual', 'other-modern-client', 'modern');
    const mine = (await hub.sessions()).filter((s) => s.server === 'dual' && s.client?.name === 'modern-client' && s.era === 'modern');
    expect(mine).toHaveLength(1);
    expect(session).toMatchObject({ era: 'modern', protocolVersion: MODERN, client: { name: 'modern-client', version: '1.0.0' } });
    expect(session.serverEra).toBeUndefined();

    const [echo] = await callsOf(hub, session.id, 'echo');
    expect(echo).toMatchObject({ era: 'modern', status: 'ok', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-protocol-version': MODERN } });

    // The round trip is one exchange: the input_required answer and the retry are its round.
    const calls = await callsOf(hub, session.id, 'test_elicitation');
    expect(calls).toHaveLength(1);
    const x = calls[0]!;
    expect(x.status).toBe('ok');
    expect(x.rounds).toHaveLength(1);
    const round = x.rounds![0]!;
    expect(round.requests.map((r) => r.method)).toEqual(['elicitation/create']);
    expect(round.retrySeq).toBeGreaterThan(round.seq);
    expect(round.answered).toEqual(round.requests.map((r) => r.key));
    expect(round.retryId).not.toBe(x.requestId);
    expect(JSON.stringify(x.roundMessages![0]!.inputRequired)).toContain('input_required');
    expect(JSON.stringify(x.roundMessages![0]!.retry)).toContain('inputResponses');
    expect(JSON.stringify(x.response)).toContain('grace');
    expect(x.latencyMs).toBeGreaterThanOrEqual(0);
    expect(x.bridge).toBeUndefined();

    // The new headers are redacted like the rest: plain and base64-encoded secrets alike.
    const headerCalls = await callsOf(hub, session.id, 'test_x_mcp_header');
    expect(headerCalls).toHaveLength(2);
    for (const h of headerCalls) expect(h.headers?.['mcp-param-region']).toMatch(/^\[(secret:[^\]]+|redacted)\]$/);
    const everything = JSON.stringify([await hub.events(session.id), await hub.exchanges(session.id, true)]);
    expect(everything).not.toContain(PLAIN_SECRET);
    expect(everything).not.toContain(REGION_SECRET);
    expect(everything).not.toContain(Buffer.from(REGION_SECRET).toString('base64'));
    expect(everything).not.toContain(hub.token!);
  });
});

describe('the inspector, a modern client → a legacy server (the hub bridges)', () => {
  it("the exchange shows the client's side and the server's (the legacy request, its elicitation, the answer)", async () => {
    const hub = await startCaptureHub({ servers: { legacy: everythingServer() } });
    const client = await modernClient(hub, 'legacy');
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Your name?' } });
    expect(JSON.stringify(elicited.content)).toContain('grace');

    const session = await sessionOf(hub, 'legacy', 'modern-client', 'modern');
    expect(session).toMatchObject({ era: 'modern', serverEra: 'legacy' });
    const calls = await callsOf(hub, session.id, 'test_elicitation');
    expect(calls).toHaveLength(1);
    const x = calls[0]!;
    expect(x).toMatchObject({ era: 'modern', status: 'ok', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'test_elicitation' }, bridge: { era: 'legacy' } });
    expect(x.rounds).toHaveLength(1);
    expect(x.rounds![0]!.retrySeq).toBeDefined();
    expect(x.upstreamLatencyMs).toBeGreaterThanOrEqual(0);

    // The server's side, in its own era: no modern envelope, the hub's id, its request for input.
    const server = x.serverMessages!;
    const first = server[0]!.message as { id: unknown; method: string; params: { _meta?: Record<string, unknown> } };
    expect(server[0]!.direction).toBe('to-server');
    expect(first.method).toBe('tools/call');
    expect(first.id).not.toBe(x.requestId);
    expect(JSON.stringify(first.params._meta ?? {})).not.toContain('protocolVersion');
    const methods = server.map((m) => `${m.direction} ${(m.message as { method?: string }).method ?? 'answer'}`);
    expect(methods).toEqual(['to-server tools/call', 'to-client elicitation/create', 'to-server answer', 'to-client answer']);
    expect(JSON.stringify(server[3]!.message)).toContain('grace');
    // The client's side keeps the modern request as the client sent it.
    expect(JSON.stringify(x.request)).toContain('io.modelcontextprotocol/protocolVersion');
  });
});

describe('the inspector, a legacy client → a modern-only server (the hub bridges)', () => {
  it("the server's side in the modern era, its input round, and the elicitation nested under the call", async () => {
    const hub = await startCaptureHub({ servers: { modern: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } });
    const client = await legacyClient(hub, 'modern');
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
    expect(JSON.stringify(elicited.content)).toContain('grace');

    const session = await sessionOf(hub, 'modern', 'legacy-client', 'legacy');
    expect(session).toMatchObject({ era: 'legacy', serverEra: 'modern' });
    const calls = await callsOf(hub, session.id, 'test_elicitation');
    expect(calls).toHaveLength(1);
    const x = calls[0]!;
    expect(x).toMatchObject({ era: 'legacy', status: 'ok', bridge: { era: 'modern' } });
    expect(x.headers).toBeUndefined();
    expect(x.rounds).toHaveLength(1);
    expect(x.rounds![0]!.requests.map((r) => r.method)).toEqual(['elicitation/create']);
    expect(x.rounds![0]!.retrySeq).toBeDefined();

    const server = x.serverMessages!;
    expect(server[0]).toMatchObject({ direction: 'to-server', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'test_elicitation' } });
    expect(JSON.stringify(server[0]!.message)).toContain('io.modelcontextprotocol/protocolVersion');
    expect(JSON.stringify(server[1]!.message)).toContain('input_required');
    expect(JSON.stringify(server[2]!.message)).toContain('inputResponses');
    expect(server).toHaveLength(4);

    // The elicitation the hub asked the legacy client for belongs to the call.
    const all = await hub.exchanges(session.id);
    const asked = all.filter((e) => e.method === 'elicitation/create');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ requester: 'server', status: 'ok', parent: x.id });
  });
});
