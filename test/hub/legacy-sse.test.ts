/**
 * PROTOCOL P33: the hub's 2024-11-05 HTTP+SSE door for old clients. `GET /sse/<server>` opens a
 * session whose first event names `/messages/<server>?sessionId=…`; POSTs there are answered 202
 * and their answers come as `message` events on the stream. Behind it the hub's usual sessions:
 * the same guards as /mcp, observed by the inspector (client transport `sse`), ended with the
 * stream. Real processes and real HTTP on loopback: the SDK v1 SSE client (the one old clients
 * use), and raw HTTP where the wire itself is the point.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { apiCall } from '../helpers/hub-api.js';
import { initializeRequest, LATEST, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { ACCEPT_BOTH } from '../helpers/mcp-http.js';
import { isAlive } from '../helpers/processes.js';
import { rawRequest, rawStream } from '../helpers/raw-http.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import type { SseReader } from '../helpers/sse.js';
import { startHub, type HubOptions, type TestHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const WATCHED = 'test://watched-resource';

function hub(extra: Partial<HubOptions> = {}): Promise<TestHub> {
  return startHub({ servers: { fx: everythingServer(), other: everythingServer() }, ...extra });
}

/** The text blocks of a tools/call result, joined. */
function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');
}

/** An SDK v1 client over its legacy SSE transport, with elicitation and sampling handlers. */
async function sseClient(h: TestHub, path: string): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: 'old-sse-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'a sampled answer' } };
  });
  await client.connect(new SSEClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: h.authHeader() } }));
  return { client, asked };
}

interface RawSession {
  reader: SseReader;
  /** As the `endpoint` event said it. */
  endpoint: string;
  sessionId: string;
  close(): void;
}

