import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../log/logger.js';
import { ExportHealth } from './export-health.js';
import { SpanQueue } from './span-queue.js';

const span = (): ReadableSpan => ({ name: 's' }) as unknown as ReadableSpan;
const spans = (n: number): ReadableSpan[] => Array.from({ length: n }, span);

function recordingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log: Logger = { debug: () => undefined, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`), child: () => log };
  return { log, lines };
}

/** An exporter whose answer the test gives (or never gives). */
function exporter(answer: (batch: ReadableSpan[]) => ExportResult | undefined): SpanExporter & { batches: number[] } {
  const batches: number[] = [];
  return {
    batches,
    export: (batch, done) => {
      batches.push(batch.length);
      const result = answer(batch);
      if (result) setTimeout(() => done(result), 1);
    },
    shutdown: async () => undefined,
  };
}

describe('the span queue', () => {
  it('sends in batches, one export at a time', async () => {
    const e = exporter(() => ({ code: ExportResultCode.SUCCESS }));
    const { log } = recordingLog();
    const q = new SpanQueue(e, new ExportHealth(log, 'x'), { maxQueued: 100, batchSize: 4, delayMs: 10, exportTimeoutMs: 1000 });
    q.add(spans(10));
    await vi.waitFor(() => expect(e.batches).toEqual([4, 4, 2]));
    expect(q.length).toBe(0);
  });

  it('a failing collector: batches dropped and counted, said once; overflow counted; its return said once', async () => {
    let up = false;
    const e = exporter(() => ({ code: up ? ExportResultCode.SUCCESS : ExportResultCode.FAILED, ...(up ? {} : { error: new Error('connect ECONNREFUSED') }) }));
    const { log, lines } = recordingLog();
    const health = new ExportHealth(log, 'http://collector');
    const q = new SpanQueue(e, health, { maxQueued: 5, batchSize: 2, delayMs: 5, exportTimeoutMs: 1000 });
    q.add(spans(8));
    expect(health.dropped.spans).toBe(3);
    await vi.waitFor(() => expect(health.dropped.spans).toBe(8));
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(lines[0]).toContain('ECONNREFUSED');
    up = true;
    q.add(spans(2));
    await vi.waitFor(() => expect(lines.some((l) => l.includes('takes exports again'))).toBe(true));
    expect(lines.filter((l) => l.includes('takes exports again'))).toEqual(['info telemetry: the collector takes exports again (8 spans dropped meanwhile, 8 since start)']);
  });

  it('close never hangs on an exporter that never answers', async () => {
    const e = exporter(() => undefined);
    const { log } = recordingLog();
    const health = new ExportHealth(log, 'x');
    const q = new SpanQueue(e, health, { maxQueued: 100, batchSize: 2, delayMs: 5, exportTimeoutMs: 60_000 });
    q.add(spans(6));
    // The first batch is with the exporter (which never answers); four spans wait behind it.
    await vi.waitFor(() => expect(e.batches).toEqual([2]));
    // The exporter never answers and its own timeout is a minute: a close that waited on it would
    // outlast the test's timeout (no clock asserted).
    await q.close(200);
    expect(health.dropped.spans).toBe(4);
  });
});
