import { describe, expect, it } from 'vitest';
import type { CaptureEvent, ExchangeSummary } from '../../shared/api/inspector-contract.js';
import { TimelineModel, type TimelineRow } from './timeline-model.js';
import { treePlaces, viewRows } from './timeline-view.js';

let seq = 0;
const base = (over: Partial<CaptureEvent>): CaptureEvent => ({ seq: ++seq, session: 's1', server: 'fx', time: seq, origin: 'client', kind: 'request', size: 10, ...over });
const summary = (requestSeq: number, over: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  id: `s1/${requestSeq}`, session: 's1', server: 'fx', requester: 'client', requestId: 1, method: 'tools/call', status: 'ok',
  startedAt: 1, requestSeq, progress: [], progressCount: 0, latencyMs: 12, ...over,
});

/** A client request crossing both legs (its answer comes with `answer`). */
function ask(id: number, method: string, params?: Record<string, unknown>): CaptureEvent[] {
  const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
  return [base({ kind: 'request', method, id, leg: 'client', direction: 'to-server', size: 100, message }), base({ kind: 'request', method, id, leg: 'upstream', direction: 'to-server', size: 100, message })];
}
function answer(requestSeq: number, id: number, method: string, over: Partial<ExchangeSummary> = {}): CaptureEvent[] {
  return [
    base({ kind: 'response', id, leg: 'upstream', direction: 'to-client', origin: 'server', size: 300 }),
    base({ kind: 'response', id, leg: 'client', direction: 'to-client', origin: 'server', size: 300, exchanges: [summary(requestSeq, { requestId: id, method, ...over })] }),
  ];
}
function exchange(id: number, method: string, over: Partial<ExchangeSummary> = {}, params?: Record<string, unknown>): CaptureEvent[] {
  const req = ask(id, method, params);
  return [...req, ...answer(req[0]!.seq, id, method, over)];
}

