/**
 * Remote Streamable HTTP upstreams through the hub (issue 3, part 1): the hub's /mcp/<server>
 * passes through to a real SDK server on loopback, one upstream session per downstream session.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, setLogSink, type LogRecord } from '../../src/main/core/log/logger.js';
import { createRemoteUpstream } from '../../src/main/core/upstream/remote-connect.js';
import { createRemoteFetch } from '../../src/main/core/upstream/remote-fetch.js';
import type { UpstreamHttpExchange } from '../../src/main/core/upstream/upstream.js';
import { onCleanup } from '../helpers/cleanup.js';
import { toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { parseSse } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { withTimeout } from '../helpers/waits.js';
import { headerOf, REMOTE_HTTP_SERVER, startFixture, startRemoteHub, type RecordedRequest } from './remote-harness.js';

const API_KEY = 'sk-remote-test-0123456789abcdef';

function captureLogs(): LogRecord[] {
  const records: LogRecord[] = [];
  setLogSink((r) => records.push(r));
  onCleanup(() => setLogSink(undefined));
  return records;
}

describe('remote Streamable HTTP upstream', () => {
  it('sends the configured API-key header upstream (secret resolved), never the downstream Authorization, and never shows the key downstream', async () => {
    const logs = captureLogs();
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const hub = await startRemoteHub({
      servers: { api: { type: 'http', url: remote.url, headers: { 'X-API-Key': '${secret:REMOTE_KEY}' } } },
      secrets: { REMOTE_KEY: API_KEY },
    });
    const client = await connect(hub, 'api');
    const downstream: string[] = [JSON.stringify(client.initializeResult), JSON.stringify([...client.initializeResponse!.headers])];
    const call = await client.callTool('echo', { text: 'hello remote' });
    expect(toolText(call.response)).toBe('hello remote');
    downstream.push(JSON.stringify(call.messages), JSON.stringify([...call.http.headers]));
    const list = await client.request('tools/list');
    downstream.push(JSON.stringify(list.messages));

    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    const mcp = seen.filter((r) => r.path === '/mcp');
    expect(mcp.length).toBeGreaterThanOrEqual(4); // initialize, initialized, GET stream, tools/call, tools/list
    for (const r of mcp) {
      expect(headerOf(r, 'x-api-key')).toBe(API_KEY);
      // P27: the hub token the client sent is not passed on.
      expect(headerOf(r, 'authorization')).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain(hub.token!);
    }
    for (const text of downstream) expect(text).not.toContain(API_KEY);
    for (const r of logs) expect(JSON.stringify(r)).not.toContain(API_KEY);
  });

  it('a wrong API key is reported as refused credentials, naming the server', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const hub = await startRemoteHub({ servers: { api: { url: remote.url, headers: { 'X-API-Key': 'wrong' } } } });
    const res = await fetch(hub.mcpUrl('api'), {
      method: 'POST',
      headers: { ...hub.authHeader(), Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    const body = (await res.json()) as JsonRpcMessage;
    expect(body.error?.message).toMatch(/server 'api' answered HTTP 401/);
    expect(body.error?.data).toMatchObject({ server: 'api', cause: 'http', status: 401 });
  });

  it('sends the negotiated protocol version on later requests (P22) and DELETEs the upstream session with the downstream one', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    await client.tool('echo', { text: 'x' });
    const del = await client.delete();
    expect(del.status).toBeLessThan(300);
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    // A 2025 client's session is never preceded by a modern probe: its own initialize tells the
    // hub the server speaks the 2025 era (PROTOCOL Q11).
    expect(seen.filter((r) => (r.rpc ?? []).includes('server/discover'))).toHaveLength(0);
    const after = seen.filter((r) => r.path === '/mcp' && !(r.rpc ?? []).includes('initialize') && !(r.rpc ?? []).includes('server/discover'));
    for (const r of after) expect(headerOf(r, 'mcp-protocol-version')).toBe(client.protocolVersion);
    expect(after.some((r) => r.method === 'DELETE' && headerOf(r, 'mcp-session-id'))).toBe(true);
  });

  it('one upstream session per downstream session', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const a = await connect(hub, 'r');
    const b = await connect(hub, 'r');
    await a.tool('echo', { text: 'a' });
    await b.tool('echo', { text: 'b' });
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    const ids = new Set(seen.filter((r) => (r.rpc ?? []).includes('tools/call')).map((r) => headerOf(r, 'mcp-session-id')));
    expect(ids.size).toBe(2);
  });

  it('opens the upstream GET stream after initialized: server-initiated messages reach the client', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    const stream = await client.get();
    expect(stream.status).toBe(200);
    await client.tool('notify_later');
    const events = parseSse(stream.body!)[Symbol.asyncIterator]();
    const note = await withTimeout(
      (async () => {
        for (;;) {
          const item = await events.next();
          if (item.done) throw new Error('stream ended');
          if (item.value.kind === 'event' && item.value.data.includes('list_changed')) return JSON.parse(item.value.data) as JsonRpcMessage;
        }
      })(),
      10_000,
      'tools/list_changed on the GET stream',
    );
    expect(note.method).toBe('notifications/tools/list_changed');
  });

  it('resumes an upstream SSE stream with Last-Event-ID after the server closes it (P12)', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    expect(await client.tool('close_stream')).toBe('answered after the stream was closed');
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.some((r) => r.method === 'GET' && headerOf(r, 'last-event-id'))).toBe(true);
  });

  it('progress notifications reset the per-server request timeout', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url, requestTimeoutMs: 700 } } });
    const client = await connect(hub, 'r');
    const outcome = await client.callTool('progress', { steps: 6, intervalMs: 300 }, { progressToken: 'p1' });
    expect(toolText(outcome.response)).toBe('done after 6 steps');
    expect(outcome.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(6);
  });

  it('a request past the timeout gets an error and notifications/cancelled goes upstream', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url, requestTimeoutMs: 500 } } });
    const client = await connect(hub, 'r');
    // The tool would answer after 20 s; the hub's 500 ms deadline answers first, with its own error.
    const outcome = await client.callTool('sleep', { ms: 20_000 });
    expect(outcome.response.error?.message).toMatch(/timed out.*server 'r'/);
    const res = await client.post({ jsonrpc: '2.0', id: 99, method: 'tools/list', params: {} });
    expect((await messagesOfResponse(res)).messages[0]?.result).toBeDefined();
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.some((r) => (r.rpc ?? []).includes('notifications/cancelled'))).toBe(true);
  });

  it('reports each HTTP exchange for the inspector, with credentials masked', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const config = { url: `${remote.url}?key=in-query`, headers: { 'X-API-Key': API_KEY } };
    const upstream = createRemoteUpstream('r', config, config, { fetch: createRemoteFetch({}), logger: createLogger('test') });
    onCleanup(() => upstream.close());
    const exchanges: UpstreamHttpExchange[] = [];
    upstream.onevent = (event) => {
      if (event.type === 'http') exchanges.push(event.exchange);
    };
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      upstream.onmessage = (m) => resolve(m as JsonRpcMessage);
    });
    upstream.send({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    expect((await withTimeout(answered, 10_000, 'initialize')).result).toBeDefined();
    expect(exchanges[0]).toMatchObject({ method: 'POST', url: remote.url, status: 200, ids: [7] });
    expect(exchanges[0]!.requestHeaders!['x-api-key']).toBe('[redacted]');
    expect(JSON.stringify(exchanges)).not.toContain(API_KEY);
    expect(JSON.stringify(exchanges)).not.toContain('in-query');
  });
});
