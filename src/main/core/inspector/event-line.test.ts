// History lines read back give exactly the events the API serves from memory: both legs of a
// pair, the exchanges a leg completed (written compactly), times to the µs, odd text.
import { describe, expect, it } from 'vitest';
import type { CaptureEvent, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { eventsFromLine, legJson, writeEventLine } from './event-line.js';
import { ExchangeTracker, type PairingInput } from '../traffic/exchange-tracker.js';
import { LineLog } from './line-log.js';
import { httpRef, otherLeg, routeOf, sessionRef, StoredEvent, toApiEvent, TWIN_COMPLETES, type CapturedLeg } from './stored-event.js';

const ref = sessionRef('00112233aabbccdd', 'srv');
const T0 = 1_712_345_678_901.123;

/** The line just written, from the log. */
function lastLine(log: LineLog, e: StoredEvent): string {
  return log.chunk.toString('utf8', log.pos - e.logBytes, log.pos);
}

function legs(e: StoredEvent): CapturedLeg[] {
  return e.paired ? [e, e.twin()] : [e];
}

/** The API's events of `e` and what its history line reads back as (JSON round trip: no undefined keys). */
function roundTrip(e: StoredEvent, json: string | undefined): { api: CaptureEvent[]; disk: CaptureEvent[]; text: string } {
  const log = new LineLog(false);
  writeEventLine(log, e, json);
  const text = lastLine(log, e);
  expect(text.endsWith('\n')).toBe(true);
  expect(text.indexOf('\n')).toBe(text.length - 1);
  const api = legs(e).map((leg) => JSON.parse(JSON.stringify(toApiEvent(leg))) as CaptureEvent);
  // The live stream's JSON of a leg says the same.
  for (const [i, leg] of legs(e).entries()) expect(JSON.parse(legJson(leg))).toEqual(api[i]);
  return { api, disk: eventsFromLine(text).map((x) => JSON.parse(JSON.stringify(x)) as CaptureEvent), text };
}

function input(e: StoredEvent, seq: number, time: number, leg: CapturedLeg['leg']): PairingInput {
  return { seq, time, leg, direction: e.direction, origin: e.origin, kind: e.kind, method: e.method, id: e.id, note: e.note };
}

describe('history lines', () => {
  it('a pass-through pair reads back as two legs, the second completing the exchange', () => {
    const tracker = new ExchangeTracker(ref.id, ref.server, 100, () => 'the client');
    const request = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo \\"q\\" ☃"}}}';
    const call = new StoredEvent(10, ref, T0, routeOf('client', 'to-server', 'client', 'request'));
    call.method = 'tools/call';
    call.id = 7;
    call.size = Buffer.byteLength(request);
    call.twinUs = 42;
    call.httpRef = httpRef({ method: 'POST', url: '/mcp/srv', headers: { authorization: '[redacted]', 'x-ünï': 'välue' }, status: 200 });
    expect(tracker.observe(input(call, 10, call.time, 'client'), JSON.parse(request))).toBeUndefined();
    tracker.observe(input(call, 11, call.twinTime, 'upstream'), JSON.parse(request));
    const first = roundTrip(call, request);
    expect(first.disk).toEqual(first.api);
    expect(first.disk.map((x) => [x.seq, x.leg, x.http?.status])).toEqual([
      [10, 'client', 200],
      [11, 'upstream', undefined],
    ]);

    const response = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"héllo"}]}}';
    const answer = new StoredEvent(12, ref, T0 + 1.234, routeOf('upstream', 'to-client', 'server', 'response'));
    answer.id = 7;
    answer.size = Buffer.byteLength(response);
    answer.twinUs = 1_500;
    expect(tracker.observe(input(answer, 12, answer.time, 'upstream'), JSON.parse(response))).toBeUndefined();
    const completed = tracker.observe(input(answer, 13, answer.twinTime, otherLeg('upstream')), JSON.parse(response));
    expect(completed).toBeDefined();
    answer.completed = completed;
    answer.flags |= TWIN_COMPLETES;
    const second = roundTrip(answer, response);
    expect(second.disk).toEqual(second.api);
    const x = second.disk[1]!.exchanges![0]!;
    expect(x).toMatchObject({ id: `${ref.id}/10`, status: 'ok', client: 'the client', requestSeq: 10, responseSeq: 13, endedAt: answer.twinTime, startedAt: T0 });
    expect(x.latencyMs).toBe(Math.round((answer.twinTime - T0) * 1000) / 1000);
    expect(x.upstreamLatencyMs).toBeGreaterThan(0);
    expect(second.disk[0]!.exchanges).toBeUndefined();
  });

  it('single events: exchanges orphaned by a session end, a truncated message, notes, stderr', () => {
    const tracker = new ExchangeTracker(ref.id, ref.server, 100, () => undefined);
    const ask = new StoredEvent(20, ref, T0, routeOf('upstream', 'to-client', 'server', 'request'));
    ask.method = 'sampling/createMessage';
    ask.id = 'ask-1';
    tracker.observe(input(ask, 20, T0, 'upstream'), { jsonrpc: '2.0', id: 'ask-1', method: 'sampling/createMessage', params: { _meta: { progressToken: 'p' } } });
    const progress = new StoredEvent(21, ref, T0 + 0.5, routeOf('client', 'to-server', 'client', 'notification'));
    progress.method = 'notifications/progress';
    tracker.observe(input(progress, 21, T0 + 0.5, 'client'), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, message: 'ünïcode' } });
    tracker.observe(input(progress, 21, T0 + 0.5, 'upstream'), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
    const ended = new StoredEvent(22, ref, T0 + 2.001, routeOf(undefined, undefined, 'hub', 'lifecycle'));
    ended.text = 'session closed';
    const orphaned: ExchangeSummary[] = tracker.endSession(ended.time, 'the session ended before an answer');
    expect(orphaned).toHaveLength(1);
    ended.completed = orphaned;
    const life = roundTrip(ended, undefined);
    expect(life.disk).toEqual(life.api);
    expect(life.disk[0]!.exchanges![0]).toMatchObject({ status: 'orphaned', requester: 'server', requestId: 'ask-1', progressCount: 1, reason: 'the session ended before an answer' });
    expect(life.disk[0]!.exchanges![0]!.responseSeq).toBeUndefined();

    const cut = new StoredEvent(23, ref, T0 + 3, routeOf('client', 'to-client', 'hub', 'response'));
    cut.id = null;
    cut.size = 5_000_000;
    cut.truncated = true;
    cut.note = 'timeout';
    const big = roundTrip(cut, JSON.stringify('{"jsonrpc":"2.0","result":{"te'));
    expect(big.disk).toEqual(big.api);

    const stderr = new StoredEvent(24, ref, T0 + 4, routeOf('upstream', undefined, 'server', 'stderr'));
    stderr.text = 'line with "quotes", \\ and ☃';
    stderr.size = Buffer.byteLength(stderr.text);
    const err = roundTrip(stderr, undefined);
    expect(err.disk).toEqual(err.api);
  });

  it('a failed tool call (isError) keeps its status, flag and reason through the history line', () => {
    const tracker = new ExchangeTracker(ref.id, ref.server, 100, () => 'c');
    const call = new StoredEvent(40, ref, T0, routeOf('client', 'to-server', 'client', 'request'));
    call.method = 'tools/call';
    call.id = 1;
    tracker.observe(input(call, 40, T0, 'client'), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
    const response = '{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"Unknown tool: x"}]}}';
    const answer = new StoredEvent(41, ref, T0 + 2, routeOf('client', 'to-client', 'server', 'response'));
    answer.id = 1;
    answer.size = response.length;
    answer.completed = tracker.observe(input(answer, 41, answer.time, 'client'), JSON.parse(response));
    const back = roundTrip(answer, response);
    expect(back.disk).toEqual(back.api);
    expect(back.text).toContain('"ie":1');
    expect(back.disk[0]!.exchanges![0]).toMatchObject({ status: 'error', isError: true, reason: 'Unknown tool: x' });
  });

  it('a line larger than a log buffer gets a buffer of its own', () => {
    const log = new LineLog(false);
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é'.repeat(400_000) } });
    const e = new StoredEvent(30, ref, T0, routeOf('upstream', 'to-client', 'server', 'response'));
    e.id = 1;
    e.size = Buffer.byteLength(huge);
    writeEventLine(log, e, huge);
    expect(e.json).toBe(huge);
    expect(eventsFromLine(lastLine(log, e))[0]!.message).toEqual(JSON.parse(huge));
  });

  it('a line over a buffer is written again once, into a buffer sized for it (not doubled from 256 KiB)', () => {
    const log = new LineLog(false);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { text: 'a'.repeat(1_200_000) } });
    const e = new StoredEvent(31, ref, T0, routeOf('upstream', 'to-client', 'server', 'response'));
    e.id = 2;
    e.size = big.length;
    writeEventLine(log, e, big, 'ascii');
    expect(e.json).toBe(big);
    // Doubling would have made 512 KiB, 1 MiB, then 2 MiB buffers; the line asked for what it needs.
    expect(log.chunk.length).toBeLessThan(big.length + 1024);
    expect(log.chunk.length).toBeGreaterThanOrEqual(e.logBytes);

    // A prefix kept as a JSON string: its escapes are counted when it does not fit, so it gets what it needs, too.
    const prefix = `${'"q\\'.repeat(100_000)}${'b'.repeat(300_000)}`;
    const cut = new StoredEvent(32, ref, T0, routeOf('upstream', 'to-client', 'server', 'response'));
    cut.id = 3;
    cut.size = 9_000_000;
    cut.truncated = true;
    writeEventLine(log, cut, prefix, 'quote');
    expect(JSON.parse(cut.json!)).toBe(prefix);
    expect(log.chunk.length).toBeLessThan(JSON.stringify(prefix).length + 1024);
    expect(eventsFromLine(lastLine(log, cut))[0]!.message).toBe(prefix);
  });
});
