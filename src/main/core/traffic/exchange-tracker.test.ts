import { describe, expect, it } from 'vitest';
import type { CaptureDirection, CaptureLeg, CaptureOrigin } from '../../../shared/api/inspector-contract.js';
import { ExchangeTracker } from './exchange-tracker.js';

let seq = 0;
function feed(t: ExchangeTracker, leg: CaptureLeg, direction: CaptureDirection, origin: CaptureOrigin, message: Record<string, unknown>, note?: string) {
  const kind = 'method' in message ? ('id' in message ? 'request' : 'notification') : 'response';
  const e = { seq: ++seq, time: seq, leg, direction, origin, kind, method: message.method as string | undefined, id: message.id as string | number | undefined, note };
  const done = t.observe(e, message);
  return done === undefined ? [] : [done];
}

/** A message passing through: the client leg, then the upstream leg (or the reverse). */
function through(t: ExchangeTracker, toServer: boolean, origin: CaptureOrigin, message: Record<string, unknown>) {
  const dir: CaptureDirection = toServer ? 'to-server' : 'to-client';
  const [first, second]: CaptureLeg[] = toServer ? ['client', 'upstream'] : ['upstream', 'client'];
  return [...feed(t, first!, dir, origin, message), ...feed(t, second!, dir, origin, message)];
}

describe('ExchangeTracker', () => {
  it('pairs by requester: client id 0 and server id 0 are distinct exchanges', () => {
    const t = new ExchangeTracker('s', 'srv', 100, () => 'cli');
    through(t, true, 'client', { jsonrpc: '2.0', id: 0, method: 'tools/call' });
    through(t, false, 'server', { jsonrpc: '2.0', id: 0, method: 'sampling/createMessage' });
    const sampling = through(t, true, 'client', { jsonrpc: '2.0', id: 0, result: {} });
    expect(sampling).toEqual([expect.objectContaining({ requester: 'server', method: 'sampling/createMessage', status: 'ok' })]);
    const call = through(t, false, 'server', { jsonrpc: '2.0', id: 0, result: {} });
    expect(call).toEqual([expect.objectContaining({ requester: 'client', method: 'tools/call', status: 'ok', client: 'cli' })]);
    expect(call[0]!.upstreamLatencyMs).toBeLessThan(call[0]!.latencyMs!);
    expect(t.counts).toMatchObject({ ok: 2, pending: 0 });
  });

  it('marks cancellation, timeout (with a late answer), and orphans at the end', () => {
    const t = new ExchangeTracker('s', 'srv', 100, () => undefined);
    through(t, true, 'client', { jsonrpc: '2.0', id: 1, method: 'a' });
    const cancelled = through(t, true, 'client', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'bored' } });
    expect(cancelled).toEqual([expect.objectContaining({ status: 'cancelled', reason: 'bored' })]);

    through(t, true, 'client', { jsonrpc: '2.0', id: 2, method: 'b' });
    expect(feed(t, 'upstream', 'to-server', 'hub', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }, 'timeout')).toEqual([]);
    const timeout = feed(t, 'client', 'to-client', 'hub', { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Request timed out' } }, 'timeout');
    expect(timeout).toEqual([expect.objectContaining({ status: 'timeout', reason: 'Request timed out' })]);
    feed(t, 'upstream', 'to-client', 'server', { jsonrpc: '2.0', id: 2, result: {} });
    expect(timeout[0]!.lateResponseSeq).toBe(seq);

    through(t, true, 'client', { jsonrpc: '2.0', id: 3, method: 'c' });
    expect(t.endSession(99, 'gone')).toEqual([expect.objectContaining({ requestId: 3, status: 'orphaned', reason: 'gone' })]);
  });

  it('attaches progress once, on the requester leg, and keeps the ring bounded', () => {
    const t = new ExchangeTracker('s', 'srv', 3, () => undefined);
    through(t, true, 'client', { jsonrpc: '2.0', id: 1, method: 'a', params: { _meta: { progressToken: 'p' } } });
    through(t, false, 'server', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 2, message: 'half' } });
    const [done] = through(t, false, 'server', { jsonrpc: '2.0', id: 1, result: {} });
    expect(done!.progressCount).toBe(1);
    expect(done!.progress).toEqual([expect.objectContaining({ progress: 1, total: 2, message: 'half' })]);
    for (let i = 10; i < 20; i++) through(t, true, 'client', { jsonrpc: '2.0', id: i, method: 'x' });
    expect(t.exchanges.length).toBe(3);
    expect(t.counts.pending).toBe(3);
    expect(JSON.parse(JSON.stringify(done))).not.toHaveProperty('firstLeg');
  });

  it('drops finished exchanges older than a seq, but never one still open', () => {
    const t = new ExchangeTracker('s', 'srv', 100, () => undefined);
    through(t, true, 'client', { jsonrpc: '2.0', id: 1, method: 'slow' });
    const slowSeq = t.exchanges.first!.requestSeq;
    for (let i = 2; i <= 4; i++) {
      through(t, true, 'client', { jsonrpc: '2.0', id: i, method: 'fast' });
      through(t, false, 'server', { jsonrpc: '2.0', id: i, result: {} });
    }
    t.dropBefore(seq + 1);
    // The open one heads the ring: nothing behind it goes either.
    expect(t.exchanges.length).toBe(4);
    const [done] = through(t, false, 'server', { jsonrpc: '2.0', id: 1, result: {} });
    expect(done).toMatchObject({ requestSeq: slowSeq, status: 'ok' });
    t.dropBefore(t.exchangesAfter(slowSeq, 1)[0]!.requestSeq);
    expect(t.exchanges.first!.method).toBe('fast');
    expect(t.exchanges.length).toBe(3);
    t.dropBefore(seq + 1);
    expect(t.exchanges.length).toBe(0);
    expect(t.counts).toMatchObject({ ok: 4, pending: 0 });
  });

  it('a tool that answers isError: true failed: status error, counted, its first text as the reason (issue 16)', () => {
    const t = new ExchangeTracker('s', 'srv', 100, () => undefined, (text) => text.replace('s3cret', '[secret:K]'));
    through(t, true, 'client', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file' } });
    const [failed] = through(t, false, 'server', {
      jsonrpc: '2.0',
      id: 1,
      result: { isError: true, content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'text', text: 'Access denied: s3cret/x' }] },
    });
    expect(failed).toMatchObject({ status: 'error', isError: true, reason: 'Access denied: [secret:K]/x' });
    expect(failed!.error).toBeUndefined();
    // Not a failure: isError false, or isError on a method other than tools/call.
    through(t, true, 'client', { jsonrpc: '2.0', id: 2, method: 'tools/call' });
    expect(through(t, false, 'server', { jsonrpc: '2.0', id: 2, result: { isError: false, content: [] } })[0]).toMatchObject({ status: 'ok' });
    through(t, true, 'client', { jsonrpc: '2.0', id: 3, method: 'resources/read' });
    expect(through(t, false, 'server', { jsonrpc: '2.0', id: 3, result: { isError: true } })[0]).toMatchObject({ status: 'ok' });
    through(t, true, 'client', { jsonrpc: '2.0', id: 4, method: 'tools/call' });
    const [bare] = through(t, false, 'server', { jsonrpc: '2.0', id: 4, result: { isError: true } });
    expect(bare).toMatchObject({ status: 'error', isError: true });
    expect(bare!.reason).toBeUndefined();
    expect(t.counts).toMatchObject({ ok: 2, error: 2 });
  });
});
