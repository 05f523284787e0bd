/**
 * Remote upstreams that fail (issue 3, part 2): a restarted server and a forgotten session are
 * re-initialized transparently (P17); a server that is down gives a JSON-RPC error naming the
 * server and the cause (DNS, refused, TLS, 5xx, timeout), within the timeout, never a hang.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { initializeRequest, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { childPid, connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { freePort, REMOTE_HTTP_SERVER, startFixture, startRemoteHub, type RecordedRequest } from './remote-harness.js';

/**
 * The hub's answer to an initialize. No time is measured: each test tells "at once" from "after a
 * deadline" by the error itself (a refusal is not a timeout), and a hang fails the 20 s read.
 */
async function initializeAnswer(hub: TestHub, id: string): Promise<{ answer: JsonRpcMessage }> {
  const res = await post(hub, id, initializeRequest());
  const { messages } = await messagesOfResponse(res, 20_000);
  return { answer: messages[0]! };
}

/** A loopback HTTP server of the test's own, closed after the test. */
async function listen(handler: http.RequestListener): Promise<number> {
  return listenOnLoopback(http.createServer(handler));
}

describe('remote upstream resilience', () => {
  it('upstream killed and restarted mid-session: the client hears why while it is down, and its next call after the restart works', async () => {
    let remote = await startFixture(REMOTE_HTTP_SERVER);
    const port = remote.port;
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    const before = await client.tool('whoami');
    await remote.kill();

    const down = await client.callTool('echo', { text: 'while down' });
    expect(down.response.error?.message).toMatch(/server 'r' could not be reached: connection refused/);
    expect(down.response.error?.data).toMatchObject({ server: 'r', cause: 'refused' });

    remote = await startFixture(REMOTE_HTTP_SERVER, ['--port', String(port)]);
    expect(await client.tool('echo', { text: 'after restart' })).toBe('after restart');
    expect(await client.tool('whoami')).not.toBe(before);
    // The new server was initialized with the client's own initialize, then told it is initialized.
    const posts = (await remote.debug<RecordedRequest[]>('/_debug/requests')).filter((r) => r.method === 'POST').map((r) => r.rpc?.[0]);
    const init = posts.indexOf('initialize');
    expect(init).toBeGreaterThanOrEqual(0);
    expect(posts[init + 1]).toBe('notifications/initialized');
  });

  it('a stale upstream session (404) is re-initialized transparently (P17)', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    expect(await client.tool('echo', { text: 'one' })).toBe('one');
    await remote.poke('/_debug/drop-sessions');
    expect(await client.tool('echo', { text: 'two' })).toBe('two');
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.filter((r) => r.rpc?.includes('initialize'))).toHaveLength(2);
    expect(seen.filter((r) => r.rpc?.includes('tools/call:echo'))).toHaveLength(3); // one, two (404), two again
  });

  it('concurrent calls on a stale session are all re-sent on the new one', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    expect(await client.tool('echo', { text: 'warm' })).toBe('warm');
    await remote.poke('/_debug/drop-sessions');
    const texts = await Promise.all(['a', 'b', 'c'].map((t) => client.tool('echo', { text: t })));
    expect(texts).toEqual(['a', 'b', 'c']);
    const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
    expect(seen.filter((r) => r.rpc?.includes('initialize'))).toHaveLength(2);
  });

  it('remote down (connection refused): initialize answers a JSON-RPC error at once', async () => {
    const port = await freePort();
    const hub = await startRemoteHub({ servers: { down: { url: `http://127.0.0.1:${port}/mcp` } } });
    const { answer } = await initializeAnswer(hub, 'down');
    // The refusal itself, not the 60 s initialize deadline (that error says "did not answer").
    expect(answer.error?.message).toMatch(/^server 'down' could not be reached: connection refused/);
    expect(answer.error?.data).toMatchObject({ server: 'down', cause: 'refused' });
  });

  it('remote down (DNS): the error says the host name does not resolve', async () => {
    // A DNS label is at most 63 octets (RFC 1035 §2.3.4): the resolver refuses to encode a query
    // for this name, so getaddrinfo fails with ENOTFOUND here, on this machine, without sending a
    // packet to any name server; and under the reserved .invalid TLD (RFC 6761) it could never
    // resolve anyway.
    const host = `${'x'.repeat(64)}.invalid`;
    const hub = await startRemoteHub({ servers: { nodns: { url: `http://${host}/mcp` } } });
    const { answer } = await initializeAnswer(hub, 'nodns');
    expect(answer.error).toEqual({
      code: -32603,
      message: `server 'nodns' could not be reached: its host name does not resolve (DNS ENOTFOUND; check the url, or your network) (http://${host}/mcp)`,
      data: { server: 'nodns', cause: 'dns' },
    });
  });

  it('remote down (TLS): an https URL on a plain-HTTP port is a TLS failure', async () => {
    const port = await listen((_req, res) => res.end('plain http'));
    const hub = await startRemoteHub({ servers: { tls: { url: `https://127.0.0.1:${port}/mcp` } } });
    const { answer } = await initializeAnswer(hub, 'tls');
    expect(answer.error?.message).toMatch(/server 'tls' could not be reached securely: TLS failed/);
    expect(answer.error?.data).toMatchObject({ cause: 'tls' });
  });

  it('remote failing (HTTP 502): the status is named, and the client may try again', async () => {
    const port = await listen((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end('bad gateway');
    });
    const hub = await startRemoteHub({ servers: { bad: { url: `http://127.0.0.1:${port}/mcp`, transport: 'streamable-http' } } });
    const { answer } = await initializeAnswer(hub, 'bad');
    expect(answer.error?.message).toMatch(/server 'bad' answered HTTP 502/);
    expect(answer.error?.data).toMatchObject({ cause: 'http', status: 502 });
  });

  it('remote hanging: initialize answers a timeout error within the per-server timeout', async () => {
    const port = await listen(() => {
      // Never answers.
    });
    const hub = await startRemoteHub({ servers: { slow: { url: `http://127.0.0.1:${port}/mcp`, requestTimeoutMs: 800 } } });
    const { answer } = await initializeAnswer(hub, 'slow');
    // The per-server deadline (800 ms, shown rounded) fired, not the 60 s default.
    expect(answer.error?.message).toMatch(/server 'slow' did not answer initialize within 1s/);
    expect(answer.error?.data).toMatchObject({ cause: 'timeout' });
  });

  it('a server that dies mid-call answers the pending call with an error, not a hang', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    expect(await childPid(client)).toBe(remote.child.pid);
    const pending = client.callTool('sleep', { ms: 30_000 }, undefined, 20_000);
    await waitFor(async () => (await remote.debug<RecordedRequest[]>('/_debug/requests')).some((r) => r.rpc?.includes('tools/call:sleep')), 'the server to get the call');
    await remote.kill();
    const outcome = await pending;
    expect(outcome.response.error?.message).toMatch(/server 'r'/);
  });
});
