import { describe, expect, it } from 'vitest';
import type { CaptureEvent, ExchangeSummary } from '../../shared/api/inspector-contract.js';
import { filterRows, TimelineModel } from './timeline-model.js';

let seq = 0;
const base = (over: Partial<CaptureEvent>): CaptureEvent => ({ seq: ++seq, session: 's1', server: 'fx', time: seq, origin: 'client', kind: 'request', size: 10, ...over });
const summary = (requestSeq: number, over: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  id: `s1/${requestSeq}`, session: 's1', server: 'fx', requester: 'client', requestId: 1, method: 'tools/call', status: 'ok',
  startedAt: 1, requestSeq, progress: [], progressCount: 0, latencyMs: 12, ...over,
});

/** One client request crossing both legs and its answer crossing back. */
function exchange(id: number, method: string, over: Partial<ExchangeSummary> = {}): CaptureEvent[] {
  const req = base({ kind: 'request', method, id, leg: 'client', direction: 'to-server', size: 100 });
  const up = base({ kind: 'request', method, id, leg: 'upstream', direction: 'to-server', size: 100 });
  const back = base({ kind: 'response', id, leg: 'upstream', direction: 'to-client', origin: 'server', size: 300 });
  const out = base({ kind: 'response', id, leg: 'client', direction: 'to-client', origin: 'server', size: 300, exchanges: [summary(req.seq, { requestId: id, method, ...over })] });
  return [req, up, back, out];
}

describe('timeline model', () => {
  it('makes one row per exchange across both legs, with latency, status and sizes', () => {
    const model = new TimelineModel();
    model.add(exchange(1, 'tools/call'));
    expect(model.rows).toHaveLength(1);
    expect(model.rows[0]).toMatchObject({ kind: 'exchange', method: 'tools/call', status: 'ok', latencyMs: 12, requestSize: 100, responseSize: 300 });
    expect(model.methods).toEqual(['tools/call']);
  });

  it('shows stderr and lifecycle inline, in order, and ignores replayed events', () => {
    const model = new TimelineModel();
    const opened = base({ kind: 'lifecycle', origin: 'hub', text: 'session opened' });
    const stderr = base({ kind: 'stderr', origin: 'server', text: 'booting' });
    model.add([opened, stderr, ...exchange(2, 'tools/list')]);
    model.add([stderr]);
    expect(model.rows.map((r) => r.kind)).toEqual(['lifecycle', 'stderr', 'exchange']);
    expect(model.rows[1]?.text).toBe('booting');
  });

  it('marks failed exchanges and filters by method and errors', () => {
    const model = new TimelineModel();
    model.add([...exchange(3, 'tools/call'), ...exchange(4, 'tools/call', { status: 'error', error: { code: -32603, message: 'boom' } }), ...exchange(5, 'ping')]);
    expect(model.rows[1]).toMatchObject({ status: 'error', text: 'boom' });
    expect(filterRows(model.rows, { method: '', errorsOnly: false })).toBeUndefined();
    expect(filterRows(model.rows, { method: 'tools/call', errorsOnly: false })).toEqual([0, 1]);
    expect(filterRows(model.rows, { method: '', errorsOnly: true })).toEqual([1]);
  });

  it('keeps up with 100k messages without copying (well under a second)', () => {
    const model = new TimelineModel();
    const events: CaptureEvent[] = [];
    for (let i = 0; i < 25_000; i++) events.push(...exchange(i + 10, i % 2 ? 'tools/call' : 'resources/read'));
    const t0 = performance.now();
    for (let i = 0; i < events.length; i += 1000) model.add(events.slice(i, i + 1000));
    const ms = performance.now() - t0;
    expect(model.rows).toHaveLength(25_000);
    expect(ms).toBeLessThan(1000);
  });
});
