/**
 * A 2026-07-28 call runs on the same spine as a 2025 one (issue 22: one call runner): what the
 * upstream reports reaches the inspector (a modern stdio child's stderr, a modern remote's HTTP
 * exchanges), its failures reach the server's status (a child that dies mid-call, a server that
 * cannot be started), and its deadline is the server's request timeout, checked by the hub's tick
 * as a session's is. Real processes (the dual-era fixture in `--era modern` mode, over stdio and
 * HTTP) and real HTTP on loopback.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import type { JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { waitFor } from '../helpers/waits.js';
import { startCaptureHub, type CaptureHub } from '../inspector/inspector-harness.js';
import { startFixture } from '../remote/remote-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';

async function modern(h: CaptureHub, server: string, id: number, method: string, params: Record<string, unknown> = {}): Promise<{ status: number; messages: JsonRpcMessage[] }> {
  const name = method === 'tools/call' ? params.name : undefined;
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'observed', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
  const res = await post(h, server, body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}) } });
  return { status: res.status, messages: (await messagesOfResponse(res, 20_000)).messages };
}

async function modernSession(h: CaptureHub, server: string): Promise<string> {
  const session = await waitFor(async () => (await h.sessions()).find((s) => s.server === server && s.era === 'modern'), `the modern session of '${server}'`);
  return session.id;
}

async function lastError(h: CaptureHub, server: string): Promise<{ stage: string; message: string } | undefined> {
  const overview = await h.call<Array<{ id: string; status: { lastError?: { stage: string; message: string } } }>>('servers.overview');
  return overview.find((s) => s.id === server)?.status.lastError;
}

describe('a 2026-07-28 call on the spine: observers and status', () => {
  it('stdio: the child’s stderr reaches the inspector; a child that dies mid-call is answered and shows in the status', async () => {
    const h = await startCaptureHub({ servers: { m: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'], env: { FIXTURE_STDERR_BANNER: 'modern child says hello' } } } });
    const echoed = await modern(h, 'm', 1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(echoed.messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'hi' }] } });
    const session = await modernSession(h, 'm');
    await waitFor(async () => (await h.events(session)).some((e) => e.kind === 'stderr' && e.text === 'modern child says hello'), 'the banner among the modern session’s events');

    const crashed = await modern(h, 'm', 2, 'tools/call', { name: 'crash', arguments: { code: 3 } });
    expect(crashed.messages.at(-1)).toMatchObject({ id: 2, error: { code: -32603, message: expect.stringContaining('exited with code 3') } });
    const error = await waitFor(() => lastError(h, 'm'), 'the server’s status to show the failure');
    expect(error).toMatchObject({ stage: 'exit', message: expect.stringContaining('exited with code 3') });
    // The server never answered it: the exchange is orphaned, its answer the hub's (as in a 2025 session).
    await h.settle();
    const exchanges = await h.exchanges(session);
    expect(exchanges.find((x) => x.requestId === 2)).toMatchObject({ method: 'tools/call', status: 'orphaned' });
  }, 60_000);

  it('remote: each call’s HTTP exchange with the server reaches the inspector, credentials masked', async () => {
    const remote = await startFixture(DUAL_ERA, ['--http', '--port', '0', '--era', 'modern']);
    const h = await startCaptureHub({ servers: { r: { url: remote.url, headers: { Authorization: 'Bearer ${secret:API}' } } }, secrets: { API: 'modern-remote-secret-value' } });
    const echoed = await modern(h, 'r', 1, 'tools/call', { name: 'echo', arguments: { text: 'over http' } });
    expect(echoed.messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'over http' }] } });
    const session = await modernSession(h, 'r');
    const http = await waitFor(async () => (await h.events(session)).find((e) => e.kind === 'http' && e.http?.method === 'POST'), 'the POST among the modern session’s events');
    expect(http.http).toMatchObject({ status: 200 });
    expect(JSON.stringify(http)).not.toContain('modern-remote-secret-value');
  }, 60_000);

  it('a server that cannot be started: the call is answered at once, and the status says why', async () => {
    const h = await startCaptureHub({ servers: { broken: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'], env: { NEEDS: '${secret:NOT_THERE}' } } } });
    const answer = await modern(h, 'broken', 1, 'tools/list');
    expect(answer.messages.at(-1)).toMatchObject({ id: 1, error: { message: expect.stringContaining('NOT_THERE') } });
    const error = await waitFor(() => lastError(h, 'broken'), 'the server’s status to show the failure');
    expect(error).toMatchObject({ stage: 'start', message: expect.stringContaining('NOT_THERE') });
  }, 60_000);
});
