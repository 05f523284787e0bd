// Per-server stats: failed tool calls count as errors; latency percentiles per time bucket.
import { describe, expect, it } from 'vitest';
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import { BUCKET_MS, ServerStatsBook } from './stats.js';

const T = 1_700_000_000_000 - (1_700_000_000_000 % BUCKET_MS);

const SESSION: ObservedExchange['session'] = { id: 's', serverId: 'fs', clientTransport: 'streamable-http', upstreamTransport: 'stdio', debug: false, era: 'legacy' };

function x(over: Partial<ObservedExchange>): ObservedExchange {
  return {
    id: 's/1',
    session: SESSION,
    requester: 'client',
    request: { id: 1, method: 'tools/call', target: 'read' },
    eras: { client: 'legacy', server: 'legacy', bridged: false },
    status: 'ok',
    startedAt: T,
    endedAt: T,
    durationMs: 1,
    requestBytes: 10,
    progressCount: 0,
    inputRounds: 0,
    ...over,
  };
}

describe('ServerStatsBook', () => {
  it('counts failed tool calls as errors and gives p50/p95 per 10 s bucket', () => {
    const book = new ServerStatsBook();
    for (let i = 1; i <= 100; i++) book.record(x({ durationMs: i, endedAt: T + 1000 }));
    book.record(x({ status: 'error', error: { kind: 'tool_error', message: 'Access denied' }, durationMs: 3, endedAt: T + BUCKET_MS + 5 }));
    book.record(x({ requester: 'server', request: { id: 1, method: 'sampling/createMessage' }, endedAt: T + BUCKET_MS + 6 }));
    // A replay is the hub's own session: not a call.
    book.record(x({ session: { ...SESSION, clientTransport: 'hub', debug: true }, endedAt: T + BUCKET_MS + 7 }));
    const [fs] = book.list();
    expect(fs).toMatchObject({ server: 'fs', calls: 101, errors: 1, bucketMs: BUCKET_MS });
    expect(fs!.series).toEqual([
      { t: T, calls: 100, errors: 0, p50Ms: 50, p95Ms: 95 },
      { t: T + BUCKET_MS, calls: 1, errors: 1, p50Ms: 3, p95Ms: 3 },
    ]);
  });
});