describe('timeline model', () => {
  it('makes one row per exchange across both legs, with the tool it names, latency, status and sizes', () => {
    const model = new TimelineModel();
    const events = exchange(1, 'tools/call', {}, { name: 'read_file', arguments: {} });
    model.add(events);
    expect(model.rows).toHaveLength(1);
    expect(model.rows[0]).toMatchObject({ kind: 'exchange', method: 'tools/call', target: 'read_file', status: 'ok', latencyMs: 12, requestSize: 100, responseSize: 300 });
    expect(model.methods).toEqual(['tools/call']);
    expect(model.targets).toEqual(['read_file']);
    // Every event of the exchange leads to its row: both legs of the request and of the answer.
    for (const e of events) expect(model.indexOfSeq(e.seq)).toBe(0);
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

  it('marks failed exchanges (failed tools too) and filters by method, name and errors', () => {
    const model = new TimelineModel();
    model.add([
      ...exchange(3, 'tools/call', {}, { name: 'a' }),
      ...exchange(4, 'tools/call', { status: 'error', error: { code: -32603, message: 'boom' } }, { name: 'b' }),
      ...exchange(5, 'ping'),
      ...exchange(6, 'tools/call', { status: 'error', isError: true, reason: 'Access denied' }, { name: 'b' }),
    ]);
    expect(model.rows[1]).toMatchObject({ status: 'error', text: 'boom' });
    expect(model.rows[3]).toMatchObject({ status: 'error', isError: true, text: 'Access denied' });
    const view = (filter: Parameters<typeof viewRows>[2]['filter']) => viewRows(model.rows, model.nested, { filter });
    expect(view({ method: '', errorsOnly: false })).toBeUndefined();
    expect(view({ method: 'tools/call', errorsOnly: false })).toEqual([0, 1, 3]);
    expect(view({ method: '', target: 'b', errorsOnly: false })).toEqual([1, 3]);
    expect(view({ method: '', errorsOnly: true })).toEqual([1, 3]);
    expect(view({ method: '', errorsOnly: false, matches: new Set([2]) })).toEqual([2]);
    expect(viewRows(model.rows, model.nested, { filter: { method: '', errorsOnly: false }, sort: { key: 'status', dir: 'asc' } })).toEqual([1, 3, 0, 2]);
  });

  it('puts progress on its call and nests what the server asks meanwhile under it', () => {
    const model = new TimelineModel();
    const call = ask(7, 'tools/call', { name: 'book', _meta: { progressToken: 'tok' } });
    model.add(call);
    model.add([base({ kind: 'notification', method: 'notifications/progress', origin: 'server', leg: 'upstream', direction: 'to-client', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 5 } } })]);
    // The call's row shows the latest progress; the notification is a row nested under it.
    expect(model.rows).toHaveLength(2);
    expect(model.rows[0]).toMatchObject({ status: 'pending', progress: { progress: 2, total: 5 }, progressCount: 1 });
    expect(model.rows[1]).toMatchObject({ kind: 'notification', method: 'notifications/progress', target: '2 / 5', parent: 0 });
    expect(model.methods).toContain('notifications/progress');
    const elicit = base({ kind: 'request', method: 'elicitation/create', id: 0, origin: 'server', leg: 'upstream', direction: 'to-client' });
    model.add([elicit, base({ kind: 'request', method: 'elicitation/create', id: 0, origin: 'server', leg: 'client', direction: 'to-client' })]);
    model.add([base({ kind: 'response', id: 0, origin: 'client', leg: 'client', direction: 'to-server', exchanges: [summary(elicit.seq, { requester: 'server', requestId: 0, method: 'elicitation/create' })] })]);
    model.add(answer(call[0]!.seq, 7, 'tools/call'));
    expect(model.rows[2]).toMatchObject({ method: 'elicitation/create', parent: 0, status: 'ok' });
    expect(model.rows[0]).toMatchObject({ status: 'ok', children: [1, 2] });
    expect(viewRows(model.rows, model.nested, { filter: { method: '', errorsOnly: false } })).toEqual([0, 1, 2]);
    expect(viewRows(model.rows, model.nested, { filter: { method: '', errorsOnly: false }, collapsed: new Set([0]) })).toEqual([0]);
    // A search hit on the nested request keeps its call in view; so does the progress filter.
    expect(viewRows(model.rows, model.nested, { filter: { method: 'elicitation/create', errorsOnly: false } })).toEqual([0, 2]);
    expect(viewRows(model.rows, model.nested, { filter: { method: 'notifications/progress', errorsOnly: false } })).toEqual([0, 1]);
    // A call that passes keeps everything that happened during it.
    expect(viewRows(model.rows, model.nested, { filter: { method: 'tools/call', errorsOnly: false } })).toEqual([0, 1, 2]);
  });

  it('gives each shown row its place among its siblings as shown (aria-posinset / aria-setsize of the virtualized tree)', () => {
    // Two calls with rows nested under them, a notification between them.
    const rows = [{ children: [1, 2] }, { parent: 0 }, { parent: 0 }, {}, { children: [5] }, { parent: 4 }] as TimelineRow[];
    const places = (visible: number[] | undefined, n: number) => {
      const place = treePlaces(rows, visible);
      return Array.from({ length: n }, (_, p) => { const { posinset, setsize } = place(p); return `${posinset}/${setsize}`; });
    };
    expect(places([0, 1, 2, 3, 4, 5], 6)).toEqual(['1/3', '1/2', '2/2', '2/3', '3/3', '1/1']);
    // A filter's hidden rows are not counted; sorted, the places follow the order shown.
    expect(places([0, 2, 4, 5], 4)).toEqual(['1/2', '1/1', '2/2', '1/1']);
    expect(places([4, 5, 3, 0, 1, 2], 6)).toEqual(['1/3', '1/1', '2/3', '3/3', '1/2', '2/2']);
    // Every row as it stands (nothing nested): all top level.
    expect(places(undefined, 3)).toEqual(['1/6', '2/6', '3/6']);
  });

  // How fast is measured by the load e2e (e2e/load.spec.ts) and printed, never asserted here: a
  // wall-clock bound fails on a busy machine and passes a slow algorithm on a fast one.
  it('keeps 100k messages as one row per exchange, appended in place (the rows array is never copied)', () => {
    const model = new TimelineModel();
    const rows = model.rows;
    const events: CaptureEvent[] = [];
    for (let i = 0; i < 25_000; i++) events.push(...exchange(i + 10, i % 2 ? 'tools/call' : 'resources/read'));
    expect(events).toHaveLength(100_000);
    for (let i = 0; i < events.length; i += 1000) {
      model.add(events.slice(i, i + 1000));
      expect(model.rows).toBe(rows);
    }
    expect(rows).toHaveLength(25_000);
    expect(rows.every((r) => r.kind === 'exchange' && r.status === 'ok' && r.responseSize === 300)).toBe(true);
    expect(rows.at(-1)).toMatchObject({ seq: events.at(-4)!.seq, method: 'tools/call', responseSeq: events.at(-1)!.seq });
    for (const e of events.slice(-4)) expect(model.indexOfSeq(e.seq)).toBe(24_999);
  });
});
