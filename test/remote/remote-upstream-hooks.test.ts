/**
 * What a `RemoteUpstream` tells its session besides the server's messages, for the inspector:
 * the errors it writes itself (`onlocalreply`, the same text the client gets) and a
 * re-initialization after the server lost the session (`onreinitialize`). Real fixtures on loopback.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/main/core/protocol/json-rpc.js';
import { createLogger } from '../../src/main/core/log/logger.js';
import { createRemoteUpstream } from '../../src/main/core/upstream/remote-connect.js';
import { createRemoteFetch } from '../../src/main/core/upstream/remote-fetch.js';
import type { RemoteUpstream } from '../../src/main/core/upstream/remote-upstream.js';
import type { UpstreamReinitialize } from '../../src/main/core/upstream/upstream.js';
import { onCleanup, waitFor } from '../helpers/hub-harness.js';
import { freePort, REMOTE_HTTP_SERVER, startFixture } from './remote-harness.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } } as const;

function upstreamFor(url: string): RemoteUpstream {
  const config = { url, transport: 'streamable-http' as const };
  const upstream = createRemoteUpstream('r', config, config, { fetch: createRemoteFetch({}), logger: createLogger('test') });
  onCleanup(() => upstream.close());
  return upstream;
}

function idOf(m: JsonRpcMessage): unknown {
  return (m as { id?: unknown }).id;
}

describe('RemoteUpstream hooks', () => {
  it('an error it writes itself goes to onlocalreply, not onmessage; without onlocalreply, onmessage gets the very same text', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const told = upstreamFor(url);
    const local: string[] = [];
    const server: string[] = [];
    told.onlocalreply = (_m, raw) => local.push(raw);
    told.onmessage = (_m, raw) => server.push(raw);
    told.send(INITIALIZE);
    await waitFor(() => local.length > 0, 'the local error');
    expect(server).toEqual([]);
    expect(JSON.parse(local[0]!)).toMatchObject({ id: 1, error: { message: expect.stringMatching(/^server 'r' could not be reached: connection refused/), data: { server: 'r', cause: 'refused' } } });

    const untold = upstreamFor(url);
    const fallback: string[] = [];
    untold.onmessage = (_m, raw) => fallback.push(raw);
    untold.send(INITIALIZE);
    await waitFor(() => fallback.length > 0, 'the error on onmessage');
    expect(fallback).toEqual(local);
  });

  it('a re-initialization after the server lost the session is reported step by step; the replayed answer goes no further', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const upstream = upstreamFor(remote.url);
    const messages: JsonRpcMessage[] = [];
    const steps: UpstreamReinitialize[] = [];
    upstream.onmessage = (m) => messages.push(m);
    upstream.onlocalreply = (m) => messages.push(m);
    upstream.onreinitialize = (step) => steps.push(step);
    const answered = (id: number): Promise<JsonRpcMessage> => waitFor(() => messages.find((m) => idOf(m) === id), `the answer to ${id}`);

    upstream.send(INITIALIZE);
    expect((await answered(1)) as object).toHaveProperty('result');
    upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    upstream.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } });
    expect(JSON.stringify(await answered(2))).toContain('one');
    expect(steps).toEqual([]);

    await remote.poke('/_debug/drop-sessions');
    upstream.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'two' } } });
    expect(JSON.stringify(await answered(3))).toContain('two');
    expect(steps.map((s) => [s.step, 'message' in s ? ('method' in s.message ? s.message.method : 'answer') : undefined])).toEqual([
      ['sent', 'initialize'],
      ['answered', 'answer'],
      ['opened', undefined],
      ['sent', 'notifications/initialized'],
    ]);
    const [sent, answer] = steps as [Extract<UpstreamReinitialize, { step: 'sent' }>, Extract<UpstreamReinitialize, { step: 'answered' }>];
    expect(idOf(sent.message)).toMatch(/^patchbay-reinit-/);
    expect(sent.message).toMatchObject({ params: INITIALIZE.params });
    expect(JSON.parse(answer.raw)).toMatchObject({ id: idOf(sent.message), result: { protocolVersion: expect.any(String) } });
    // Only the client's own requests were answered on onmessage.
    expect(messages.map(idOf)).toEqual([1, 2, 3]);
  });
});
