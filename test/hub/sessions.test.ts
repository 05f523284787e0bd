/**
 * PROTOCOL C (P14–P19): sessions, isolation (per-session children and shared mode), stateless mode.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, toolCall, toolText } from '../helpers/json-rpc.js';
import { ACCEPT_BOTH, del, get, jsonRpcErrorOf, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { isAlive } from '../helpers/processes.js';
import { rawRequest } from '../helpers/raw-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect, initSession, TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';

const FX = 'fx';

function hub(extra: Partial<Parameters<typeof startHub>[0]> = {}): Promise<TestHub> {
  return startHub({
    servers: {
      [FX]: everythingServer(),
      other: everythingServer(),
      shared: everythingServer({ shared: true }),
      stateless: everythingServer({ stateless: true }),
    },
    ...extra,
  });
}

/** Bits of entropy a string of this length can hold, judging by the characters it uses. */
function maxBits(id: string): number {
  const alphabet = /^[0-9a-f]+$/i.test(id) ? 16 : /^[A-Za-z0-9_-]+$/.test(id) ? 64 : /^[A-Za-z0-9+/=]+$/.test(id) ? 64 : 94;
  return id.length * Math.log2(alphabet);
}

describe('C. sessions', () => {
  describe('P14: Mcp-Session-Id', () => {
    it('P14: the initialize response carries Mcp-Session-Id: visible ASCII, ≥ 128 bits, unique', async () => {
      const h = await hub();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const client = await connect(h, FX);
        ids.push(client.sessionId!);
      }
      for (const id of ids) {
        expect(id).toMatch(/^[\x21-\x7E]+$/);
        expect(maxBits(id)).toBeGreaterThanOrEqual(128);
      }
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('P14: the header is sent in Title-Case on the wire', async () => {
      const h = await hub();
      const res = await rawRequest({
        port: h.port,
        method: 'POST',
        path: `/mcp/${FX}`,
        headers: { ...h.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json' },
        body: JSON.stringify(initializeRequest()),
      });
      expect(res.status).toBe(200);
      const names = res.rawHeaders.filter((_, i) => i % 2 === 0);
      expect(names).toContain('Mcp-Session-Id');
    });

    for (const name of ['mcp-session-id', 'MCP-SESSION-ID', 'Mcp-Session-Id']) {
      it(`P14: the session header is read case-insensitively (${name})`, async () => {
        const h = await hub();
        const client = await connect(h, FX);
        const res = await rawRequest({
          port: h.port,
          method: 'POST',
          path: `/mcp/${FX}`,
          headers: { ...h.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', [name]: client.sessionId!, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify(toolCall(1, 'echo', { text: name })),
        });
        expect(res.status).toBe(200);
        expect(res.text).toContain(`"text":"${name}"`);
      });
    }
  });

  describe('P15: missing and unknown sessions', () => {
    it('P15: a non-initialize request without a session → 400/-32000', async () => {
      const h = await hub();
      const res = await post(h, FX, toolCall(1, 'echo', { text: 'x' }), { protocolVersion: '2025-11-25' });
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32000);
    });

    it('P15: initSession (initialize + notifications/initialized) gives a session the next request can use', async () => {
      const h = await hub();
      const sessionId = await initSession(h, FX);
      expect(sessionId).toBeTruthy();
      const res = await post(h, FX, toolCall(1, 'echo', { text: 'with session' }), { sessionId: sessionId!, protocolVersion: '2025-11-25' });
      expect(res.status).toBe(200);
      expect(toolText((await messagesOfResponse(res)).messages[0]!)).toBe('with session');
    });

    it('P15: a notification without a session → 400/-32000', async () => {
      const h = await hub();
      const res = await post(h, FX, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(res.status).toBe(400);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32000);
    });

    it('P15: an unknown session → 404/-32001 on POST, GET and DELETE alike', async () => {
      const h = await hub();
      const o = { sessionId: 'no-such-session-0123456789abcdef', protocolVersion: '2025-11-25' };
      for (const res of [await post(h, FX, toolCall(1, 'echo', { text: 'x' }), o), await get(h, FX, o), await del(h, FX, o)]) {
        expect(res.status).toBe(404);
        expect((await jsonRpcErrorOf(res)).error.code).toBe(-32001);
      }
    });

    it('P15: a session of one server used at another server → 404', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await post(h, 'other', toolCall(1, 'echo', { text: 'x' }), { sessionId: client.sessionId!, protocolVersion: '2025-11-25' });
      expect(res.status).toBe(404);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32001);
    });

    it('P15: a session that expired after being idle → 404 on POST, GET and DELETE, and its child is stopped', async () => {
      const h = await hub({ hub: { sessionIdleTimeoutMs: 300 }, tickMs: 25 });
      const client = await connect(h, FX);
      const pid = Number(await client.tool('whoami'));
      await waitFor(() => !h.engine.hub.sessions.has(client.sessionId!), 'the idle session to expire');
      const post404 = await client.post(toolCall(2, 'echo', { text: 'x' }));
      expect(post404.status).toBe(404);
      expect((await jsonRpcErrorOf(post404)).error.code).toBe(-32001);
      const get404 = await client.get();
      expect(get404.status).toBe(404);
      await get404.body?.cancel();
      const del404 = await client.delete();
      expect(del404.status).toBe(404);
      await del404.body?.cancel();
      await waitFor(() => !isAlive(pid), `child ${pid} of the expired session to exit`);
    });
  });

  describe('P16: DELETE', () => {
    it('P16: DELETE → 200; the session and its child are gone; the same id afterwards → 404', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const pid = Number(await client.tool('whoami'));
      expect(isAlive(pid)).toBe(true);
      const res = await client.delete();
      expect(res.status).toBe(200);
      await res.body?.cancel();
      expect(h.engine.hub.sessions.has(client.sessionId!)).toBe(false);
      await waitFor(() => !isAlive(pid), `child ${pid} to exit after DELETE`);
      const after = await client.post(toolCall(3, 'echo', { text: 'x' }));
      expect(after.status).toBe(404);
      expect((await jsonRpcErrorOf(after)).error.code).toBe(-32001);
      const again = await client.delete();
      expect(again.status).toBe(404);
      await again.body?.cancel();
    });

    it('P16: DELETE ends the session’s open streams', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const g = await client.get();
      const reader = new SseReader(g.body!);
      const res = await client.delete();
      expect(res.status).toBe(200);
      await withTimeout(reader.rest(), 5000, 'the GET stream to end after DELETE');
      expect(reader.ended).toBe(true);
    });
  });

  it('P17: after a 404 the client re-initializes with the same initialize and goes on (server side)', async () => {
    const h = await hub();
    const client = await connect(h, FX);
    const old = client.sessionId!;
    await (await client.delete()).body?.cancel();
    const stale = await client.post(toolCall(1, 'echo', { text: 'x' }));
    expect(stale.status).toBe(404);
    await stale.body?.cancel();
    // Replaying the captured initialize gives a new, working session.
    const fresh = new TestClient(h, FX);
    await fresh.connect({ protocolVersion: client.protocolVersion! });
    expect(fresh.sessionId).toBeTruthy();
    expect(fresh.sessionId).not.toBe(old);
    expect(await fresh.tool('echo', { text: 'again' })).toBe('again');
  });

  it('P18: a second initialize in one session → 400/-32600, and the session goes on', async () => {
    const h = await hub();
    const client = await connect(h, FX);
    const res = await client.post(initializeRequest(9));
    expect(res.status).toBe(400);
    expect((await jsonRpcErrorOf(res)).error.code).toBe(-32600);
    expect(await client.tool('echo', { text: 'fine' })).toBe('fine');
  });

  describe('P19: stateless servers', () => {
    it('P19: each request gets a fresh child (whoami differs), without initialize', async () => {
      const h = await hub();
      const pids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(h, 'stateless', toolCall(i, 'whoami'), { protocolVersion: '2025-11-25' });
        expect(res.status).toBe(200);
        const { messages } = await messagesOfResponse(res);
        pids.push(Number(toolText(messages.find((m) => m.id === i)!)));
      }
      expect(new Set(pids).size).toBe(3);
      for (const pid of pids) await waitFor(() => !isAlive(pid), `stateless child ${pid} to exit`);
    });

    it('P19: initialize on a stateless server answers and hands out no session', async () => {
      const h = await hub();
      const res = await post(h, 'stateless', initializeRequest(1));
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const { messages } = await messagesOfResponse(res);
      expect(messages[0]?.result).toBeDefined();
      // Requests after it still work without a session.
      const echo = await post(h, 'stateless', toolCall(2, 'echo', { text: 'stateless' }), { protocolVersion: '2025-11-25' });
      expect(toolText((await messagesOfResponse(echo)).messages.find((m) => m.id === 2)!)).toBe('stateless');
    });

    it('P19: GET and DELETE on a stateless server → 405 with a JSON-RPC error', async () => {
      const h = await hub();
      const g = await get(h, 'stateless');
      expect(g.status).toBe(405);
      await jsonRpcErrorOf(g);
      const d = await del(h, 'stateless', { sessionId: 'whatever' });
      expect(d.status).toBe(405);
      await jsonRpcErrorOf(d);
    });
  });

  describe('isolation under concurrency (no cross-talk)', () => {
    const N = 50;

    it(`P14/P10: ${N} concurrent sessions, one child each: every echo gets exactly its own text`, async () => {
      const h = await hub();
      const clients = await Promise.all(Array.from({ length: N }, () => connect(h, FX)));
      expect(new Set(clients.map((c) => c.sessionId)).size).toBe(N);
      // Every session uses the same request id: ids are per session.
      const outs = await Promise.all(
        clients.map(async (c, i) => {
          const res = await c.post(toolCall(1, 'echo', { text: `session-${i}` }));
          return messagesOfResponse(res, 30_000);
        }),
      );
      outs.forEach((o, i) => {
        expect(o.messages).toHaveLength(1);
        expect(o.messages[0]!.id).toBe(1);
        expect(toolText(o.messages[0]!)).toBe(`session-${i}`);
      });
      const pids = await Promise.all(clients.map((c) => c.tool('whoami')));
      expect(new Set(pids).size).toBe(N);
    }, 120_000);

    it(`P14/P10: shared mode: ${N} concurrent sessions on one child with colliding request ids, no cross-talk`, async () => {
      const h = await hub();
      const clients = await Promise.all(Array.from({ length: N }, () => connect(h, 'shared')));
      expect(new Set(clients.map((c) => c.sessionId)).size).toBe(N);
      const outs = await Promise.all(
        clients.map(async (c, i) => {
          const res = await c.post(toolCall(1, 'echo', { text: `shared-${i}` }));
          return messagesOfResponse(res, 30_000);
        }),
      );
      outs.forEach((o, i) => {
        expect(o.messages).toHaveLength(1);
        expect(o.messages[0]!.id).toBe(1);
        expect(toolText(o.messages[0]!)).toBe(`shared-${i}`);
      });
      const pids = await Promise.all(clients.map((c) => c.tool('whoami')));
      expect(new Set(pids).size).toBe(1);
    }, 120_000);

    it('P10: shared mode: only the answer\'s top-level id is put back, not an equal id inside the result, small or 1 MiB', async () => {
      const h = await startHub({ servers: { probe: probeServer({ shared: true }) } });
      const clients = await Promise.all(Array.from({ length: 3 }, () => connect(h, 'probe')));
      for (const bytes of [0, 1024 * 1024]) {
        const outs = await Promise.all(clients.map((c, i) => c.post(toolCall(`c-${i}`, 'nested_ids', { bytes })).then((r) => messagesOfResponse(r, 30_000))));
        outs.forEach((o, i) => {
          expect(o.messages).toHaveLength(1);
          const answer = o.messages[0]! as { id: unknown; result: { structuredContent: { id: unknown; items: Array<{ id: unknown }>; pad: string } } };
          expect(answer.id).toBe(`c-${i}`);
          // The child's own id (the hub's number for this call) stays where the server put it.
          const inner = answer.result.structuredContent;
          expect(typeof inner.id).toBe('number');
          expect(inner.items[0]!.id).toBe(inner.id);
          expect(inner.pad).toHaveLength(bytes);
        });
      }
    }, 60_000);

    it('P10: shared mode: colliding progress tokens are restored per session', async () => {
      const h = await hub();
      const clients = await Promise.all(Array.from({ length: 5 }, () => connect(h, 'shared')));
      const outs = await Promise.all(clients.map((c) => c.post(toolCall(7, 'test_tool_with_progress', {}, { progressToken: 'same' })).then((r) => messagesOfResponse(r))));
      for (const o of outs) {
        const progress = o.messages.filter((m) => m.method === 'notifications/progress');
        expect(progress).toHaveLength(3);
        for (const p of progress) expect(p.params?.progressToken).toBe('same');
        const response = o.messages.filter((m) => m.id === 7);
        expect(response).toHaveLength(1);
        expect(toolText(response[0]!)).toContain('Progress reported with token');
      }
    });

    for (const asked of ['2025-06-18', '2025-03-26']) {
      it(`P21: shared mode: a later session asking for ${asked} negotiates ${asked} (the server supports it), not the first session's version`, async () => {
        const h = await hub();
        const first = await connect(h, 'shared', { protocolVersion: '2025-11-25' });
        expect(first.protocolVersion).toBe('2025-11-25');
        const later = await connect(h, 'shared', { protocolVersion: asked });
        // Lifecycle spec: a server that supports the requested version MUST answer with it.
        expect(later.protocolVersion).toBe(asked);
        expect(later.initializeResponse!.headers.get('mcp-protocol-version')).toBe(asked);
      });
    }

    it('P10: shared mode: a server request that could belong to either of two busy sessions is refused, never leaked', async () => {
      // Stdio does not say which call a server request belongs to. With A's and B's calls both in
      // flight on one shared child, routing it would be a guess that could hand B's prompt to A,
      // so the hub fails closed: the server gets an error, B's call ends, A sees nothing of B's.
      const h = await hub();
      const a = await connect(h, 'shared', { capabilities: { sampling: {} } });
      const b = await connect(h, 'shared', { capabilities: { sampling: {} } });
      const ra = await a.post(toolCall('a-wait', 'sleep', { ms: 60_000 }));
      const readerA = new SseReader(ra.body!);
      await readerA.nextEvent();
      const rb = await b.post(toolCall('b-sample', 'test_sampling', { prompt: 'B-private-prompt' }));
      // The refusal is the first message for B's call, so it is the whole reply (JSON, P6).
      const { messages: onB } = await messagesOfResponse(rb, 5000);
      expect(onB.map((m) => m.id)).toEqual(['b-sample']);
      expect(JSON.stringify(onB[0])).toContain('cannot tell which client');
      await a.notify('notifications/cancelled', { requestId: 'a-wait' });
      const onA = await withTimeout(readerA.rest(), 5000, 'A’s cancelled stream to end');
      expect(JSON.stringify(onA)).not.toContain('B-private-prompt');
    });

    it('P10: shared mode: a server request goes to the one session with a call in flight', async () => {
      const h = await hub();
      const a = await connect(h, 'shared', { capabilities: { sampling: {} } });
      const b = await connect(h, 'shared', { capabilities: { sampling: {} } });
      await a.tool('echo', { text: 'a is idle afterwards' });
      const rb = await b.post(toolCall('b-sample', 'test_sampling', { prompt: 'B-private-prompt' }));
      const readerB = new SseReader(rb.body!);
      const ask = await readerB.nextMessage(5000);
      expect(ask?.message.method).toBe('sampling/createMessage');
      expect(JSON.stringify(ask?.message.params)).toContain('B-private-prompt');
      await b.post({ jsonrpc: '2.0', id: ask!.message.id!, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } });
      const done = await readerB.nextMessage();
      expect(toolText(done!.message)).toBe('LLM response: ok');
    });

    it('P16: shared mode: DELETE of one session leaves the shared child serving the others', async () => {
      const h = await hub();
      const a = await connect(h, 'shared');
      const b = await connect(h, 'shared');
      const pid = Number(await a.tool('whoami'));
      await (await a.delete()).body?.cancel();
      expect(await b.tool('echo', { text: 'b lives' })).toBe('b lives');
      expect(Number(await b.tool('whoami'))).toBe(pid);
      const stale = await a.post(toolCall(5, 'echo', { text: 'x' }));
      expect(stale.status).toBe(404);
      await stale.body?.cancel();
    });
  });
});
