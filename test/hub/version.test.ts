/**
 * PROTOCOL D (P20–P22, server side): the MCP-Protocol-Version header.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, SUPPORTED_VERSIONS, toolCall, toolText } from '../helpers/json-rpc.js';
import { del, get, jsonRpcErrorOf, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { everythingServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const FX = 'fx';

function hub(): Promise<TestHub> {
  return startHub({ servers: { [FX]: everythingServer() } });
}

function expectUnsupported(message: string, version: string): void {
  const prefix = `Bad Request: Unsupported protocol version: ${version}. Supported versions: `;
  expect(message.startsWith(prefix)).toBe(true);
  const listed = message.slice(prefix.length).split(/,\s*/);
  expect(listed).toEqual(expect.arrayContaining(SUPPORTED_VERSIONS));
}

describe('D. protocol version', () => {
  describe('P20: MCP-Protocol-Version is checked against the supported set', () => {
    for (const bad of ['1999-01-01', 'banana', '2025-11-25x', '']) {
      it(`P20: MCP-Protocol-Version: ${JSON.stringify(bad)} on POST → 400 {"code":-32600,"message":"Bad Request: Unsupported protocol version: …"}`, async () => {
        const h = await hub();
        const client = await connect(h, FX);
        const res = await client.post(toolCall(1, 'echo', { text: 'x' }), { protocolVersion: bad });
        expect(res.status).toBe(400);
        const body = await jsonRpcErrorOf(res);
        expect(body.id).toBeNull();
        expect(body.error.code).toBe(-32600);
        expectUnsupported(body.error.message, bad);
      });
    }

    it('P20: the exact body for 1999-01-01', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await client.post(toolCall(1, 'echo', { text: 'x' }), { protocolVersion: '1999-01-01' });
      expect(res.status).toBe(400);
      const body = await jsonRpcErrorOf(res);
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Bad Request: Unsupported protocol version: 1999-01-01. Supported versions: ${body.error.message.split('Supported versions: ')[1]}` },
      });
    });

    it('P20: an unsupported version on GET and DELETE → 400/-32600 as well', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const g = await client.get({ protocolVersion: '1999-01-01' });
      expect(g.status).toBe(400);
      expectUnsupported((await jsonRpcErrorOf(g)).error.message, '1999-01-01');
      const d = await client.delete({ protocolVersion: '1999-01-01' });
      expect(d.status).toBe(400);
      expectUnsupported((await jsonRpcErrorOf(d)).error.message, '1999-01-01');
      // The session was not deleted by the refused DELETE.
      expect(await client.tool('echo', { text: 'alive' })).toBe('alive');
    });

    it('P20: a missing header is taken as 2025-03-26 and accepted', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25' });
      const res = await post(h, FX, toolCall(4, 'echo', { text: 'no header' }), { sessionId: client.sessionId! });
      expect(res.status).toBe(200);
      expect(toolText((await messagesOfResponse(res)).messages.find((m) => m.id === 4)!)).toBe('no header');
    });

    it('P20: checked against the supported set, not the negotiated value', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25' });
      for (const v of SUPPORTED_VERSIONS) {
        const res = await client.post(toolCall(v, 'echo', { text: v }), { protocolVersion: v });
        expect(res.status).toBe(200);
        await res.body?.cancel();
      }
    });

    it('P20: initialize is exempt from the check', async () => {
      const h = await hub();
      const res = await post(h, FX, initializeRequest(1, '2025-11-25'), { protocolVersion: '1999-01-01' });
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeTruthy();
      await res.body?.cancel();
    });

    it('P20: session check first: unknown session + bad version → 404/-32001', async () => {
      const h = await hub();
      const o = { sessionId: 'unknown-session-id-000000000000', protocolVersion: '1999-01-01' };
      for (const res of [await post(h, FX, toolCall(1, 'echo', { text: 'x' }), o), await get(h, FX, o), await del(h, FX, o)]) {
        expect(res.status).toBe(404);
        expect((await jsonRpcErrorOf(res)).error.code).toBe(-32001);
      }
    });

    it('P20: session check first: missing session + bad version → 400/-32000 (the session error)', async () => {
      const h = await hub();
      const res = await post(h, FX, toolCall(1, 'echo', { text: 'x' }), { protocolVersion: '1999-01-01' });
      expect(res.status).toBe(400);
      const body = await jsonRpcErrorOf(res);
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).not.toMatch(/protocol version/i);
    });
  });

  describe('P21: responses carry the negotiated version', () => {
    for (const asked of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      it(`P21: a ${asked} session: initialize, POST, 202, GET and DELETE responses carry Mcp-Protocol-Version: ${asked}`, async () => {
        const h = await hub();
        const client = await connect(h, FX, { protocolVersion: asked });
        expect(client.protocolVersion).toBe(asked);
        expect(client.initializeResponse!.headers.get('mcp-protocol-version')).toBe(asked);
        const call = await client.post(toolCall(1, 'echo', { text: 'v' }));
        expect(call.headers.get('mcp-protocol-version')).toBe(asked);
        await messagesOfResponse(call);
        const note = await client.post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
        expect(note.status).toBe(202);
        expect(note.headers.get('mcp-protocol-version')).toBe(asked);
        const g = await client.get();
        expect(g.status).toBe(200);
        expect(g.headers.get('mcp-protocol-version')).toBe(asked);
        await new SseReader(g.body!).cancel();
        const d = await client.delete();
        expect(d.headers.get('mcp-protocol-version')).toBe(asked);
      });
    }

    it('P21: when the server answers another version than asked, the header is the one it answered', async () => {
      const h = await hub();
      const res = await post(h, FX, initializeRequest(1, '2099-01-01'));
      expect(res.status).toBe(200);
      const { messages } = await messagesOfResponse(res);
      const answered = (messages[0]!.result as { protocolVersion: string }).protocolVersion;
      expect(answered).not.toBe('2099-01-01');
      expect(res.headers.get('mcp-protocol-version')).toBe(answered);
    });
  });

  it('P22: the negotiated version sent on every request (POST, GET, DELETE) is accepted (server side)', async () => {
    const h = await hub();
    const client = await connect(h, FX, { protocolVersion: '2025-06-18' });
    const o = { protocolVersion: '2025-06-18' };
    const call = await client.post(toolCall(1, 'echo', { text: 'neg' }), o);
    expect(call.status).toBe(200);
    await messagesOfResponse(call);
    const note = await client.post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, o);
    expect(note.status).toBe(202);
    const g = await client.get(o);
    expect(g.status).toBe(200);
    await new SseReader(g.body!).cancel();
    const d = await client.delete(o);
    expect(d.status).toBe(200);
  });
});
