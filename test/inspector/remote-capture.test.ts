/**
 * Capture through the hub to remote servers, asserted on the inspector API: real sessions against
 * the remote fixtures (Streamable HTTP, legacy HTTP+SSE) on loopback. Paired exchanges with
 * latency on both legs, the upstream leg's HTTP details with credentials masked, cancellations,
 * timeouts, progress, a server that dies mid-call, and header secrets kept out of everything the
 * inspector produces; the hub's own error replies and its re-initialization of a lost upstream
 * session, told apart from what the server sent; the transport a server actually speaks.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent, Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { setLogLevel, setLogSink } from '../../src/main/core/log/logger.js';
import { onCleanup } from '../helpers/cleanup.js';
import { toolCall, toolText } from '../helpers/json-rpc.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { headerOf, REMOTE_HTTP_SERVER, REMOTE_SSE_SERVER, startFixture, type Fixture, type RecordedRequest } from '../remote/remote-harness.js';
import { filesUnder, openLive, readLive, startCaptureHub, type CaptureHub } from './inspector-harness.js';

const API_KEY = 'sk-remote-SECRET-0123456789abcdef';
const BEARER = 'remote-bearer-SECRET-fedcba9876';
const URL_KEY = 'url-query-SECRET-5a5a5a';

async function onlySession(hub: CaptureHub, server: string): Promise<InspectorSession> {
  const sessions = (await hub.sessions()).filter((s) => s.server === server && !s.debug);
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

function byMethod(exchanges: Exchange[], method: string): Exchange[] {
  return exchanges.filter((x) => x.method === method);
}

/** The upstream leg's HTTP exchanges with the server, as the inspector shows them. */
function upstreamHttp(events: CaptureEvent[]): CaptureEvent[] {
  return events.filter((e) => e.kind === 'http');
}

/** Waits until the fixture has received a `tools/call` of `tool`. */
async function serverGot(remote: Fixture, tool: string): Promise<void> {
  await waitFor(async () => (await remote.debug<RecordedRequest[]>('/_debug/requests')).some((r) => r.rpc?.includes(`tools/call:${tool}`)), `the server to get the ${tool} call`);
}

/** Initialize, a tool call and tools/list: every one an ok client exchange with latency on both legs. */
async function expectPairedCalls(hub: CaptureHub, session: InspectorSession): Promise<{ exchanges: Exchange[]; events: CaptureEvent[] }> {
  const exchanges = await hub.exchanges(session.id, true);
  expect(exchanges.map((x) => x.method)).toEqual(['initialize', 'tools/call', 'tools/list']);
  for (const x of exchanges) {
    expect(x).toMatchObject({ status: 'ok', requester: 'client', client: 'patchbay-hub-test' });
    expect(x.latencyMs).toBeGreaterThan(0);
    expect(x.upstreamLatencyMs).toBeGreaterThan(0);
    expect(x.upstreamLatencyMs!).toBeLessThanOrEqual(x.latencyMs!);
    expect(x.responseSeq).toBeGreaterThan(x.requestSeq);
  }
  expect(byMethod(exchanges, 'tools/call')[0]!.response).toMatchObject({ result: { content: [{ type: 'text', text: 'hello remote' }] } });
  const events = await hub.events(session.id);
  // The request crossed the client leg, then the upstream leg; its answer came back the other way.
  const call = events.filter((e) => e.method === 'tools/call');
  expect(call.map((e) => e.leg)).toEqual(['client', 'upstream']);
  expect(call[0]).toMatchObject({ origin: 'client', direction: 'to-server', kind: 'request', http: { method: 'POST', status: 200 } });
  expect(call[0]!.http!.headers!.authorization).toBe('[redacted]');
  const answer = events.filter((e) => e.kind === 'response' && e.id === byMethod(exchanges, 'tools/call')[0]!.requestId);
  expect(answer.map((e) => [e.leg, e.origin, e.direction])).toEqual([
    ['upstream', 'server', 'to-client'],
    ['client', 'server', 'to-client'],
  ]);
  const stats = await hub.call<{ servers: Array<{ server: string; calls: number; errors: number; p50Ms?: number; p95Ms?: number }> }>('inspector.stats', {});
  expect(stats.servers).toEqual([expect.objectContaining({ server: session.server, calls: 3, errors: 0 })]);
  expect(stats.servers[0]!.p95Ms).toBeGreaterThanOrEqual(stats.servers[0]!.p50Ms!);
  return { exchanges, events };
}

