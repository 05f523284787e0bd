/**
 * Capture through the hub, asserted on the inspector API: real sessions against the stdio
 * fixtures, paired exchanges with latency, cancellations, timeouts, progress, crashes, id
 * collisions across directions, hub-originated messages and shared mode.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { eventsFromLine } from '../../src/main/core/inspector/event-line.js';
import type { Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { toolCall } from '../helpers/json-rpc.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { filesUnder, startCaptureHub, type CaptureHub } from './inspector-harness.js';

async function onlySession(hub: CaptureHub, server: string): Promise<InspectorSession> {
  const sessions = (await hub.sessions()).filter((s) => s.server === server && !s.debug);
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

function byMethod(exchanges: Exchange[], method: string): Exchange[] {
  return exchanges.filter((x) => x.method === method);
}

describe('inspector capture', () => {
  it('pairs every request with its response, with latency on both legs, and knows the client', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx');
    expect(await client.tool('echo', { text: 'hello' })).toBe('hello');
    await client.request('tools/list');
    await hub.settle();
    const session = await onlySession(hub, 'fx');
    expect(session).toMatchObject({ state: 'live', client: { name: 'patchbay-hub-test', version: '1.0.0' }, protocolVersion: client.protocolVersion, transport: { client: 'streamable-http', upstream: 'stdio' } });
    expect(session.serverInfo?.name).toBe('patchbay-everything-fixture');
    const exchanges = await hub.exchanges(session.id, true);
    expect(exchanges.map((x) => x.method)).toEqual(['initialize', 'tools/call', 'tools/list']);
    for (const x of exchanges) {
      expect(x).toMatchObject({ status: 'ok', requester: 'client', client: 'patchbay-hub-test' });
      expect(x.latencyMs).toBeGreaterThan(0);
      expect(x.upstreamLatencyMs).toBeGreaterThan(0);
      expect(x.upstreamLatencyMs!).toBeLessThanOrEqual(x.latencyMs!);
      expect(x.responseSeq).toBeGreaterThan(x.requestSeq);
    }
    expect(byMethod(exchanges, 'tools/call')[0]!.response).toMatchObject({ result: { content: [{ type: 'text', text: 'hello' }] } });
    const events = await hub.events(session.id);
    const call = events.filter((e) => e.method === 'tools/call');
    expect(call.map((e) => e.leg)).toEqual(['client', 'upstream']);
    expect(call[0]).toMatchObject({ origin: 'client', direction: 'to-server', kind: 'request', http: { method: 'POST', status: 200 } });
    expect(call[0]!.http!.headers!.authorization).toBe('[redacted]');
    expect(call[0]!.size).toBeGreaterThan(0);
    // The initialized notification has no exchange, but is in the timeline on both legs.
    expect(events.filter((e) => e.method === 'notifications/initialized').map((e) => e.http?.status ?? e.leg)).toEqual([202, 'upstream']);
    const stats = await hub.call<{ servers: Array<{ server: string; calls: number; errors: number; p50Ms?: number; p95Ms?: number }> }>('inspector.stats', {});
    expect(stats.servers).toEqual([expect.objectContaining({ server: 'fx', calls: 3, errors: 0 })]);
    expect(stats.servers[0]!.p95Ms).toBeGreaterThanOrEqual(stats.servers[0]!.p50Ms!);
  });

  it('keys pairing by direction: the client id 0 and the server sampling request id 0 are two exchanges', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx', { capabilities: { sampling: {} } });
    const res = await client.post(toolCall(1, 'test_sampling', { prompt: 'say hi' }));
    const reader = new SseReader(res.body!);
    const ask = await reader.nextMessage();
    expect(ask?.message.method).toBe('sampling/createMessage');
    expect(ask?.message.id).toBe(0);
    const ack = await client.post({ jsonrpc: '2.0', id: 0, result: { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'test', stopReason: 'endTurn' } });
    expect(ack.status).toBe(202);
    expect((await reader.nextMessage())?.message.id).toBe(1);
    await hub.settle();
    const session = await onlySession(hub, 'fx');
    const exchanges = await hub.exchanges(session.id, true);
    const init = byMethod(exchanges, 'initialize')[0]!;
    const sampling = byMethod(exchanges, 'sampling/createMessage')[0]!;
    expect(init).toMatchObject({ requester: 'client', requestId: 0, status: 'ok' });
    expect(sampling).toMatchObject({ requester: 'server', requestId: 0, status: 'ok', response: { result: { content: { text: 'hi there' } } } });
    expect(byMethod(exchanges, 'tools/call')[0]).toMatchObject({ status: 'ok', requestId: 1 });
    // The sampling request crossed the upstream leg first, and the client's answer went back up.
    expect(sampling.latencyMs).toBeGreaterThan(0);
  });

  it('marks a cancelled request cancelled, and a timed-out one timeout', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer(), slow: probeServer({ requestTimeoutMs: 300 }) }, tickMs: 50 });
    const client = await connect(hub, 'probe');
    const res = await client.post(toolCall(5, 'hang'));
    const reader = new SseReader(res.body!);
    await reader.nextEvent(); // the priming event: the call is in flight
    await client.notify('notifications/cancelled', { requestId: 5, reason: 'user gave up' });
    expect(await withTimeout(reader.next(), 5000, 'the cancelled stream to end')).toBeUndefined();

    const slow = await connect(hub, 'slow');
    const timedOut = await slow.callTool('hang');
    expect(timedOut.response.error?.message).toMatch(/timed out/);
    await hub.settle();

    const cancelled = byMethod(await hub.exchanges((await onlySession(hub, 'probe')).id), 'tools/call')[0]!;
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'user gave up', requestId: 5 });
    expect(cancelled.cancelSeq).toBeGreaterThan(cancelled.requestSeq);
    const timeout = byMethod(await hub.exchanges((await onlySession(hub, 'slow')).id), 'tools/call')[0]!;
    expect(timeout.status).toBe('timeout');
    expect(timeout.reason).toMatch(/did not answer 'tools\/call' within 300ms/);
    expect(timeout.cancelSeq).toBeDefined();
    const stats = await hub.call<{ servers: Array<{ server: string; cancelled: number; timeouts: number }> }>('inspector.stats', {});
    expect(stats.servers).toEqual([expect.objectContaining({ server: 'probe', cancelled: 1 }), expect.objectContaining({ server: 'slow', timeouts: 1 })]);
  });

  it('attaches progress notifications to their request', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer() } });
    const client = await connect(hub, 'probe');
    const out = await client.callTool('slow_progress', { steps: 3, intervalMs: 20 }, { progressToken: 'tok-1' });
    expect(out.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
    await hub.settle();
    const call = byMethod(await hub.exchanges((await onlySession(hub, 'probe')).id), 'tools/call')[0]!;
    expect(call.status).toBe('ok');
    expect(call.progressCount).toBe(3);
    expect(call.progress.map((p) => [p.progress, p.total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    for (const p of call.progress) expect(p.seq).toBeGreaterThan(call.requestSeq);
  });

  it("shows a crashed child's session as failed, with the exit code and stderr tail; a restart replays initialize as the hub", async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx');
    const crashed = await client.callTool('crash', { code: 3 });
    expect(crashed.response.error?.message).toContain('exited with code 3');
    await hub.settle();
    const failed = await onlySession(hub, 'fx');
    expect(failed.state).toBe('failed');
    expect(failed.failure).toMatchObject({ exitCode: 3 });
    expect(failed.failure!.reason).toContain("server 'fx' exited with code 3");
    expect(failed.failure!.stderrTail).toContain('crashing on purpose');
    const events = await hub.events(failed.id);
    expect(events.some((e) => e.kind === 'stderr' && e.text?.includes('crashing on purpose'))).toBe(true);
    const crash = byMethod(await hub.exchanges(failed.id), 'tools/call')[0]!;
    expect(crash).toMatchObject({ status: 'orphaned' });
    expect(crash.reason).toContain('exited with code 3');

    // The client goes on: the hub restarts the child and replays initialize itself.
    expect(await client.tool('echo', { text: 'again' })).toBe('again');
    await hub.settle();
    const recovered = await onlySession(hub, 'fx');
    expect(recovered).toMatchObject({ state: 'live', restarts: 1 });
    const replayed = (await hub.events(failed.id)).filter((e) => e.method === 'initialize' && e.origin === 'hub');
    expect(replayed[0]).toMatchObject({ leg: 'upstream', id: 'patchbay-replay-1', note: 'replay-initialize', kind: 'request' });
    const exchanges = await hub.exchanges(failed.id);
    expect(exchanges.find((x) => x.requestId === 'patchbay-replay-1')).toMatchObject({ requester: 'hub', status: 'ok' });
  });

  it('a child that exits at once fails the session, and stateless servers are initialized by the hub', async () => {
    const hub = await startCaptureHub({
      servers: {
        dead: { command: process.execPath, args: ['-e', "process.stderr.write('no config here\\n', () => process.exit(7))"] },
        sl: probeServer({ stateless: true }),
      },
    });
    const res = await fetch(hub.mcpUrl('dead'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...hub.authHeader() },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    });
    const { messages } = await messagesOfResponse(res);
    expect(messages[0]?.error).toBeDefined();
    const sl = await fetch(hub.mcpUrl('sl'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18', ...hub.authHeader() },
      body: JSON.stringify(toolCall(9, 'echo', { text: 'stateless' })),
    });
    expect((await messagesOfResponse(sl)).messages.some((m) => m.id === 9)).toBe(true);
    await waitFor(async () => (await hub.sessions()).filter((s) => s.state !== 'live').length === 2, 'both sessions to end');
    const dead = (await hub.sessions()).find((s) => s.server === 'dead')!;
    expect(dead.state).toBe('failed');
    expect(dead.failure).toMatchObject({ exitCode: 7 });
    expect(dead.failure!.stderrTail).toContain('no config here');
    const stateless = (await hub.sessions()).find((s) => s.server === 'sl')!;
    expect(stateless).toMatchObject({ state: 'closed', transport: { upstream: 'stdio-stateless' } });
    const exchanges = await hub.exchanges(stateless.id);
    // The client's call arrives first; the hub then starts a child and initializes it itself.
    expect(exchanges.map((x) => [x.requester, x.method, x.status])).toEqual([
      ['client', 'tools/call', 'ok'],
      ['hub', 'initialize', 'ok'],
    ]);
  });

  it('shared mode: two clients using the same ids are paired on their own client leg', async () => {
    const hub = await startCaptureHub({ servers: { shared: everythingServer({ shared: true }) } });
    const a = await connect(hub, 'shared');
    const b = await connect(hub, 'shared');
    const [ra, rb] = await Promise.all([a.callTool('echo', { text: 'from a' }), b.callTool('echo', { text: 'from b' })]);
    expect(ra.response.id).toBe(rb.response.id);
    await hub.settle();
    const sessions = (await hub.sessions()).filter((s) => s.server === 'shared');
    expect(sessions).toHaveLength(2);
    const texts = new Set<string>();
    for (const s of sessions) {
      expect(s.transport.upstream).toBe('stdio-shared');
      const call = byMethod(await hub.exchanges(s.id, true), 'tools/call')[0]!;
      expect(call.status).toBe('ok');
      texts.add(JSON.stringify(call.response));
    }
    expect([...texts].some((t) => t.includes('from a')) && [...texts].some((t) => t.includes('from b'))).toBe(true);
  });

  it('keeps a message over the limit as the exact prefix of what crossed, in memory and in history, also when it is JSON holding JSON', async () => {
    const limit = 64 * 1024;
    const hub = await startCaptureHub({ servers: { fx: everythingServer() }, inspector: { maxMessageBytes: limit } });
    const client = await connect(hub, 'fx');
    // A tool result holding JSON as text: in the message every quote of it is escaped (`\"`),
    // one escape every few bytes — the text the capture must quote again to keep as a string.
    const items = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `item-${i}`, path: `C:\\data\\${i}.json` }));
    const text = JSON.stringify(items);
    const body = JSON.stringify(toolCall(5, 'echo', { text }));
    const res = await client.post(body);
    // The first thing the server sends is the answer: one JSON body, the server's own text.
    expect(res.headers.get('content-type')).toContain('application/json');
    const answer = await res.text();
    expect((JSON.parse(answer) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text).toBe(text);
    await hub.settle();
    const session = await onlySession(hub, 'fx');
    const events = (await hub.events(session.id)).filter((e) => e.id === 5);
    expect(events.map((e) => [e.leg, e.direction])).toEqual([
      ['client', 'to-server'],
      ['upstream', 'to-server'],
      ['upstream', 'to-client'],
      ['client', 'to-client'],
    ]);
    const request = events[0]!;
    expect(request).toMatchObject({ truncated: true, size: Buffer.byteLength(body), message: body.slice(0, limit) });
    for (const e of events) {
      expect(e.truncated).toBe(true);
      expect(typeof e.message).toBe('string');
      expect((e.message as string).length).toBe(limit);
    }
    // The answer's prefix is what the server wrote: it reads as the start of the answer's JSON.
    expect((events[3]!.message as string).startsWith('{')).toBe(true);
    expect(answer.startsWith(events[3]!.message as string)).toBe(true);

    // History holds the same prefixes, as JSON strings a reader parses back.
    await hub.close();
    const lines = (await Promise.all((await filesUnder(hub.dataDir)).filter((f) => f.endsWith('.jsonl')).map((f) => readFile(f, 'utf8')))).join('').split('\n');
    const kept = lines.filter((l) => l.includes('"truncated":true')).flatMap((l) => eventsFromLine(l)).filter((e) => e.id === 5);
    expect(kept.map((e) => e.message)).toEqual(events.map((e) => e.message));
  });

  it('drops and counts when the inspector falls behind, and never holds the proxy up', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx');
    // A queue with no room: every message is dropped and counted; the calls are not held up.
    Object.defineProperty(hub.engine.inspector.queue, 'max', { value: 0 });
    const texts = await Promise.all(Array.from({ length: 5 }, (_, i) => client.tool('echo', { text: `n${i}` })));
    expect(texts).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    await hub.settle();
    const session = await onlySession(hub, 'fx');
    expect(session.dropped).toBeGreaterThan(0);
    const status = await hub.call<{ dropped: { queue: number } }>('inspector.status', {});
    expect(status.dropped.queue).toBe(session.dropped);
  });
});
