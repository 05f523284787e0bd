/**
 * PROTOCOL A (P1–P8): the endpoint and POST, over real HTTP on loopback against a running engine
 * whose servers are real stdio children.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, isResponse, toolCall, toolText } from '../helpers/json-rpc.js';
import { ACCEPT_BOTH, del, get, jsonRpcErrorOf, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { rawRequest, uploadLarge } from '../helpers/raw-http.js';
import { everythingServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';

const FX = 'fx';

async function hubWithFixture(extraHub: Parameters<typeof startHub>[0]['hub'] = undefined): Promise<TestHub> {
  return startHub({ servers: { [FX]: everythingServer() }, ...(extraHub ? { hub: extraHub } : {}) });
}

describe('A. endpoint and POST', () => {
  it('P1: one endpoint takes POST, GET and DELETE', async () => {
    const hub = await hubWithFixture();
    const client = await connect(hub, FX);
    expect(client.sessionId).toBeTruthy();
    const res = await client.get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await res.body?.cancel();
    const gone = await client.delete();
    expect(gone.status).toBe(200);
  });

  for (const method of ['PUT', 'PATCH']) {
    it(`P1: ${method} → 405 with Allow and a JSON-RPC error body`, async () => {
      const hub = await hubWithFixture();
      const res = await fetch(hub.mcpUrl(FX), { method, headers: { ...hub.authHeader(), 'Content-Type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(405);
      const allow = (res.headers.get('allow') ?? '').split(',').map((s) => s.trim().toUpperCase());
      expect(allow).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
      const body = await jsonRpcErrorOf(res);
      expect(body.id).toBeNull();
    });
  }

  it('P2: every message is its own POST with Accept: application/json, text/event-stream (server side accepts it)', async () => {
    const hub = await hubWithFixture();
    const client = await connect(hub, FX);
    // Accept with parameters and in the other order is the same Accept.
    const res = await client.post(toolCall(7, 'echo', { text: 'p2' }), { accept: 'text/event-stream;q=0.9, application/json;q=1.0' });
    expect(res.status).toBe(200);
    const { messages } = await messagesOfResponse(res);
    expect(toolText(messages.find((m) => m.id === 7)!)).toBe('p2');
  });

  describe('P3: Accept and Content-Type', () => {
    const cases: Array<[string, string | null]> = [
      ['application/json only', 'application/json'],
      ['text/event-stream only', 'text/event-stream'],
      ['text/html', 'text/html'],
    ];
    for (const [name, accept] of cases) {
      it(`P3: POST with Accept ${name} → 406 with a JSON-RPC error body`, async () => {
        const hub = await hubWithFixture();
        const res = await post(hub, FX, initializeRequest(), { accept });
        expect(res.status).toBe(406);
        await jsonRpcErrorOf(res);
      });
    }

    it('P3: POST without an Accept header → 406 (raw request: fetch would add */*)', async () => {
      const hub = await hubWithFixture();
      const res = await rawRequest({
        port: hub.port,
        method: 'POST',
        path: `/mcp/${FX}`,
        headers: { ...hub.authHeader(), 'Content-Type': 'application/json' },
        body: JSON.stringify(initializeRequest()),
      });
      expect(res.status).toBe(406);
      expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
    });

    it('P3: Accept lacking a type → 406 also within a session', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX);
      const res = await client.post(toolCall(1, 'echo', { text: 'x' }), { accept: 'application/json' });
      expect(res.status).toBe(406);
      await jsonRpcErrorOf(res);
    });

    for (const [name, type] of [
      ['text/plain', 'text/plain'],
      ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      ['missing', null],
    ] as Array<[string, string | null]>) {
      it(`P3: Content-Type ${name} → 415`, async () => {
        const hub = await hubWithFixture();
        const res = await post(hub, FX, initializeRequest(), { contentType: type });
        expect(res.status).toBe(415);
        await jsonRpcErrorOf(res);
      });
    }

    it('P3: Content-Type application/json; charset=utf-8 is JSON', async () => {
      const hub = await hubWithFixture();
      const res = await post(hub, FX, initializeRequest(), { contentType: 'application/json; charset=utf-8' });
      expect(res.status).toBe(200);
      await res.body?.cancel();
    });
  });

  describe('P4: one message per body; batches only for 2025-03-26 sessions', () => {
    for (const version of ['2025-11-25', '2025-06-18']) {
      it(`P4: a batch in a ${version} session → 400/-32600`, async () => {
        const hub = await hubWithFixture();
        const client = await connect(hub, FX, { protocolVersion: version });
        expect(client.protocolVersion).toBe(version);
        const res = await client.post([toolCall(1, 'echo', { text: 'a' }), toolCall(2, 'echo', { text: 'b' })]);
        expect(res.status).toBe(400);
        const body = await jsonRpcErrorOf(res);
        expect(body.error.code).toBe(-32600);
      });
    }

    it('P4: a batch of requests in a 2025-03-26 session is accepted and every request is answered', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX, { protocolVersion: '2025-03-26' });
      expect(client.protocolVersion).toBe('2025-03-26');
      const res = await client.post([toolCall(1, 'echo', { text: 'a' }), toolCall(2, 'echo', { text: 'b' }), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'none', progress: 1 } }]);
      expect(res.status).toBe(200);
      const { messages } = await messagesOfResponse(res);
      const byId = new Map(messages.filter(isResponse).map((m) => [m.id, m]));
      expect(toolText(byId.get(1)!)).toBe('a');
      expect(toolText(byId.get(2)!)).toBe('b');
    });

    it('P4: a batch of notifications in a 2025-03-26 session → 202', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX, { protocolVersion: '2025-03-26' });
      const res = await client.post([
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      ]);
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    });

    it('P4: initialize inside a batch → 400/-32600, checked before the session (no session header)', async () => {
      const hub = await hubWithFixture();
      const res = await post(hub, FX, [initializeRequest(1), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32600);
    });

    it('P4: initialize inside a batch → 400/-32600, checked before the session (unknown session id)', async () => {
      const hub = await hubWithFixture();
      const res = await post(hub, FX, [initializeRequest(1)], { sessionId: 'no-such-session', protocolVersion: '2025-03-26' });
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32600);
    });

    it('P4: initialize inside a batch in a live 2025-03-26 session → 400/-32600', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX, { protocolVersion: '2025-03-26' });
      const res = await client.post([toolCall(1, 'echo', { text: 'a' }), initializeRequest(2, '2025-03-26')]);
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32600);
    });
  });

  describe('P5: notifications and responses → 202 with an empty body', () => {
    it('P5: notifications/initialized → 202, empty body', async () => {
      const hub = await hubWithFixture();
      const init = await post(hub, FX, initializeRequest());
      const sessionId = init.headers.get('mcp-session-id')!;
      await init.body?.cancel();
      const res = await post(hub, FX, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId, protocolVersion: '2025-11-25' });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    });

    it('P5: a response (answer to a server request) → 202, empty body, and the server gets it', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX, { capabilities: { elicitation: {} } });
      const res = await client.post(toolCall(5, 'test_elicitation', { message: 'who are you?' }));
      expect(res.status).toBe(200);
      const reader = new SseReader(res.body!);
      const ask = await reader.nextMessage();
      expect(ask?.message.method).toBe('elicitation/create');
      const answer = await client.post({ jsonrpc: '2.0', id: ask!.message.id!, result: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } });
      expect(answer.status).toBe(202);
      expect(await answer.text()).toBe('');
      const done = await reader.nextMessage();
      expect(done?.message.id).toBe(5);
      expect(toolText(done!.message)).toContain('ada@example.com');
    });
  });

  it('P6: a request → 200 text/event-stream or application/json carrying its response', async () => {
    const hub = await hubWithFixture();
    const client = await connect(hub, FX);
    const res = await client.post({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text\/event-stream|application\/json)/);
    const { messages } = await messagesOfResponse(res);
    const response = messages.find((m) => m.id === 'list-1');
    expect(response?.result).toBeDefined();
    const tools = (response!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toContain('echo');
  });

  describe('P7: bad JSON → 400 JSON-RPC errors, never a hang, never HTML', () => {
    const bodies: Array<[string, string, number]> = [
      ['malformed JSON', '{"incomplete": json', -32700],
      ['an empty body', '', -32700],
      ['valid JSON that is not JSON-RPC ({"foo":1})', '{"foo":1}', -32600],
      ['a JSON string', '"hello"', -32600],
      ['null', 'null', -32600],
      ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600],
      ['an empty batch', '[]', -32600],
    ];
    for (const [name, body, code] of bodies) {
      it(`P7: ${name} → 400/${code} with id null`, async () => {
        const hub = await hubWithFixture();
        const res = await withTimeout(post(hub, FX, body), 5000, 'the answer to a bad body');
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const err = await jsonRpcErrorOf(res);
        expect(err).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      });
    }

    it('P7: malformed JSON within a live session → 400/-32700, and the session goes on', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX);
      const res = await client.post('{"incomplete": json');
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32700);
      expect(await client.tool('echo', { text: 'still here' })).toBe('still here');
    });
  });

  describe('P8: body over the limit → 413 with a JSON-RPC error, no reset', () => {
    const LIMIT = 64 * 1024;

    for (const chunked of [false, true]) {
      it(`P8: a ${chunked ? 'chunked' : 'Content-Length'} body of 1 MiB over a 64 KiB limit → 413, then a new connection works`, async () => {
        const hub = await hubWithFixture({ maxBodyBytes: LIMIT });
        const client = await connect(hub, FX);
        const result = await withTimeout(
          uploadLarge({
            port: hub.port,
            path: `/mcp/${FX}`,
            headers: { ...hub.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', 'Mcp-Session-Id': client.sessionId!, 'MCP-Protocol-Version': '2025-11-25' },
            size: 1024 * 1024,
            chunked,
          }),
          20_000,
          'the answer to an oversize upload',
        );
        expect(result.status).toBe(413);
        const body = JSON.parse(result.text) as { jsonrpc: string; error: { code: number; message: string }; id: null };
        expect(body.jsonrpc).toBe('2.0');
        expect(typeof body.error.code).toBe('number');
        expect(body.error.message).toMatch(/large|limit|size/i);
        // The next request, on a new connection, works (same session).
        const next = await rawRequest({
          port: hub.port,
          method: 'POST',
          path: `/mcp/${FX}`,
          headers: { ...hub.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', 'Mcp-Session-Id': client.sessionId!, 'MCP-Protocol-Version': '2025-11-25' },
          body: JSON.stringify(toolCall(99, 'echo', { text: 'after 413' })),
        });
        expect(next.status).toBe(200);
        expect(next.text).toContain('after 413');
      });
    }

    it('P8: a body just under the limit is accepted', async () => {
      const hub = await hubWithFixture({ maxBodyBytes: LIMIT });
      const client = await connect(hub, FX);
      const text = 'y'.repeat(LIMIT - 200);
      expect(await client.tool('echo', { text })).toBe(text);
    });

    it('P8: the default limit is between 4 MiB and 16 MiB', async () => {
      const hub = await hubWithFixture();
      const client = await connect(hub, FX);
      // 3.5 MiB passes…
      const ok = 'z'.repeat(3.5 * 1024 * 1024);
      expect((await client.tool('echo', { text: ok })).length).toBe(ok.length);
      // …17 MiB does not.
      const result = await uploadLarge({
        port: hub.port,
        path: `/mcp/${FX}`,
        headers: { ...hub.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', 'Mcp-Session-Id': client.sessionId!, 'MCP-Protocol-Version': '2025-11-25' },
        size: 17 * 1024 * 1024,
      });
      expect(result.status).toBe(413);
    });
  });

  it('P1/P15: GET and DELETE reach the same endpoint and need a session', async () => {
    const hub = await hubWithFixture();
    const g = await get(hub, FX);
    expect(g.status).toBe(400);
    expect((await jsonRpcErrorOf(g)).error.code).toBe(-32000);
    const d = await del(hub, FX);
    expect(d.status).toBe(400);
    expect((await jsonRpcErrorOf(d)).error.code).toBe(-32000);
  });
});
