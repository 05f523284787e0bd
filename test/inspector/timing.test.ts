/**
 * Issue 28, "Closer to DevTools": the timing marks of an exchange (sent upstream, the answer's
 * first byte, the answer whole, delivered to the client) and the raw stream, over real processes
 * and real HTTP: stdio and HTTP upstreams, both eras, a call the hub bridges between eras, and the
 * raw SSE bytes (event ids included) only while recording is on.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange, InspectorSession, RawStream } from '../../src/shared/api/inspector-contract.js';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { waitFor } from '../helpers/waits.js';
import { startFixture } from '../remote/remote-harness.js';
import { startCaptureHub, type CaptureHub } from './inspector-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';
const SECRET = 'raw-stream-SECRET-77aa88bb';

async function modernClient(hub: CaptureHub, serverId: string): Promise<ModernClient> {
  const client = new ModernClient({ name: 'modern-timing', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  onCleanup(() => client.close());
  return client;
}

/** The one non-debug session of a server (waiting for the drain). */
async function sessionOf(hub: CaptureHub, server: string): Promise<InspectorSession> {
  let found: InspectorSession | undefined;
  await waitFor(async () => {
    found = (await hub.sessions()).find((s) => s.server === server && !s.debug);
    return found !== undefined;
  }, `the captured session of ${server}`);
  return found!;
}

/** The completed `tools/call` exchange of a tool. */
async function callOf(hub: CaptureHub, session: string, tool: string): Promise<Exchange> {
  let call: Exchange | undefined;
  await waitFor(async () => {
    call = (await hub.exchanges(session, true)).find((x) => x.method === 'tools/call' && (x.request as { params?: { name?: string } }).params?.name === tool && x.status !== 'pending');
    return call !== undefined;
  }, `the ${tool} exchange`);
  return call!;
}

/** Every mark taken, in the order the hub went through them, none after the delivery. */
function expectAllMarks(x: Exchange): void {
  const t = x.timing!;
  expect(t, JSON.stringify(x)).toBeDefined();
  expect(t.sentMs).toBeGreaterThanOrEqual(0);
  expect(t.firstByteMs).toBeGreaterThanOrEqual(t.sentMs!);
  expect(t.answeredMs).toBeGreaterThanOrEqual(t.firstByteMs!);
  expect(x.latencyMs).toBeGreaterThanOrEqual(t.answeredMs!);
  expect(t.deliveredMs).toBeGreaterThanOrEqual(x.latencyMs!);
  // The server's share, as before, is the time between the request sent and the answer back.
  expect(x.upstreamLatencyMs).toBeCloseTo(t.answeredMs! - t.sentMs!, 2);
}

