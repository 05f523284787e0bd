/**
 * The live subscription: a subscriber that drops and comes back with its cursor gets every
 * event exactly once, whether the missed events are still in memory or only in the history
 * files; and the history survives a restart of the engine.
 */
import { describe, expect, it } from 'vitest';
import type { CaptureEvent, Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { openLive, readLive, startCaptureHub, tempDataDir, type CaptureHub } from './inspector-harness.js';

async function cursorOf(hub: CaptureHub): Promise<number> {
  await hub.settle();
  return (await hub.call<{ cursor: number }>('inspector.status', {})).cursor;
}

function expectEachOnce(received: number[], all: number[]): void {
  expect(new Set(received).size).toBe(received.length);
  for (let i = 1; i < received.length; i++) expect(received[i]!).toBeGreaterThan(received[i - 1]!);
  expect(received).toEqual(all);
}

describe('inspector live stream', () => {
  it('a subscriber that disconnects and reconnects with its cursor receives every event once (from memory)', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer() } });
    const start = await cursorOf(hub);
    const first = await openLive(hub);
    const client = await connect(hub, 'probe');
    const calls = (n: number, tag: string) => Promise.all(Array.from({ length: n }, (_, i) => client.tool('echo', { text: `${tag}${i}` })));
    await calls(5, 'a');
    const part = await readLive(first.reader, (events) => events.length >= 10);
    expect(part.ready).toEqual({ cursor: start, complete: true });
    first.close();
    await calls(20, 'b');
    const end = await cursorOf(hub);
    const last = part.ids[part.ids.length - 1]!;
    // As EventSource does: the last id seen goes back as Last-Event-ID.
    const second = await openLive(hub, '', { 'Last-Event-ID': String(last) });
    const rest = await readLive(second.reader, (events) => events.length > 0 && events[events.length - 1]!.seq >= end);
    expect(rest.ready).toEqual({ cursor: last, complete: true });
    const all = (await hub.events()).map((e) => e.seq).filter((s) => s > start && s <= end);
    expectEachOnce([...part.ids, ...rest.ids], all);
    for (const [i, e] of rest.events.entries()) expect(e.seq).toBe(rest.ids[i]);
  });

  it('catches up from the history files when memory no longer holds the missed events, then goes live', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer() }, inspector: { maxEvents: 1000 } });
    const client = await connect(hub, 'probe');
    const start = await cursorOf(hub);
    for (let i = 0; i < 300; i++) await client.tool('echo', { text: `m${i}` });
    const mid = await cursorOf(hub);
    expect(hub.engine.inspector.memory.oldestSeq!).toBeGreaterThan(start + 1);
    const live = await openLive(hub, `cursor=${start}`);
    const caughtUp = await readLive(live.reader, (events) => events.length > 0 && events[events.length - 1]!.seq >= mid);
    await client.tool('echo', { text: 'after' });
    const end = await cursorOf(hub);
    const more = await readLive(live.reader, (events) => events.length > 0 && events[events.length - 1]!.seq >= end);
    const all = (await hub.events()).map((e) => e.seq).filter((s) => s > start && s <= end);
    expect(all.length).toBeGreaterThan(1000);
    expectEachOnce([...caughtUp.ids, ...more.ids], all);
    // Messages read back from disk are whole: both legs, with their message.
    const calls = caughtUp.events.filter((e) => e.method === 'tools/call');
    expect(calls.length).toBe(600);
    for (const e of calls) expect(e.message).toMatchObject({ method: 'tools/call' });
  });

  it('pages exchanges that left memory with their events from the history files', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer() }, inspector: { maxEvents: 1000 } });
    const client = await connect(hub, 'probe');
    for (let i = 0; i < 300; i++) await client.tool('echo', { text: `m${i}` });
    await hub.settle();
    const session = (await hub.sessions()).find((s) => !s.debug)!;
    const record = hub.engine.inspector.memory.sessions.get(session.id)!;
    // Memory kept the exchanges of the events it still holds (four legs a call), not all 301.
    expect(record.tracker.exchanges.length).toBeLessThanOrEqual(251);
    expect(record.tracker.exchanges.first!.requestSeq).toBeGreaterThanOrEqual(record.events.first!.seq);
    const exchanges = await hub.exchanges(session.id, true);
    expect(exchanges.map((x) => x.method)).toEqual(['initialize', ...Array<string>(300).fill('tools/call')]);
    expect(exchanges.every((x) => x.status === 'ok' && x.latencyMs !== undefined)).toBe(true);
    expect(exchanges[1]!.request).toMatchObject({ params: { arguments: { text: 'm0' } } });
    expect(exchanges[300]!.response).toMatchObject({ result: { content: [{ text: 'm299' }] } });
    // Small pages (as an export pages) give the same exchanges, each once, across the point where
    // memory takes over from history, and a page starting right before one (as the UI asks for an
    // exchange) gives that one with its messages.
    const paged: Exchange[] = [];
    for (let after: number | undefined; ; ) {
      const page = await hub.call<{ exchanges: Exchange[]; next?: number }>('inspector.exchanges.list', { session: session.id, limit: 7, full: true, ...(after !== undefined ? { after } : {}) });
      paged.push(...page.exchanges);
      if (page.next === undefined) break;
      after = page.next;
    }
    expect(paged).toEqual(exchanges);
    const one = await hub.call<{ exchanges: Exchange[] }>('inspector.exchanges.list', { session: session.id, after: exchanges[5]!.requestSeq - 1, limit: 1, full: true });
    expect(one.exchanges).toEqual([exchanges[5]]);
    expect(one.exchanges[0]!.request).toMatchObject({ params: { arguments: { text: 'm4' } } });
  });

  it('view=exchanges sends one event per completed exchange, filtered by server', async () => {
    const hub = await startCaptureHub({ servers: { a: probeServer(), b: probeServer() } });
    const live = await openLive(hub, 'view=exchanges&server=a');
    const a = await connect(hub, 'a');
    const b = await connect(hub, 'b');
    await b.tool('echo', { text: 'b' });
    await a.tool('echo', { text: 'a' });
    const got = await readLive(live.reader, (events) => events.some((e) => e.exchanges?.some((x) => x.method === 'tools/call')));
    const exchanges = got.events.flatMap((e) => e.exchanges ?? []);
    expect(exchanges.map((x) => [x.server, x.method, x.status])).toEqual([
      ['a', 'initialize', 'ok'],
      ['a', 'tools/call', 'ok'],
    ]);
    expect(exchanges[1]!.latencyMs).toBeGreaterThan(0);
  });

  it('history survives a restart: past sessions, their exchanges, events and exports; cursors keep growing', async () => {
    const dataDir = await tempDataDir();
    const first = await startCaptureHub({ servers: { probe: probeServer() }, dataDir });
    const client = await connect(first, 'probe');
    await client.tool('echo', { text: 'before restart' });
    await client.callTool('slow_progress', { steps: 2, intervalMs: 10 }, { progressToken: 'p' });
    await first.settle();
    const [before] = await first.sessions();
    const exchangesBefore = await first.exchanges(before!.id, true);
    const eventsBefore = await first.events(before!.id);
    const lastSeq = await cursorOf(first);
    await first.close();

    const second = await startCaptureHub({ servers: { probe: probeServer() }, dataDir });
    const sessions = await second.sessions();
    const old = sessions.find((s) => s.id === before!.id) as InspectorSession;
    expect(old).toMatchObject({ inMemory: false, state: 'closed', client: { name: 'patchbay-hub-test' }, server: 'probe' });
    expect(old.exchanges.ok).toBe(3);
    const strip = (xs: Exchange[]) => xs.map(({ client: _c, ...x }) => x);
    expect(strip(await second.exchanges(old.id, true))).toEqual(strip(exchangesBefore));
    const eventsAfter: CaptureEvent[] = await second.events(old.id);
    expect(eventsAfter.map((e) => e.seq)).toEqual([...eventsBefore.map((e) => e.seq), ...eventsAfter.slice(eventsBefore.length).map((e) => e.seq)]);
    expect(eventsAfter.slice(0, eventsBefore.length).map((e) => e.message)).toEqual(eventsBefore.map((e) => e.message));
    const exported = await second.call<{ content: string }>('inspector.export', { session: old.id, format: 'jsonl' });
    expect(exported.content.trim().split('\n').length).toBe(eventsAfter.length + 1);
    expect((await second.call<{ hits: CaptureEvent[] }>('inspector.search', { query: 'before restart' })).hits.length).toBeGreaterThan(0);

    const again = await connect(second, 'probe');
    await again.tool('echo', { text: 'after restart' });
    await second.settle();
    const fresh = (await second.sessions()).find((s) => s.id !== old.id && !s.debug)!;
    expect(fresh.firstSeq!).toBeGreaterThan(lastSeq);
  });
});
