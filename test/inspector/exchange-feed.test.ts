/**
 * The exchange feed beneath the inspector (src/main/core/traffic/): a subscriber of the running
 * engine (`engine.traffic.onExchange`) gets every completed exchange paired and redacted, with its
 * session, eras, timings, sizes and outcome — over real child processes and real HTTP; a
 * profile's traffic with its members too, nested under the client's session. With capture off, a
 * subscriber turns the pipeline on by itself and the inspector stores nothing.
 */
import { describe, expect, it } from 'vitest';
import type { RunningEngine } from '../../src/main/core/engine/engine.js';
import type { ExchangeFeedOptions } from '../../src/main/core/traffic/exchange-feed.js';
import type { ObservedExchange } from '../../src/main/core/traffic/observed-exchange.js';
import type { InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { onCleanup } from '../helpers/cleanup.js';
import { toolCall, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';
import { alphaServer, betaServer } from '../profiles/profile-harness.js';
import { startCaptureHub } from './inspector-harness.js';

const FEED_SECRET = 'feed-secret-value-8c1e55';
const MODERN = '2026-07-28';

/** One subscriber: everything it got, and a wait for the first exchange that matches. */
class Subscriber {
  readonly got: ObservedExchange[] = [];
  readonly off: () => void;
  private waiters: Array<{ match: (x: ObservedExchange) => boolean; resolve: (x: ObservedExchange) => void }> = [];

  constructor(engine: RunningEngine, options?: ExchangeFeedOptions) {
    this.off = engine.traffic.onExchange((x) => {
      this.got.push(x);
      for (const w of this.waiters.filter((w) => w.match(x))) w.resolve(x);
      this.waiters = this.waiters.filter((w) => !w.match(x));
    }, options);
    onCleanup(this.off);
  }

  next(match: (x: ObservedExchange) => boolean, what: string): Promise<ObservedExchange> {
    const had = this.got.find(match);
    if (had !== undefined) return Promise.resolve(had);
    return withTimeout(new Promise((resolve) => this.waiters.push({ match, resolve })), 10_000, what);
  }
}

const call = (server: string, tool: string) => (x: ObservedExchange) => x.session.serverId === server && x.request.method === 'tools/call' && x.request.target === tool;

describe('the exchange feed (engine.traffic.onExchange)', () => {
  it('hands every subscriber paired, redacted exchanges: ok, failed tool, JSON-RPC error, timeout, cancellation, a bridged modern call, nested sampling, progress', async () => {
    const hub = await startCaptureHub({
      servers: { fx: everythingServer(), probe: probeServer(), slow: probeServer({ requestTimeoutMs: 300 }) },
      secrets: { FEED_SECRET },
      tickMs: 50,
    });
    const plain = new Subscriber(hub.engine);
    const texts = new Subscriber(hub.engine, { texts: true });
    const fx = await connect(hub, 'fx', { capabilities: { sampling: {} } });

    // A legacy (2025) call, with a secret in its argument that the server echoes back.
    expect(await fx.tool('echo', { text: `the key is ${FEED_SECRET}` })).toContain(FEED_SECRET);
    const echo = await plain.next(call('fx', 'echo'), 'the echo call');
    expect(echo).toMatchObject({
      requester: 'client',
      status: 'ok',
      request: { method: 'tools/call', target: 'echo' },
      eras: { client: 'legacy', server: 'legacy', bridged: false },
      protocolVersion: fx.protocolVersion,
      client: { name: 'patchbay-hub-test', version: '1.0.0' },
      session: { serverId: 'fx', clientTransport: 'streamable-http', upstreamTransport: 'stdio', era: 'legacy', debug: false },
      progressCount: 0,
      inputRounds: 0,
    });
    expect(echo.error).toBeUndefined();
    expect(echo.texts).toBeUndefined();
    expect(echo.session.profile).toBeUndefined();
    expect(echo.requestBytes).toBeGreaterThan(FEED_SECRET.length);
    expect(echo.responseBytes).toBeGreaterThan(FEED_SECRET.length);
    expect(echo.durationMs).toBeGreaterThan(0);
    expect(echo.upstreamDurationMs).toBeGreaterThan(0);
    expect(echo.upstreamDurationMs!).toBeLessThanOrEqual(echo.durationMs);
    expect(echo.endedAt).toBeCloseTo(echo.startedAt + echo.durationMs, 2);
    // The same exchange, under the same id, is what the inspector stores.
    const stored = (await hub.exchanges(echo.session.id)).find((x) => x.id === echo.id);
    expect(stored).toMatchObject({ method: 'tools/call', requestId: echo.request.id, status: 'ok', latencyMs: echo.durationMs, upstreamLatencyMs: echo.upstreamDurationMs });

    // Only the subscriber that asked gets the texts, redacted as the inspector redacts.
    const echoTexts = await texts.next((x) => x.id === echo.id, 'the echo call, with texts');
    expect(JSON.parse(echoTexts.texts!.params!)).toEqual({ name: 'echo', arguments: { text: 'the key is [secret:FEED_SECRET]' } });
    expect(JSON.parse(echoTexts.texts!.result!)).toMatchObject({ content: [{ type: 'text', text: 'the key is [secret:FEED_SECRET]' }] });
    expect(echoTexts.texts!.error).toBeUndefined();
    expect({ ...echoTexts, texts: undefined }).toEqual({ ...echo, texts: undefined });

    // A tool that failed: answered, with isError.
    await fx.callTool('test_error_handling');
    const failed = await plain.next(call('fx', 'test_error_handling'), 'the failing tool');
    expect(failed).toMatchObject({ status: 'error', error: { kind: 'tool_error', message: 'This tool intentionally returns an error for testing' } });
    expect(failed.error!.code).toBeUndefined();

    // A JSON-RPC error answer.
    const probe = await connect(hub, 'probe');
    const unknown = await probe.callTool('no_such_tool');
    expect(unknown.response.error?.code).toBe(-32602);
    const rpcError = await plain.next(call('probe', 'no_such_tool'), 'the JSON-RPC error');
    expect(rpcError).toMatchObject({ status: 'error', error: { kind: 'jsonrpc', code: -32602, message: 'unknown tool no_such_tool' } });
    expect((await texts.next((x) => x.id === rpcError.id, 'the error, with texts')).texts).toMatchObject({ error: expect.stringContaining('-32602') });

    // Progress notifications are counted on their call.
    await probe.callTool('slow_progress', { steps: 3, intervalMs: 20 }, { progressToken: 'feed-progress' });
    expect(await plain.next(call('probe', 'slow_progress'), 'the progress call')).toMatchObject({ status: 'ok', progressCount: 3 });

    // A cancelled request: the client gave up.
    const hang = await probe.post(toolCall(50, 'hang'));
    const hangReader = new SseReader(hang.body!);
    await hangReader.nextEvent(); // the priming event: the call is in flight
    await probe.notify('notifications/cancelled', { requestId: 50, reason: 'user gave up' });
    const cancelled = await plain.next(call('probe', 'hang'), 'the cancelled call');
    expect(cancelled).toMatchObject({ status: 'cancelled', request: { id: 50 }, error: { kind: 'cancelled', message: 'user gave up' } });
    expect(cancelled.responseBytes).toBeUndefined();

    // A request that times out: the hub's deadline, and the hub's answer.
    const slow = await connect(hub, 'slow');
    expect((await slow.callTool('hang')).response.error?.message).toMatch(/timed out/);
    const timedOut = await plain.next(call('slow', 'hang'), 'the timed-out call');
    expect(timedOut).toMatchObject({ status: 'timeout', error: { kind: 'timeout', code: -32603, message: expect.stringMatching(/did not answer 'tools\/call' within 300ms/) } });

    // A server→client request (sampling) during a call is nested under it.
    const sampling = await fx.post(toolCall(60, 'test_sampling', { prompt: 'say hi' }));
    const samplingReader = new SseReader(sampling.body!);
    const ask = await samplingReader.nextMessage();
    expect(ask?.message.method).toBe('sampling/createMessage');
    await fx.post({ jsonrpc: '2.0', id: ask!.message.id, result: { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'test', stopReason: 'endTurn' } });
    expect((await samplingReader.nextMessage())?.message.id).toBe(60);
    const outer = await plain.next(call('fx', 'test_sampling'), 'the sampling tool call');
    const nested = await plain.next((x) => x.request.method === 'sampling/createMessage', 'the sampling request');
    expect(nested).toMatchObject({ requester: 'server', status: 'ok', parent: outer.id, session: { id: outer.session.id } });
    expect(outer).toMatchObject({ requester: 'client', status: 'ok' });
    expect(outer.parent).toBeUndefined();

    // A 2026-07-28 client's call, bridged by the hub to the 2025 server.
    const modern = await post(
      hub,
      'fx',
      { jsonrpc: '2.0', id: 70, method: 'tools/call', params: { name: 'echo', arguments: { text: 'modern' }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern-feed', version: '2' }, 'io.modelcontextprotocol/clientCapabilities': {} } } },
      { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' } },
    );
    expect(((await messagesOfResponse(modern)).messages.at(-1) as JsonRpcMessage).result).toMatchObject({ content: [{ text: 'modern' }] });
    const bridged = await plain.next((x) => call('fx', 'echo')(x) && x.session.era === 'modern', 'the modern call');
    expect(bridged).toMatchObject({
      requester: 'client',
      status: 'ok',
      request: { id: 70, method: 'tools/call', target: 'echo' },
      eras: { client: 'modern', server: 'legacy', bridged: true },
      protocolVersion: MODERN,
      client: { name: 'modern-feed', version: '2' },
    });
    expect(bridged.upstreamDurationMs).toBeGreaterThanOrEqual(0);

    // The statistics are a subscriber of the same feed.
    const stats = await hub.call<{ servers: Array<{ server: string; calls: number; errors: number; cancelled: number; timeouts: number }> }>('inspector.stats', {});
    expect(stats.servers).toEqual(
      expect.arrayContaining([expect.objectContaining({ server: 'probe', cancelled: 1, errors: 1 }), expect.objectContaining({ server: 'slow', timeouts: 1, errors: 1 })]),
    );
    // Nothing any subscriber got holds the secret or the hub token.
    const everything = JSON.stringify([plain.got, texts.got]);
    expect(everything).toContain('[secret:FEED_SECRET]');
    expect(everything).not.toContain(FEED_SECRET);
    expect(everything).not.toContain(hub.token!);
    expect(plain.got.every((x) => x.texts === undefined)).toBe(true);
  });

  it("a profile's member traffic reaches subscribers: the member's own names, the profile, the client's session as parent", async () => {
    const hub = await startHub({ servers: { alpha: alphaServer(), beta: betaServer() }, config: { profiles: { pair: { servers: ['alpha', 'beta'] } } } });
    const feed = new Subscriber(hub.engine, { texts: true });
    const client = await connect(hub, '@pair');
    expect(await client.tool('alpha__echo', { text: 'to alpha' })).toBe('alpha: to alpha');
    // The client's call, on the profile's session, under the profile's prefixed name …
    const outer = await feed.next(call('@pair', 'alpha__echo'), "the client's call to the profile");
    expect(outer.session.profile).toBeUndefined();
    // … and what the profile asked the member, under the member's own name, in a session nested under the client's.
    const member = await feed.next(call('alpha', 'echo'), "the profile's call to its member");
    expect(member).toMatchObject({
      requester: 'client',
      status: 'ok',
      session: { serverId: 'alpha', clientTransport: 'profile', profile: { id: '@pair', parentSession: outer.session.id } },
      client: { name: 'patchbay-hub-test' },
    });
    expect(JSON.parse(member.texts!.params!)).toMatchObject({ name: 'echo', arguments: { text: 'to alpha' } });
    expect(member.startedAt).toBeGreaterThanOrEqual(outer.startedAt);
    expect(member.endedAt).toBeLessThanOrEqual(outer.endedAt);
  });

  it('with capture off, nothing observes until a subscriber asks; then it gets exchanges and the inspector stores none', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer() }, capture: false });
    const traffic = hub.engine.traffic;
    // A passive subscriber (as the inspector's statistics are) does not turn the pipeline on.
    const passive = new Subscriber(hub.engine, { passive: true });
    expect(traffic.active).toBe(false);
    const unseen = await connect(hub, 'probe');
    await unseen.tool('echo', { text: 'unseen' });
    // No watch for the session: no item was queued, no event numbered.
    expect(traffic.seq).toBe(0);
    expect(traffic.queue.length).toBe(0);

    const feed = new Subscriber(hub.engine);
    expect(traffic.active).toBe(true);
    const client = await connect(hub, 'probe');
    await client.tool('echo', { text: 'seen' });
    const echo = await feed.next((x) => x.request.target === 'echo', 'the echo call');
    expect(echo).toMatchObject({ status: 'ok', protocolVersion: client.protocolVersion, client: { name: 'patchbay-hub-test' }, eras: { client: 'legacy', server: 'legacy', bridged: false } });
    expect(echo.requestBytes).toBeGreaterThan(0);
    // The session opened before the subscriber came stays unobserved.
    expect(new Set(feed.got.map((x) => x.session.id)).size).toBe(1);
    expect(feed.got.map((x) => x.request.method)).toEqual(['initialize', 'tools/call']);
    expect(await passive.next((x) => x.id === echo.id, 'the passive subscriber')).toBe(echo);

    // The inspector stores nothing; its statistics (passive) counted what the pipeline saw.
    const sessions = await hub.call<{ sessions: InspectorSession[] }>('inspector.sessions.list', {});
    expect(sessions.sessions).toEqual([]);
    expect(await hub.call('inspector.status', {})).toMatchObject({ enabled: false, cursor: 0 });
    const stats = await hub.call<{ servers: Array<{ server: string; calls: number }> }>('inspector.stats', {});
    expect(stats.servers).toEqual([expect.objectContaining({ server: 'probe', calls: 2 })]);

    feed.off();
    expect(traffic.active).toBe(false);
  });
});
