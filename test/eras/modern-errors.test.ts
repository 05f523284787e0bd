/**
 * Bad input in the 2026-07-28 era (issue 14, PROTOCOL Q2, Q3, Q5) over real HTTP to a hub in front
 * of a legacy server (bridged) and a modern-only one (passed through): each gets the spec's error,
 * with the request's id, at once — never a hang, never a 5xx.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { del, get, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const MODERN = '2026-07-28';
const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');

const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

function request(id: number | string, method: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } };
}

/** The headers a well-behaved modern client sends for a request. */
function headersFor(method: string, name?: string): Record<string, string> {
  return { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(name !== undefined ? { 'Mcp-Name': name } : {}) };
}

async function expectError(res: Response, status: number, code: number, id: unknown): Promise<{ message: string; data?: unknown }> {
  expect(res.status).toBe(status);
  expect(res.headers.get('mcp-session-id')).toBeNull();
  const body = (await res.json()) as { id: unknown; error: { code: number; message: string; data?: unknown } };
  expect(body.id).toEqual(id);
  expect(body.error.code).toBe(code);
  return body.error;
}

async function hub(): Promise<TestHub> {
  return startHub({ servers: { legacy: everythingServer(), modern: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } });
}

describe('bad input in the 2026-07-28 era', () => {
  for (const server of ['legacy', 'modern']) {
    it(`${server}: headers that disagree with the body → 400 HeaderMismatch (-32020) with the request's id`, async () => {
      const h = await hub();
      const call = request(7, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
      const method = await expectError(await post(h, server, call, { headers: headersFor('tools/list', 'echo') }), 400, -32020, 7);
      expect(method.message).toContain('Mcp-Method');
      const name = await expectError(await post(h, server, call, { headers: headersFor('tools/call', 'crash') }), 400, -32020, 7);
      expect(name.message).toContain('Mcp-Name');
      await expectError(await post(h, server, call, { headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' } }), 400, -32020, 7);
      const version = await expectError(await post(h, server, call, { headers: { ...headersFor('tools/call', 'echo'), 'MCP-Protocol-Version': '2025-11-25' } }), 400, -32020, 7);
      expect(version.message).toContain('MCP-Protocol-Version');
      // The same request with the right headers is served.
      const ok = await post(h, server, call, { headers: headersFor('tools/call', 'echo') });
      expect(ok.status).toBe(200);
      const { messages } = await messagesOfResponse(ok);
      expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'x' }] } });
    });
  }

  it('a modern MCP-Protocol-Version header on a request without the _meta envelope → 400 Invalid params naming what is missing', async () => {
    const h = await hub();
    const bare = { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} };
    const error = await expectError(await post(h, 'legacy', bare, { headers: headersFor('tools/list') }), 400, -32602, 'a');
    expect(error.message).toContain('io.modelcontextprotocol/protocolVersion');
    const noClientInfo = { jsonrpc: '2.0', id: 'b', method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } };
    const missing = await expectError(await post(h, 'legacy', noClientInfo, { headers: headersFor('tools/list') }), 400, -32602, 'b');
    expect(missing.message).toContain('clientCapabilities');
  });

  it('a revision the hub does not serve → 400 UnsupportedProtocolVersion (-32022) listing the supported ones', async () => {
    const h = await hub();
    const future = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } };
    const error = await expectError(await post(h, 'legacy', future, { headers: { ...headersFor('tools/list'), 'MCP-Protocol-Version': '2099-01-01' } }), 400, -32022, 3);
    expect(error.data).toEqual({ supported: [MODERN], requested: '2099-01-01' });
  });

  it('GET and DELETE from a modern client → 405 (Allow: POST); a batch of modern requests → 400', async () => {
    const h = await hub();
    for (const res of [await get(h, 'legacy', { protocolVersion: MODERN }), await del(h, 'legacy', { protocolVersion: MODERN })]) {
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      await res.body?.cancel();
    }
    const batch = [request(1, 'tools/list'), request(2, 'tools/list')];
    await expectError(await post(h, 'legacy', batch, { headers: headersFor('tools/list') }), 400, -32600, null);
  });

  it('methods the era removed (ping, logging/setLevel, resources/subscribe) → method not found, bridged or not', async () => {
    const h = await hub();
    for (const server of ['legacy', 'modern']) {
      for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
        const res = await post(h, server, request(`${method}-${server}`, method, method === 'resources/subscribe' ? { uri: 'test://watched-resource' } : method === 'logging/setLevel' ? { level: 'info' } : {}), { headers: headersFor(method) });
        expect(res.status, `${method} to ${server}`).toBeLessThan(500);
        const { messages } = await messagesOfResponse(res);
        expect(messages.at(-1), `${method} to ${server}`).toMatchObject({ id: `${method}-${server}`, error: { code: -32601 } });
      }
    }
  });

  it('an unknown requestState, and inputResponses for a call that no longer waits → Invalid params, at once', async () => {
    const h = await hub();
    const tampered = request(9, 'tools/call', { name: 'test_elicitation', arguments: { message: 'x' }, inputResponses: { x: { action: 'decline' } }, requestState: 'not-from-patchbay' });
    const { messages: unknown } = await messagesOfResponse(await post(h, 'legacy', tampered, { headers: headersFor('tools/call', 'test_elicitation') }));
    expect(unknown.at(-1)).toMatchObject({ id: 9, error: { code: -32602, message: expect.stringContaining('requestState') } });

    // A real round: input_required, a retry that completes the call, and the same retry again.
    const first = await post(h, 'legacy', request(10, 'tools/call', { name: 'test_elicitation', arguments: { message: 'name?' } }), { headers: headersFor('tools/call', 'test_elicitation') });
    const asked = (await messagesOfResponse(first)).messages.at(-1) as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(asked.result.resultType).toBe('input_required');
    const key = Object.keys(asked.result.inputRequests)[0]!;
    const retry = request(11, 'tools/call', { name: 'test_elicitation', arguments: { message: 'name?' }, inputResponses: { [key]: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } }, requestState: asked.result.requestState });
    const done = (await messagesOfResponse(await post(h, 'legacy', retry, { headers: headersFor('tools/call', 'test_elicitation') }))).messages.at(-1);
    expect(done).toMatchObject({ id: 11, result: { resultType: 'complete' } });
    const again = (await messagesOfResponse(await post(h, 'legacy', { ...retry, id: 12 }, { headers: headersFor('tools/call', 'test_elicitation') }))).messages.at(-1);
    expect(again).toMatchObject({ id: 12, error: { code: -32602, message: expect.stringContaining('requestState') } });
  });

  it('Host, Origin and token guards apply to modern requests too', async () => {
    const h = await hub();
    const call = request(1, 'tools/list');
    await expectError(await post(h, 'legacy', call, { headers: headersFor('tools/list'), auth: false }), 401, -32001, null);
    const foreign = await post(h, 'legacy', call, { headers: { ...headersFor('tools/list'), Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    await foreign.body?.cancel();
  });
});