/** Every upstream HTTP exchange went to `url` (its query dropped) with the configured credentials masked. */
function expectMaskedHttp(http: CaptureEvent[], url: string, masked: string[]): void {
  expect(http.length).toBeGreaterThan(0);
  for (const e of http) {
    expect(e).toMatchObject({ leg: 'upstream', origin: 'hub', direction: 'to-server' });
    expect(e.http!.url).toBe(url);
    for (const name of masked) expect(e.http!.headers![name], `${name} of ${e.http!.method} ${e.http!.url}`).toBe('[redacted]');
  }
}

describe('inspector capture of remote servers', () => {
  it('Streamable HTTP: pairs requests with responses, latency on both legs, upstream HTTP details with credentials masked, per-server stats', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const hub = await startCaptureHub({
      servers: { remote: { url: remote.url, transport: 'streamable-http', headers: { 'X-API-Key': '${secret:REMOTE_KEY}', Authorization: 'Bearer ${secret:REMOTE_BEARER}' } } },
      secrets: { REMOTE_KEY: API_KEY, REMOTE_BEARER: BEARER },
    });
    const client = await connect(hub, 'remote');
    expect(await client.tool('echo', { text: 'hello remote' })).toBe('hello remote');
    await client.request('tools/list');
    await hub.settle();
    const session = await onlySession(hub, 'remote');
    expect(session).toMatchObject({ state: 'live', client: { name: 'patchbay-hub-test' }, protocolVersion: client.protocolVersion, transport: { client: 'streamable-http', upstream: 'streamable-http' } });
    expect(session.serverInfo?.name).toBe('remote-http-fixture');
    expect(session.messages.upstream.toServer).toBeGreaterThan(0);
    expect(session.messages.upstream.toClient).toBeGreaterThan(0);
    const { events } = await expectPairedCalls(hub, session);

    const http = upstreamHttp(events);
    expectMaskedHttp(http, remote.url, ['x-api-key', 'authorization']);
    // The initialize POST (answered on an event stream, naming the upstream session) and the initialized one (202).
    expect(http.find((e) => e.http!.method === 'POST' && e.http!.status === 200)!.http!.responseHeaders!['mcp-session-id']).toBeDefined();
    expect(http.some((e) => e.http!.method === 'POST' && e.http!.status === 202)).toBe(true);
    const text = JSON.stringify(events);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(BEARER);
  });

  it('legacy HTTP+SSE: the same pairing, upstream transport sse, the event stream and the message POSTs on the upstream leg', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const hub = await startCaptureHub({ servers: { legacy: { type: 'sse', url: remote.url, headers: { 'X-API-Key': '${secret:REMOTE_KEY}' } } }, secrets: { REMOTE_KEY: API_KEY } });
    const client = await connect(hub, 'legacy');
    expect(await client.tool('echo', { text: 'hello remote' })).toBe('hello remote');
    await client.request('tools/list');
    await hub.settle();
    const session = await onlySession(hub, 'legacy');
    expect(session).toMatchObject({ state: 'live', transport: { client: 'streamable-http', upstream: 'sse' } });
    expect(session.serverInfo?.name).toBe('remote-sse-fixture');
    const { events } = await expectPairedCalls(hub, session);
    const http = upstreamHttp(events);
    const origin = new URL(remote.url).origin;
    expectMaskedHttp(
      http.filter((e) => e.http!.method === 'GET'),
      remote.url,
      ['x-api-key'],
    );
    expect(http.filter((e) => e.http!.method === 'GET').map((e) => e.http!.status)).toEqual([200]);
    const posts = http.filter((e) => e.http!.method === 'POST');
    // initialize, initialized, tools/call, tools/list: each POSTed to the endpoint, answered on the stream.
    expect(posts.length).toBeGreaterThanOrEqual(4);
    expectMaskedHttp(posts, `${origin}/messages`, ['x-api-key']);
    for (const e of posts) expect(e.http!.status).toBe(202);
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it('marks a cancelled remote call cancelled, and a timed-out one timeout', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startCaptureHub({ servers: { fast: { url: remote.url, transport: 'streamable-http' }, slow: { url: remote.url, transport: 'streamable-http', requestTimeoutMs: 1000 } }, tickMs: 50 });
    const client = await connect(hub, 'fast');
    const res = await client.post(toolCall(5, 'sleep', { ms: 30_000 }));
    const reader = new SseReader(res.body!);
    await reader.nextEvent(); // the priming event
    await serverGot(remote, 'sleep');
    await client.notify('notifications/cancelled', { requestId: 5, reason: 'user gave up' });
    expect(await withTimeout(reader.next(), 5000, 'the cancelled stream to end')).toBeUndefined();

    const slow = await connect(hub, 'slow');
    const timedOut = await slow.callTool('sleep', { ms: 30_000 });
    expect(timedOut.response.error?.message).toMatch(/timed out/);
    await hub.settle();

    const fast = await onlySession(hub, 'fast');
    const cancelled = byMethod(await hub.exchanges(fast.id), 'tools/call')[0]!;
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'user gave up', requestId: 5 });
    expect(cancelled.cancelSeq).toBeGreaterThan(cancelled.requestSeq);
    // The client's cancellation went on to the server.
    expect((await hub.events(fast.id)).filter((e) => e.method === 'notifications/cancelled').map((e) => [e.leg, e.origin])).toEqual([
      ['client', 'client'],
      ['upstream', 'client'],
    ]);
    const slowSession = await onlySession(hub, 'slow');
    const timeout = byMethod(await hub.exchanges(slowSession.id), 'tools/call')[0]!;
    expect(timeout.status).toBe('timeout');
    expect(timeout.reason).toMatch(/did not answer 'tools\/call' within 1s/);
    expect(timeout.cancelSeq).toBeDefined();
    // The hub told the server itself.
    const hubCancel = (await hub.events(slowSession.id)).filter((e) => e.method === 'notifications/cancelled');
    expect(hubCancel).toEqual([expect.objectContaining({ leg: 'upstream', origin: 'hub', note: 'timeout', seq: timeout.cancelSeq })]);
    const stats = await hub.call<{ servers: Array<{ server: string; cancelled: number; timeouts: number }> }>('inspector.stats', {});
    expect(stats.servers).toHaveLength(2);
    expect(stats.servers).toEqual(expect.arrayContaining([expect.objectContaining({ server: 'fast', cancelled: 1, timeouts: 0 }), expect.objectContaining({ server: 'slow', cancelled: 0, timeouts: 1 })]));
  });

  it("attaches the remote server's progress notifications to their request", async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startCaptureHub({ servers: { remote: { url: remote.url, transport: 'streamable-http' } } });
    const client = await connect(hub, 'remote');
    const out = await client.callTool('progress', { steps: 3, intervalMs: 20 }, { progressToken: 'tok-1' });
    expect(out.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
    await hub.settle();
    const session = await onlySession(hub, 'remote');
    const call = byMethod(await hub.exchanges(session.id), 'tools/call')[0]!;
    expect(call.status).toBe('ok');
    expect(call.progressCount).toBe(3);
    expect(call.progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    for (const p of call.progress) {
      expect(p.seq).toBeGreaterThan(call.requestSeq);
      expect(p.seq).toBeLessThan(call.responseSeq!);
    }
    const progress = (await hub.events(session.id)).filter((e) => e.method === 'notifications/progress');
    expect(progress.map((e) => e.leg)).toEqual(['upstream', 'client', 'upstream', 'client', 'upstream', 'client']);
  });

  it('a remote server killed mid-call: the pending exchange is closed with the error the client got; the session shows the failed attempts and the recovery', async () => {
    let remote = await startFixture(REMOTE_HTTP_SERVER);
    const port = remote.port;
    const hub = await startCaptureHub({ servers: { r: { url: remote.url, transport: 'streamable-http' } } });
    const client = await connect(hub, 'r');
    const pending = client.callTool('sleep', { ms: 30_000 }, undefined, 20_000);
    await serverGot(remote, 'sleep');
    await remote.kill();
    const died = await pending;
    // (Today: "server 'r' closed the response stream of 'tools/call' without answering it".)
    expect(died.response.error?.message).toMatch(/server 'r'/);
    const down = await client.callTool('echo', { text: 'while down' });
    expect(down.response.error?.message).toMatch(/server 'r' could not be reached: connection refused/);
    await hub.settle();

    // A remote session outlives its server (the next call re-initializes): live, nothing pending.
    const session = await onlySession(hub, 'r');
    expect(session).toMatchObject({ state: 'live', exchanges: { pending: 0 } });
    expect(session.errors).toBe(2);
    const [sleep, echo] = byMethod(await hub.exchanges(session.id), 'tools/call');
    for (const [x, outcome] of [
      [sleep!, died],
      [echo!, down],
    ] as const) {
      expect(['error', 'orphaned']).toContain(x.status);
      expect(x.endedAt).toBeDefined();
      expect(x.error?.message ?? x.reason).toBe(outcome.response.error!.message);
    }
    // The POST that found nobody listening is on the upstream leg, without a status.
    const events = await hub.events(session.id);
    expect(upstreamHttp(events).some((e) => e.seq > echo!.requestSeq && e.seq < echo!.responseSeq! && e.http!.method === 'POST' && e.http!.status === undefined)).toBe(true);

    remote = await startFixture(REMOTE_HTTP_SERVER, ['--port', String(port)]);
    expect(await client.tool('echo', { text: 'back' })).toBe('back');
    await hub.settle();
    expect((await onlySession(hub, 'r')).id).toBe(session.id);
    const back = byMethod(await hub.exchanges(session.id), 'tools/call')[2]!;
    expect(back.status).toBe('ok');
    // The new server did not know the old upstream session (404); the hub opened a new one.
    const after = upstreamHttp(await hub.events(session.id)).filter((e) => e.seq > back.requestSeq && e.seq < back.responseSeq!);
    expect(after.map((e) => e.http!.status)).toContain(404);
    expect(after.some((e) => e.http!.status === 200 && e.http!.responseHeaders?.['mcp-session-id'] !== undefined)).toBe(true);
  });

  // The errors RemoteUpstream writes itself (a stream closed unanswered, connection refused) come
  // through `onlocalreply`, not `onmessage`: nothing crossed the upstream leg, so they are the hub's
  // own answers (note `upstream-closed`) on the client leg only, and the request is `orphaned`.
  it('a call the dead remote never answered is orphaned, and the error the hub wrote is the hub’s, on the client leg only', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const hub = await startCaptureHub({ servers: { r: { url: remote.url, transport: 'streamable-http' } } });
    const client = await connect(hub, 'r');
    const pending = client.callTool('sleep', { ms: 30_000 }, undefined, 20_000);
    await serverGot(remote, 'sleep');
    await remote.kill();
    expect((await pending).response.error).toBeDefined();
    await hub.settle();
    const session = await onlySession(hub, 'r');
    const sleep = byMethod(await hub.exchanges(session.id), 'tools/call')[0]!;
    const answers = (await hub.events(session.id)).filter((e) => e.kind === 'response' && e.id === sleep.requestId);
    expect(answers.map((e) => [e.leg, e.origin])).toEqual([['client', 'hub']]);
    expect(sleep.status).toBe('orphaned');
    expect(sleep.upstreamLatencyMs).toBeUndefined();
  });

  // RemoteUpstream re-initializes a new upstream session on its own link (replayInitialize in
  // remote-upstream.ts) and reports it through `onreinitialize`: the replayed initialize is captured
  // as the hub's (note `replay-initialize`) and the restart counted, as for stdio.
  it('a remote session re-initialized after its server restarted counts the restart and shows the replayed initialize', async () => {
    let remote = await startFixture(REMOTE_HTTP_SERVER);
    const port = remote.port;
    const hub = await startCaptureHub({ servers: { r: { url: remote.url, transport: 'streamable-http' } } });
    const client = await connect(hub, 'r');
    expect(await client.tool('echo', { text: 'one' })).toBe('one');
    await remote.kill();
    remote = await startFixture(REMOTE_HTTP_SERVER, ['--port', String(port)]);
    expect(await client.tool('echo', { text: 'two' })).toBe('two');
    await hub.settle();
    const session = await onlySession(hub, 'r');
    const replayed = (await hub.events(session.id)).filter((e) => e.method === 'initialize' && e.origin === 'hub');
    expect(replayed.map((e) => e.leg)).toEqual(['upstream']);
    expect(session.restarts).toBe(1);
  });

  it('a server configured type "http" that fell back to HTTP+SSE shows upstream transport sse, with a note on the timeline', async () => {
    const remote = await startFixture(REMOTE_SSE_SERVER);
    const hub = await startCaptureHub({ servers: { legacy: { type: 'http', url: remote.url } } });
    const client = await connect(hub, 'legacy');
    expect(await client.tool('echo', { text: 'via fallback' })).toBe('via fallback');
    await hub.settle();
    const session = await onlySession(hub, 'legacy');
    expect(session.transport.upstream).toBe('sse');
    const notes = (await hub.events(session.id)).filter((e) => e.kind === 'lifecycle').map((e) => e.text);
    expect(notes).toContainEqual(expect.stringContaining('fell back to the legacy HTTP+SSE transport'));
  });

  it('keeps header and URL secrets and the hub token out of events, search, JSONL and HAR exports, the live stream, history and logs', async () => {
    const logs: string[] = [];
    setLogLevel('debug');
    setLogSink((record) => logs.push(JSON.stringify(record)));
    onCleanup(() => {
      setLogSink(undefined);
      setLogLevel('warn');
    });
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--api-key-header', 'X-API-Key', '--api-key', API_KEY]);
    const hub = await startCaptureHub({
      servers: { remote: { url: `${remote.url}?k=\${secret:URL_KEY}`, transport: 'streamable-http', headers: { 'X-API-Key': '${secret:REMOTE_KEY}', Authorization: 'Bearer ${secret:REMOTE_BEARER}' } } },
      secrets: { REMOTE_KEY: API_KEY, REMOTE_BEARER: BEARER, URL_KEY },
    });
    const token = hub.token!;
    const secrets = { API_KEY, BEARER, URL_KEY, token };
    const live = await openLive(hub);

    const client = await connect(hub, 'remote');
    const echoed = toolText((await client.callTool('echo', { text: `key=${API_KEY} bearer=${BEARER} url=${URL_KEY} token=${token}` })).response);
    expect(echoed).toContain(API_KEY);
    await client.request('tools/list');
    // The secrets did reach the server.
    const seen = (await remote.debug<RecordedRequest[]>('/_debug/requests')).filter((r) => r.path === '/mcp');
    for (const r of seen) expect([headerOf(r, 'x-api-key'), headerOf(r, 'authorization')]).toEqual([API_KEY, `Bearer ${BEARER}`]);
    await hub.settle();

    const session = await onlySession(hub, 'remote');
    const outputs: Record<string, unknown> = {};
    outputs.sessions = await hub.call('inspector.sessions.list', {});
    outputs.session = await hub.call('inspector.sessions.get', { session: session.id });
    outputs.events = await hub.events();
    outputs.exchanges = await hub.exchanges(session.id, true);
    outputs.stats = await hub.call('inspector.stats', {});
    for (const [name, value] of Object.entries(secrets)) {
      outputs[`search:${name}`] = await hub.call('inspector.search', { query: value });
      outputs[`search:${name}:prefix`] = await hub.call('inspector.search', { query: value.slice(0, 12) });
    }
    // Search works on what was kept: the mask is found where the value was.
    outputs.searchMask = await hub.call<{ hits: CaptureEvent[] }>('inspector.search', { query: '[secret:REMOTE_KEY]' });
    expect((outputs.searchMask as { hits: CaptureEvent[] }).hits.length).toBeGreaterThan(0);
    outputs.jsonl = await hub.call('inspector.export', { session: session.id, format: 'jsonl' });
    outputs.har = await hub.call('inspector.export', { session: session.id, format: 'har' });
    const cursor = (await hub.call<{ cursor: number }>('inspector.status', {})).cursor;
    outputs.live = (await readLive(live.reader, (events) => events.length > 0 && events[events.length - 1]!.seq >= cursor)).events;
    outputs.liveRaw = live.reader.seen.map((item) => (item.kind === 'event' ? item.data : item.text));
    live.close();

    const text = JSON.stringify(outputs);
    // The masks are where the values were: in the echoed message, in the headers.
    expect(text).toContain('key=[secret:REMOTE_KEY] bearer=[secret:REMOTE_BEARER] url=[secret:URL_KEY] token=[secret:hub-token]');
    expect(text).toContain('"x-api-key":"[redacted]"');
    const httpEvents = upstreamHttp(outputs.live as CaptureEvent[]);
    expectMaskedHttp(httpEvents, remote.url, ['x-api-key', 'authorization']);
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} in the API output`).toBe(false);
      for (const suffix of ['', ':prefix']) expect((outputs[`search:${name}${suffix}`] as { hits: CaptureEvent[] }).hits, `search for ${name}${suffix}`).toEqual([]);
    }

    // Disk: the history files and everything else the engine wrote (not the secret store, the
    // token file or the config, which hold them or their references by design).
    await hub.close();
    const files = (await filesUnder(hub.dataDir)).filter((f) => !/(secrets\.json|hub-token|config\.json)(\.bak)?$/.test(f));
    expect(files.some((f) => f.endsWith('.jsonl'))).toBe(true);
    for (const file of files) {
      const content = await readFile(file, 'utf8');
      for (const [name, value] of Object.entries(secrets)) expect(content.includes(value), `${name} in ${file}`).toBe(false);
    }
    for (const line of logs) for (const [name, value] of Object.entries(secrets)) expect(line.includes(value), `${name} in the log: ${line}`).toBe(false);
  });
});