describe('timing marks of an exchange', () => {
  it('a 2025 client and a stdio server: sent, first byte, answered, delivered', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx');
    await client.tool('test_simple_text');
    const session = await sessionOf(hub, 'fx');
    expectAllMarks(await callOf(hub, session.id, 'test_simple_text'));
  });

  it('a 2026-07-28 client and a stdio server: the same marks', async () => {
    const hub = await startCaptureHub({ servers: { dual: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } });
    const client = await modernClient(hub, 'dual');
    await client.callTool({ name: 'echo', arguments: { text: 'timed' } });
    const session = await sessionOf(hub, 'dual');
    expect(session.era).toBe('modern');
    expectAllMarks(await callOf(hub, session.id, 'echo'));
  });

  it('an HTTP upstream, both eras: the first byte is the response from the server', async () => {
    const legacy = await startFixture(DUAL_ERA, ['--http', '--port', '0', '--era', 'legacy']);
    const modern = await startFixture(DUAL_ERA, ['--http', '--port', '0', '--era', 'modern']);
    const hub = await startCaptureHub({ servers: { old: { url: legacy.url, transport: 'streamable-http' }, new: { url: modern.url } } });
    const client = await connect(hub, 'old');
    await client.tool('echo', { text: 'over http' });
    const modernOne = await modernClient(hub, 'new');
    await modernOne.callTool({ name: 'echo', arguments: { text: 'over http' } });
    expectAllMarks(await callOf(hub, (await sessionOf(hub, 'old')).id, 'echo'));
    const modernSession = await sessionOf(hub, 'new');
    expect(modernSession.era).toBe('modern');
    expectAllMarks(await callOf(hub, modernSession.id, 'echo'));
  });

  it("a bridged call: the client's leg and the server's leg (sent and answered in the server's era)", async () => {
    const hub = await startCaptureHub({ servers: { legacy: everythingServer() } });
    const client = await modernClient(hub, 'legacy');
    await client.callTool({ name: 'test_simple_text', arguments: {} });
    let session: InspectorSession | undefined;
    await waitFor(async () => {
      session = (await hub.sessions()).find((s) => s.server === 'legacy' && s.era === 'modern');
      return session !== undefined;
    }, 'the modern session');
    const x = await callOf(hub, session!.id, 'test_simple_text');
    expect(x.bridge?.era).toBe('legacy');
    const t = x.timing!;
    // The server's leg: the translated request went out, its answer came back.
    expect(t.sentMs).toBeGreaterThanOrEqual(0);
    expect(t.answeredMs).toBeGreaterThanOrEqual(t.sentMs!);
    // The client's leg: the answer written to the modern client's response.
    expect(t.deliveredMs).toBeGreaterThanOrEqual(t.answeredMs!);
    // The legacy session the bridge holds is captured with its own marks (its first byte from the child).
    const bridgeSession = (await hub.sessions()).find((s) => s.server === 'legacy' && s.transport.client === 'bridge');
    expect(bridgeSession).toBeDefined();
    const inner = await callOf(hub, bridgeSession!.id, 'test_simple_text');
    expect(inner.timing?.firstByteMs).toBeGreaterThanOrEqual(inner.timing!.sentMs!);
  });

  it('the marks survive a trip through the history files', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() }, inspector: { maxEventsPerSession: 100 } });
    const client = await connect(hub, 'fx');
    await client.tool('test_simple_text');
    for (let i = 0; i < 60; i++) await client.request('ping');
    const session = await sessionOf(hub, 'fx');
    await hub.settle();
    // Paged from history: the call's events left memory (100 events per session, two per ping).
    expect((await hub.events(session.id)).some((e) => e.method === 'tools/call')).toBe(true);
    expectAllMarks(await callOf(hub, session.id, 'test_simple_text'));
  });
});

describe('the raw stream', () => {
  it('off by default: nothing is kept', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() } });
    const client = await connect(hub, 'fx');
    await client.callTool('test_tool_with_progress', {}, { progressToken: 'p1' });
    const session = await sessionOf(hub, 'fx');
    const raw = await hub.call<RawStream>('inspector.raw.get', { session: session.id });
    expect(raw).toMatchObject({ enabled: false, chunks: [], truncated: false });
  });

  it('recorded: the exact SSE bytes (event ids, events) and JSON bodies, secrets masked', async () => {
    const hub = await startCaptureHub({ servers: { fx: everythingServer() }, secrets: { RAW_SECRET: SECRET } });
    expect(await hub.call('inspector.raw.set', { enabled: true })).toMatchObject({ enabled: true, maxBytesPerSession: 256 * 1024 });
    const client = await connect(hub, 'fx');
    const progress = await client.callTool('test_tool_with_progress', {}, { progressToken: 'p1' });
    await client.tool('test_simple_text');
    // A secret the client sends comes back in the tool's answer: masked in the raw view as everywhere.
    await client.tool('echo', { text: SECRET });
    const session = await sessionOf(hub, 'fx');
    let raw: RawStream | undefined;
    await waitFor(async () => {
      raw = await hub.call<RawStream>('inspector.raw.get', { session: session.id });
      return raw.chunks.some((c) => c.kind === 'end');
    }, 'raw chunks');
    const text = raw!.chunks.map((c) => c.text).join('');
    // The progress call went as an SSE stream: its head, and events with the ids the client saw.
    expect(raw!.chunks.some((c) => c.kind === 'head' && /content-type: text\/event-stream/i.test(c.text))).toBe(true);
    const ids = progress.items.flatMap((i) => (i.kind === 'event' && i.id !== undefined && i.id !== '' ? [i.id] : []));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(text).toContain(`id: ${id}\n`);
    expect(text).toContain('event: message\ndata: {');
    expect(text).toContain('"method":"notifications/progress"');
    // A quick call went as one JSON body.
    expect(raw!.chunks.some((c) => c.kind === 'head' && /content-type: application\/json/i.test(c.text))).toBe(true);
    expect(text).not.toContain(SECRET);
    // Turned off: streams opened from then on are not recorded.
    await hub.call('inspector.raw.set', { enabled: false });
    const before = (await hub.call<RawStream>('inspector.raw.get', { session: session.id })).chunks.length;
    await client.tool('test_simple_text');
    await hub.settle();
    expect((await hub.call<RawStream>('inspector.raw.get', { session: session.id })).chunks.length).toBe(before);
  });
});
