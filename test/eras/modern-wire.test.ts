/**
 * The 2026-07-28 wire as a modern client sees it through the hub's bridge to a legacy server
 * (PROTOCOL Q1, Q6, Q8), checked on raw HTTP: `server/discover` from the server's `initialize`,
 * no session issued, `resultType` on every result, cache hints on list and read results, and
 * log messages only as each request's own `_meta` log level asks.
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import type { JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { messagesOf, SseReader } from '../helpers/sse.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const MODERN = '2026-07-28';

function modern(h: TestHub, id: number, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<Response> {
  const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {}, ...meta } },
  };
  return post(h, 'legacy', body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}) } });
}

async function all(res: Response): Promise<JsonRpcMessage[]> {
  expect(res.headers.get('mcp-session-id')).toBeNull();
  return (await messagesOfResponse(res)).messages;
}

describe('the modern wire, bridged to a legacy server', () => {
  it('server/discover is answered from the legacy initialize; results carry resultType and cache hints', async () => {
    const h = await startHub({ servers: { legacy: everythingServer() } });
    const [discover] = await all(await modern(h, 1, 'server/discover'));
    expect(discover).toMatchObject({
      id: 1,
      result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'patchbay-everything-fixture' } }, capabilities: { tools: {} }, supportedVersions: expect.arrayContaining([MODERN]) },
    });

    for (const [method, params] of [
      ['tools/list', {}],
      ['resources/list', {}],
      ['prompts/list', {}],
      ['resources/read', { uri: 'test://static-text' }],
    ] as const) {
      const messages = await all(await modern(h, 2, method, params));
      expect(messages.at(-1), method).toMatchObject({ id: 2, result: { resultType: 'complete', ttlMs: expect.any(Number), cacheScope: expect.stringMatching(/^(public|private)$/) } });
    }
    const called = await all(await modern(h, 3, 'tools/call', { name: 'echo', arguments: { text: 'z' } }));
    expect(called.at(-1)).toMatchObject({ id: 3, result: { resultType: 'complete', content: [{ text: 'z' }] } });
  });

  it('log messages only at or above the level a request asks for, and none when it asks for none', async () => {
    const h = await startHub({ servers: { legacy: everythingServer() } });
    const logs = (messages: JsonRpcMessage[]): unknown[] => messages.filter((m) => m.method === 'notifications/message').map((m) => (m.params as { data?: unknown }).data);
    const call = { name: 'test_tool_with_logging', arguments: {} };

    const none = await all(await modern(h, 1, 'tools/call', call));
    expect(none.at(-1)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    expect(logs(none)).toEqual([]);

    const info = await all(await modern(h, 2, 'tools/call', call, { 'io.modelcontextprotocol/logLevel': 'info' }));
    expect(logs(info)).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);

    // The session below now logs at info; a request that wants errors only still gets none.
    const errors = await all(await modern(h, 3, 'tools/call', call, { 'io.modelcontextprotocol/logLevel': 'error' }));
    expect(errors.at(-1)).toMatchObject({ id: 3, result: { resultType: 'complete' } });
    expect(logs(errors)).toEqual([]);
  });

  it('a subscriptions/listen stream is acknowledged first, and closed with its successful response when the hub shuts down', async () => {
    const h = await startHub({ servers: { legacy: everythingServer() } });
    const res = await modern(h, 5, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = new SseReader(res.body!);
    const ack = await reader.nextMessage();
    expect(ack?.message).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 5 } } });
    await h.close();
    // subscriptions "Graceful Closure": the server's own successful response, then the end.
    const rest = messagesOf(await reader.rest());
    expect(rest.at(-1)).toEqual({ jsonrpc: '2.0', id: 5, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 5 } } });
  });
});
