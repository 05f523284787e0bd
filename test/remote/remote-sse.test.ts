/**
 * Remote legacy HTTP+SSE (2024-11-05) upstreams (P32): fallback from Streamable HTTP when the
 * initialize POST is refused with 400/404/405, a pinned transport, the endpoint origin check, and
 * a dropped event stream re-initialized on the next message.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { connect } from '../helpers/test-client.js';
import { headerOf, REMOTE_SSE_SERVER, startFixture, startRemoteHub, type RecordedRequest } from './remote-harness.js';

async function initializeError(hub: Awaited<ReturnType<typeof startRemoteHub>>, id: string): Promise<JsonRpcMessage> {
  const res = await post(hub, id, initializeRequest());
  const { messages } = await messagesOfResponse(res);
  return messages[0]!;
}

describe('remote legacy HTTP+SSE upstream', () => {
  it('falls back to HTTP+SSE when the initialize POST is refused with 405 (P32), headers on every request', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', 'legacy-key-123']);
    const hub = await startRemoteHub({ servers: { legacy: { type: 'http', url: remote.url, headers: { 'X-API-Key': 'legacy-key-123' } } } });
    const client = await connect(hub, 'legacy');
    expect(await client.tool('echo', { text: 'via sse' })).toBe('via sse');
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/sse' });
    expect(seen.some((r) => r.method === 'GET' && r.path === '/sse')).toBe(true);
    expect(seen.filter((r) => r.path === '/messages').length).toBeGreaterThanOrEqual(3);
    for (const r of seen) {
      expect(headerOf(r, 'x-api-key')).toBe('legacy-key-123');
      expect(headerOf(r, 'authorization')).toBeUndefined();
    }
  });

  it('type "sse" pins the legacy transport: no POST to the SSE URL', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const hub = await startRemoteHub({ servers: { legacy: { type: 'sse', url: remote.url } } });
    const client = await connect(hub, 'legacy');
    expect(await client.tool('echo', { text: 'pinned' })).toBe('pinned');
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.some((r) => r.method === 'POST' && r.path === '/sse')).toBe(false);
  });

  it('a pinned Streamable HTTP transport does not fall back: the client hears the 405', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const hub = await startRemoteHub({ servers: { legacy: { url: remote.url, transport: 'streamable-http' } } });
    const answer = await initializeError(hub, 'legacy');
    expect(answer.error?.message).toMatch(/server 'legacy' answered HTTP 405/);
  });

  it('refuses an endpoint on another origin', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER, ['--foreign-endpoint', 'http://127.0.0.2:1/messages']);
    const hub = await startRemoteHub({ servers: { legacy: { type: 'sse', url: remote.url } } });
    const answer = await initializeError(hub, 'legacy');
    expect(answer.error?.message).toMatch(/server 'legacy'.*[Ee]ndpoint origin does not match/);
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.some((r) => r.method === 'POST')).toBe(false);
  });

  it('a dropped event stream (the server forgot the session) is re-initialized on the next call', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const hub = await startRemoteHub({ servers: { legacy: { type: 'sse', url: remote.url } } });
    const client = await connect(hub, 'legacy');
    expect(await client.tool('echo', { text: 'one' })).toBe('one');
    await remote.poke('/_debug/drop-sessions');
    // Until the hub notices the dropped stream a call may fail once, naming the cause; then it works.
    let outcome = await client.callTool('echo', { text: 'two' });
    if (outcome.response.error) {
      expect(outcome.response.error.message).toMatch(/server 'legacy'/);
      outcome = await client.callTool('echo', { text: 'two' });
    }
    expect(toolText(outcome.response)).toBe('two');
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.filter((r) => r.method === 'GET' && r.path === '/sse').length).toBeGreaterThanOrEqual(2);
  });
});
