/**
 * What a `RemoteUpstream` tells its session besides the server's messages, for the inspector:
 * the errors it writes itself (`onmessage` with `local` set, the same text the client gets) and a
 * re-initialization after the server lost the session (`reinitialize` events). Real fixtures on loopback.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/main/core/protocol/json-rpc.js';
import { createLogger } from '../../src/main/core/log/logger.js';
import { createRemoteUpstream } from '../../src/main/core/upstream/remote-connect.js';
import { createRemoteFetch } from '../../src/main/core/upstream/remote-fetch.js';
import type { RemoteUpstream } from '../../src/main/core/upstream/remote-upstream.js';
import type { UpstreamEvent } from '../../src/main/core/upstream/upstream.js';
import { onCleanup } from '../helpers/cleanup.js';
import { waitFor } from '../helpers/waits.js';
import { freePort, REMOTE_HTTP_SERVER, startFixture } from './remote-harness.js';

type UpstreamReinitialize = Extract<UpstreamEvent, { type: 'reinitialize' }>;

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
  it('an error it writes itself is marked local, with the very text the client gets', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const upstream = upstreamFor(url);
    const local: string[] = [];
    const server: string[] = [];
    upstream.onmessage = (_m, raw, isLocal) => (isLocal ? local : server).push(raw);
    upstream.send(INITIALIZE);
    await waitFor(() => local.length > 0, 'the local error');
    expect(server).toEqual([]);
    expect(JSON.parse(local[0]!)).toMatchObject({ id: 1, error: { message: expect.stringMatching(/^server 'r' could not be reached: connection refused/), data: { server: 'r', cause: 'refused' } } });
  });

  it('a re-initialization after the server lost the session is reported step by step; the replayed answer goes no further', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const upstream = upstreamFor(remote.url);
    const messages: JsonRpcMessage[] = [];
    const steps: UpstreamReinitialize[] = [];
    upstream.onmessage = (m) => messages.push(m);
    upstream.onevent = (event) => {
      if (event.type === 'reinitialize') steps.push(event);
    };
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