/** `GET <path>` with node:http; checks the `endpoint` event comes first. */
async function openStream(h: TestHub, path = '/sse/fx'): Promise<RawSession> {
  const { res, reader, close } = await rawStream({ port: h.port, path, headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream');
  const first = await reader.nextEvent();
  expect(first).toMatchObject({ kind: 'event', event: 'endpoint' });
  const endpoint = first!.data;
  return { reader, endpoint, sessionId: new URL(endpoint, h.url).searchParams.get('sessionId')!, close };
}

function postTo(h: TestHub, endpoint: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(endpoint, h.url), {
    method: 'POST',
    headers: { ...h.authHeader(), 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function errorOf(res: Response): Promise<{ code: number; message: string }> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as JsonRpcMessage;
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
  return body.error!;
}

/** initialize + notifications/initialized over the raw door; returns the initialize answer. */
async function initialize(h: TestHub, s: RawSession, protocolVersion = '2024-11-05'): Promise<JsonRpcMessage> {
  const res = await postTo(h, s.endpoint, initializeRequest(0, protocolVersion));
  expect(res.status).toBe(202);
  await res.text();
  const answer = await s.reader.nextMessage();
  expect(answer?.message).toMatchObject({ id: 0, result: { protocolVersion } });
  const note = await postTo(h, s.endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(note.status).toBe(202);
  await note.text();
  return answer!.message;
}

describe('P33: the legacy HTTP+SSE door', () => {
  it('an SDK v1 SSE client: initialize, tools, a notification, elicitation and sampling; the inspector sees an `sse` session; closing ends it', async () => {
    const h = await hub();
    const { client, asked } = await sseClient(h, '/sse/fx');
    expect(client.getServerVersion()?.name).toBe('patchbay-everything-fixture');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'test_elicitation', 'test_sampling', 'touch_watched']));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'through the old door' } }))).toBe('through the old door');
    const pid = Number(textOf(await client.callTool({ name: 'whoami', arguments: {} })));

    // A notification from the server, on the event stream.
    const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    await client.subscribeResource({ uri: WATCHED });
    expect(textOf(await client.callTool({ name: 'touch_watched', arguments: {} }))).toBe('updated');
    expect(await withTimeout(updated, 10_000, 'notifications/resources/updated')).toBe(WATCHED);

    // Server→client requests during a call, answered by POSTs of responses.
    expect(textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } }))).toContain('ada');
    expect(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } }))).toContain('a sampled answer');
    expect(asked).toEqual(['elicitation: Who are you?', 'sampling']);

    const captured = await waitFor(async () => {
      const answer = await apiCall<{ sessions: InspectorSession[] }>(h, 'inspector.sessions.list', { limit: 100 });
      return answer.value?.sessions.find((s) => s.server === 'fx' && s.exchanges.ok >= 7);
    }, 'the session in the inspector');
    expect(captured).toMatchObject({ transport: { client: 'sse', upstream: 'stdio' }, client: { name: 'old-sse-client' }, state: 'live' });
    expect(h.engine.hub.sessionCounts().get('fx')).toBe(1);

    await client.close();
    // The stream closed: the session and its child are gone.
    await waitFor(() => h.engine.hub.sessions.size === 0, 'the session to end');
    await waitFor(() => !isAlive(pid), 'the session child to exit');
  });

  it('on the wire: the endpoint event first (relative, no ids), 202 for every POST, answers as message events', async () => {
    const h = await hub();
    const s = await openStream(h);
    expect(s.endpoint).toMatch(/^\/messages\/fx\?sessionId=[A-Za-z0-9_-]{22,}$/);
    // 2025-11-25 sessions get priming events on /mcp; an empty event would break a legacy client.
    const answer = await initialize(h, s, LATEST);
    expect(answer).toMatchObject({ jsonrpc: '2.0', result: { serverInfo: { name: 'patchbay-everything-fixture' } } });

    // A batch of two requests: both answered on the stream.
    const res = await postTo(h, s.endpoint, [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('Accepted');
    const got = [(await s.reader.nextMessage())!, (await s.reader.nextMessage())!];
    expect(got.map((g) => g.message.id).sort()).toEqual([1, 2]);
    for (const g of got) expect(g.event).toMatchObject({ event: 'message', id: undefined });
    expect(JSON.stringify(got.find((g) => g.message.id === 1)!.message)).toContain('one');
    // No priming events (ids with empty data) came.
    expect(s.reader.seen.filter((i) => i.kind === 'event' && (i.data.trim() === '' || i.id !== undefined))).toEqual([]);
  });

  it('keeps an idle stream alive with comments (P13)', async () => {
    const h = await hub({ keepAliveMs: 50, tickMs: 20 });
    const s = await openStream(h);
    await initialize(h, s);
    for (;;) {
      const item = await s.reader.next();
      expect(item).toBeDefined();
      if (item!.kind === 'comment') {
        expect(item!.text).toBe('keepalive');
        break;
      }
    }
  });

  it('closing the stream ends the session: its child exits, and a later POST gets 404 naming why', async () => {
    const h = await hub();
    const s = await openStream(h);
    await initialize(h, s);
    const res = await postTo(h, s.endpoint, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    expect(res.status).toBe(202);
    const pid = Number(textOf((await s.reader.nextMessage())!.message.result));
    expect(isAlive(pid)).toBe(true);
    s.close();
    await waitFor(() => h.engine.hub.sessions.size === 0, 'the session to end');
    await waitFor(() => !isAlive(pid), 'the child to exit');
    const late = await postTo(h, s.endpoint, { jsonrpc: '2.0', id: 6, method: 'ping' });
    expect(late.status).toBe(404);
    expect(await errorOf(late)).toMatchObject({ code: -32001, message: expect.stringMatching(/^Session not found: .*ended when its event stream closed/) });
  });

  it('the guards of /mcp: token, Origin, Host, body size, JSON, sessions', async () => {
    const h = await hub({ hub: { maxBodyBytes: 2048, maxSessions: 2 } });
    // No token (P25): refused before anything else is said, on both routes.
    for (const [path, method] of [
      ['/sse/fx', 'GET'],
      ['/messages/fx?sessionId=x', 'POST'],
    ] as const) {
      const res = await fetch(`${h.url}${path}`, { method, headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await errorOf(res)).code).toBe(-32001);
    }
    // Origin and Host (P23).
    const badOrigin = await fetch(`${h.url}/sse/fx`, { headers: { ...h.authHeader(), Accept: 'text/event-stream', Origin: 'http://evil.example' } });
    expect(badOrigin.status).toBe(403);
    await errorOf(badOrigin);
    const badHost = await rawRequest({ port: h.port, path: '/sse/fx', headers: { ...h.authHeader(), Host: `evil.example:${h.port}`, Accept: 'text/event-stream' } });
    expect(badHost.status).toBe(403);
    // Methods and unknown servers.
    expect((await fetch(`${h.url}/sse/fx`, { method: 'POST', headers: h.authHeader() })).status).toBe(405);
    expect((await fetch(`${h.url}/messages/fx`, { headers: h.authHeader() })).status).toBe(405);
    const unknown = await fetch(`${h.url}/sse/nope`, { headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toMatch(/no server 'nope'/);

    const s = await openStream(h);
    // Requests before initialize are refused; then the session works.
    const early = await postTo(h, s.endpoint, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(early.status).toBe(400);
    expect((await errorOf(early)).message).toMatch(/not initialized/);
    await initialize(h, s);
    const again = await postTo(h, s.endpoint, initializeRequest(9, '2024-11-05'));
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toMatch(/already initialized/);

    // Session ids: missing, unknown, another server's, and this door's id at /mcp.
    const missing = await postTo(h, '/messages/fx', { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ code: -32001, message: expect.stringMatching(/sessionId query parameter is missing/) });
    const unknownId = await postTo(h, '/messages/fx?sessionId=not-a-session', { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(unknownId.status).toBe(404);
    expect((await errorOf(unknownId)).message).toMatch(/no session 'not-a-session'/);
    const otherServer = await postTo(h, `/messages/other?sessionId=${s.sessionId}`, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(otherServer.status).toBe(404);
    expect((await errorOf(otherServer)).message).toMatch(/not a session of this endpoint/);
    const atMcp = await fetch(h.mcpUrl('fx'), {
      method: 'POST',
      headers: { ...h.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', 'Mcp-Session-Id': s.sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(atMcp.status).toBe(404);

    // Bodies (P7, P8).
    const malformed = await postTo(h, s.endpoint, '{"jsonrpc": "2.0", ');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).code).toBe(-32700);
    const notRpc = await postTo(h, s.endpoint, { foo: 1 });
    expect(notRpc.status).toBe(400);
    expect((await errorOf(notRpc)).code).toBe(-32600);
    const wrongType = await postTo(h, s.endpoint, '{}', { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    const big = await postTo(h, s.endpoint, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(4096) } } });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).message).toMatch(/2048-byte limit/);
    const deep = await postTo(h, s.endpoint, `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":${'['.repeat(600)}${']'.repeat(600)}}}`);
    expect(deep.status).toBe(400);
    expect((await errorOf(deep)).message).toMatch(/deeper than 512 levels/);

    // The session still works after all that.
    const ok = await postTo(h, s.endpoint, { jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(ok.status).toBe(202);
    expect((await s.reader.nextMessage())?.message).toMatchObject({ id: 7, result: {} });

    // maxSessions counts this door's sessions with the others.
    await openStream(h);
    const third = await fetch(`${h.url}/sse/fx`, { headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
    expect(third.status).toBe(503);
    await errorOf(third);
  });

  it('an SDK v1 SSE client reaches a modern-only (2026-07-28) server through the bridge', async () => {
    const h = await startHub({ servers: { modern: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } });
    const { client } = await sseClient(h, '/sse/modern');
    expect(client.getServerVersion()?.name).toBe('patchbay-dual-era-fixture');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old client, new server' } }))).toBe('old client, new server');
    expect(textOf(await client.callTool({ name: 'era', arguments: {} }))).toBe('modern');
    await client.close();
  });

  it('profiles: /sse is the default profile and /sse/@name a named one, as /mcp and /mcp/@name', async () => {
    const h = await hub({ config: { profiles: { work: { servers: ['fx'] } } } });
    for (const [sse, mcp] of [
      ['/sse', '/mcp'],
      ['/sse/@work', '/mcp/@work'],
    ] as const) {
      const { client } = await sseClient(h, sse);
      const modern = new Client({ name: 'streamable-client', version: '1.0.0' });
      await modern.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${mcp}`), { requestInit: { headers: h.authHeader() } }));
      const viaSse = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(viaSse.length).toBeGreaterThan(0);
      expect(viaSse).toEqual((await modern.listTools()).tools.map((t) => t.name).sort());
      await Promise.all([client.close(), modern.close()]);
    }
    const nope = await fetch(`${h.url}/sse/@nope`, { headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
    expect(nope.status).toBe(404);
    expect((await errorOf(nope)).message).toMatch(/no profile 'nope'/);
  });
});
