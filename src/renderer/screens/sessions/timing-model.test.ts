// The timing view's model: phases from the engine's marks, both legs, ticks, what is missing.
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { exchangeTiming, waterfall } from './timing-model.js';

function exchange(extra: Partial<ExchangeSummary>): ExchangeSummary {
  return { id: 's/1', session: 's', server: 'fx', requester: 'client', requestId: 1, method: 'tools/call', status: 'ok', startedAt: 1000, requestSeq: 1, progress: [], progressCount: 0, ...extra };
}

describe('exchangeTiming', () => {
  it('every phase between the marks, the two legs, progress as ticks', () => {
    const view = exchangeTiming(exchange({ latencyMs: 12, timing: { sentMs: 1, firstByteMs: 9, answeredMs: 11, deliveredMs: 12.5 }, progress: [{ seq: 3, time: 1005, progress: 1, total: 2 }], progressCount: 1 }));
    expect(view.phases.map((p) => [p.kind, p.end - p.start])).toEqual([
      ['queue', 1],
      ['wait', 8],
      ['download', 2],
      ['route', 1],
      ['deliver', 0.5],
    ]);
    expect(view.legs.map((l) => [l.label, l.start, l.end])).toEqual([
      ['Client ⇄ hub', 0, 12.5],
      ['Hub ⇄ server', 1, 11],
    ]);
    expect(view.ticks).toEqual([{ at: 5, label: 'progress 1/2' }]);
    expect(view.total).toBe(12.5);
    expect(view.missing).toEqual([]);
  });

  it('a bridged call: the server leg names its era; no first byte is expected of it', () => {
    const view = exchangeTiming(exchange({ latencyMs: 8, bridge: { era: 'legacy', seqs: [2, 3] }, timing: { sentMs: 1, answeredMs: 7, deliveredMs: 8 } }));
    expect(view.legs[1]!.label).toBe('Hub ⇄ server (bridged: the server spoke 2025)');
    expect(view.phases.map((p) => p.kind)).toEqual(['queue', 'wait', 'route', 'deliver']);
    expect(view.missing).toEqual([]);
  });

  it('says which marks are missing', () => {
    expect(exchangeTiming(exchange({ status: 'pending' })).missing[0]).toMatch(/still running/);
    expect(exchangeTiming(exchange({ latencyMs: 3, timing: { sentMs: 1, answeredMs: 2 } })).missing).toEqual(['first byte: not recorded', 'delivery: not recorded']);
  });
});

describe('waterfall', () => {
  it('puts every exchange on one axis from the earliest start', () => {
    const { rows, span } = waterfall([exchange({ latencyMs: 4, timing: { sentMs: 1, answeredMs: 3, deliveredMs: 4 } }), exchange({ id: 's/5', requestSeq: 5, startedAt: 1010, latencyMs: 5, timing: { sentMs: 1, answeredMs: 4, deliveredMs: 5 } })]);
    expect(rows.map((r) => r.offset)).toEqual([0, 10]);
    expect(span).toBe(15);
  });
});
