// Per-server stats: failed tool calls count as errors; latency percentiles per time bucket.
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { BUCKET_MS, ServerStatsBook } from './stats.js';

const T = 1_700_000_000_000 - (1_700_000_000_000 % BUCKET_MS);

function x(over: Partial<ExchangeSummary>): ExchangeSummary {
  return { id: 's/1', session: 's', server: 'fs', requester: 'client', requestId: 1, method: 'tools/call', status: 'ok', startedAt: T, endedAt: T, latencyMs: 1, requestSeq: 1, progress: [], progressCount: 0, ...over };
}

describe('ServerStatsBook', () => {
  it('counts failed tool calls as errors and gives p50/p95 per 10 s bucket', () => {
    const book = new ServerStatsBook();
    for (let i = 1; i <= 100; i++) book.record(x({ latencyMs: i, endedAt: T + 1000 }));
    book.record(x({ status: 'error', isError: true, reason: 'Access denied', latencyMs: 3, endedAt: T + BUCKET_MS + 5 }));
    book.record(x({ requester: 'server', method: 'sampling/createMessage', endedAt: T + BUCKET_MS + 6 }));
    const [fs] = book.list();
    expect(fs).toMatchObject({ server: 'fs', calls: 101, errors: 1, bucketMs: BUCKET_MS });
    expect(fs!.series).toEqual([
      { t: T, calls: 100, errors: 0, p50Ms: 50, p95Ms: 95 },
      { t: T + BUCKET_MS, calls: 1, errors: 1, p50Ms: 3, p95Ms: 3 },
    ]);
  });
});
