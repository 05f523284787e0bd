/**
 * A remote server's event streams (issue 14 item 5, B):
 *
 * - No idle limit on them. Node's fetch cuts a response body after 300 s without a byte, and a
 *   legacy HTTP+SSE stream or a Streamable HTTP standalone GET stream may rightly be silent for an
 *   hour. Waiting 300 s in a test is not an option, so the remote fetch is built with a short body
 *   timeout for ordinary requests (`bodyTimeoutMs`, the knob that exists for this) and the test
 *   shows both sides through that one fetch: an ordinary response whose body goes silent is cut
 *   (UND_ERR_BODY_TIMEOUT) — and only after that, so the event stream, silent since before that
 *   request began, has been silent longer than the limit — and then a message the server sends on
 *   the event stream still arrives, on the stream the connection opened first (one GET, no
 *   reconnect). No sleeps: the cut request is the clock.
 * - The client's resource subscriptions survive a lost legacy event stream: the hub opens a new
 *   upstream session at once, renews them there, and the server's `notifications/resources/updated`
 *   reach the client; the renewed subscribe's answer does not.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/core/log/logger.js';
import type { JsonRpcMessage } from '../../src/main/core/protocol/json-rpc.js';
import { createRemoteUpstream } from '../../src/main/core/upstream/remote-connect.js';
import { createRemoteFetch, type RemoteFetch } from '../../src/main/core/upstream/remote-fetch.js';
import type { RemoteUpstream } from '../../src/main/core/upstream/remote-upstream.js';
import { onCleanup } from '../helpers/cleanup.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { waitFor } from '../helpers/waits.js';
import { REMOTE_HTTP_SERVER, REMOTE_SSE_SERVER, startFixture, startRemoteHub, type Fixture, type RecordedRequest } from './remote-harness.js';

/** The idle limit of ordinary response bodies in these tests (Node's default is 300 s). */
const BODY_TIMEOUT_MS = 300;
const WATCHED = 'fixture://watched';
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } } as const;

function upstreamFor(url: string, transport: 'sse' | 'streamable-http', fetch: RemoteFetch): { upstream: RemoteUpstream; messages: JsonRpcMessage[] } {
  const config = { url, transport };
  const upstream = createRemoteUpstream('r', config, config, { fetch, logger: createLogger('test') });
  onCleanup(() => upstream.close());
  const messages: JsonRpcMessage[] = [];
  upstream.onmessage = (m) => messages.push(m);
  return { upstream, messages };
}

function answerTo(messages: JsonRpcMessage[], id: number): Promise<JsonRpcMessage> {
  return waitFor(() => messages.find((m) => (m as { id?: unknown }).id === id), `the answer to request ${id}`);
}

/** A loopback server whose every response sends its headers and a first chunk, then nothing. */
async function silentBodyServer(): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('the rest never comes');
  });
  return `http://127.0.0.1:${await listenOnLoopback(server)}/`;
}

/** Fetches an ordinary (non-stream) response through `fetch` and reads it: the code it failed with. */
async function cutCode(fetch: RemoteFetch, url: string): Promise<unknown> {
  const res = await fetch(url);
  try {
    await res.text();
    return 'read to the end';
  } catch (err) {
    return (err as { cause?: { code?: unknown } }).cause?.code ?? (err as Error).message;
  }
}

async function eventStreamGets(remote: Fixture, path: string): Promise<number> {
  const seen = await remote.debug<RecordedRequest[]>('/_debug/requests');
  return seen.filter((r) => r.method === 'GET' && r.path === path).length;
}

async function notifyUpdate(remote: Fixture): Promise<number> {
  const res = await fetch(`${remote.origin}/_debug/update?uri=${encodeURIComponent(WATCHED)}`, { method: 'POST' });
  return ((await res.json()) as { notified: number }).notified;
}

describe('remote event streams have no idle limit', () => {
  it('legacy HTTP+SSE: the event stream outlives the body timeout that cuts an ordinary request', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const silent = await silentBodyServer();
    const fetch = createRemoteFetch({}, { bodyTimeoutMs: BODY_TIMEOUT_MS });
    const { upstream, messages } = upstreamFor(remote.url, 'sse', fetch);
    upstream.send(INITIALIZE);
    expect(await answerTo(messages, 1)).toHaveProperty('result');
    upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    upstream.send({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: WATCHED } });
    expect(await answerTo(messages, 2)).toHaveProperty('result');

    // The event stream is silent from here on; this request starts later and is cut for silence.
    expect(await cutCode(fetch, silent)).toBe('UND_ERR_BODY_TIMEOUT');

    expect(await notifyUpdate(remote)).toBe(1);
    await waitFor(() => messages.find((m) => 'method' in m && m.method === 'notifications/resources/updated'), 'the update on the event stream');
    expect(await eventStreamGets(remote, '/sse')).toBe(1);
  });

  it('Streamable HTTP: the standalone GET stream outlives the body timeout that cuts an ordinary request', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const silent = await silentBodyServer();
    const fetch = createRemoteFetch({}, { bodyTimeoutMs: BODY_TIMEOUT_MS });
    const { upstream, messages } = upstreamFor(remote.url, 'streamable-http', fetch);
    upstream.send(INITIALIZE);
    expect(await answerTo(messages, 1)).toHaveProperty('result');
    upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Sent once the standalone GET stream was answered (RemoteUpstream holds messages for it).
    upstream.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    expect(JSON.stringify(await answerTo(messages, 2))).toContain('hi');
    expect(await eventStreamGets(remote, '/mcp')).toBe(1);

    expect(await cutCode(fetch, silent)).toBe('UND_ERR_BODY_TIMEOUT');

    // notify_later answers, then sends tools/list_changed on the standalone GET stream.
    upstream.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notify_later', arguments: {} } });
    await answerTo(messages, 3);
    await waitFor(() => messages.find((m) => 'method' in m && m.method === 'notifications/tools/list_changed'), 'list_changed on the GET stream');
    expect(await eventStreamGets(remote, '/mcp')).toBe(1);
  });
});

describe('resource subscriptions survive a lost legacy event stream', () => {
  it('the hub renews them on a new upstream session at once; the update reaches the client, the renewal does not', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const hub = await startRemoteHub({ servers: { legacy: { type: 'sse', url: remote.url } } });
    const client = await connect(hub, 'legacy');
    const stream = await client.get();
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream.body!);

    // Two subscriptions, one of them taken back: only the other is held.
    for (const uri of [WATCHED, 'fixture://other']) expect((await client.request('resources/subscribe', { uri })).response).toHaveProperty('result');
    expect((await client.request('resources/unsubscribe', { uri: 'fixture://other' })).response).toHaveProperty('result');
    expect(await remote.debug<string[][]>('/_debug/subscriptions')).toEqual([[WATCHED]]);

    // The server ends the event stream and forgets the session; the client sends nothing after.
    await remote.poke('/_debug/drop-sessions');
    await waitFor(async () => JSON.stringify(await remote.debug<string[][]>('/_debug/subscriptions')) === JSON.stringify([[WATCHED]]), 'the subscription renewed on a new upstream session');
    expect(await eventStreamGets(remote, '/sse')).toBe(2);

    expect(await notifyUpdate(remote)).toBe(1);
    // The first message on the client's stream since: the update, not the renewed subscribe's answer.
    const next = await reader.nextMessage();
    expect(next?.message).toMatchObject({ method: 'notifications/resources/updated', params: { uri: WATCHED } });
    // And the session goes on.
    expect((await client.request('resources/read', { uri: WATCHED })).response).toHaveProperty('result');
  });
});
