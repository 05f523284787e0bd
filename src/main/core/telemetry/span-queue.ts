/**
 * Finished spans on their way to the SDK's OTLP exporter: batched (a batch when `batchSize`
 * spans wait, else every `delayMs`), one export in flight at a time, bounded (`maxQueued`; more
 * are dropped and counted). The SDK's BatchSpanProcessor does the same, but keeps its drop count
 * to itself and reports failures only through its global error handler; here every drop is
 * counted and a failing collector is said once (export-health.ts). Nothing here is awaited by
 * the request path: spans are added in the capture pipeline's drain, and `add` only queues.
 */
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { ExportHealth } from './export-health.js';

export interface SpanQueueOptions {
  readonly maxQueued: number;
  readonly batchSize: number;
  readonly delayMs: number;
  /** An export that has not called back by then is taken as failed (the exporter's own timeout is shorter). */
  readonly exportTimeoutMs: number;
}

/** Finished spans, batched to the SDK's exporter; drops counted in the export health. */
export class SpanQueue {
  private queue: ReadableSpan[] = [];
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly health: ExportHealth,
    private readonly options: SpanQueueOptions,
  ) {}

  /** Spans waiting to be sent. */
  get length(): number {
    return this.queue.length;
  }

  /** True when the queue has no room: the caller need not build spans only to drop them. */
  get full(): boolean {
    return this.queue.length >= this.options.maxQueued;
  }

  /** Spans not even built because the queue was full: dropped and counted. */
  dropped(count: number): void {
    this.health.overflowed(count);
  }

  /** Queues finished spans; those the queue has no room for are dropped and counted. */
  add(spans: readonly ReadableSpan[]): void {
    if (this.closed || spans.length === 0) return;
    const room = this.options.maxQueued - this.queue.length;
    if (spans.length > room) this.health.overflowed(spans.length - Math.max(0, room));
    for (let i = 0; i < spans.length && i < room; i++) this.queue.push(spans[i]!);
    if (this.queue.length >= this.options.batchSize) this.sendSoon(0);
    else this.sendSoon(this.options.delayMs);
  }

  /** Sends everything queued, waiting at most `timeoutMs`; stops taking spans. Never rejects. */
  async close(timeoutMs: number): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const deadline = Date.now() + timeoutMs;
    const drain = async (): Promise<void> => {
      while (this.inFlight !== undefined || this.queue.length > 0) {
        if (Date.now() >= deadline) return;
        await (this.inFlight ?? this.send());
      }
    };
    let stop: NodeJS.Timeout | undefined;
    await Promise.race([drain(), new Promise<void>((resolve) => (stop = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
    clearTimeout(stop);
    if (this.queue.length > 0) this.health.overflowed(this.queue.length);
    this.queue = [];
    await Promise.race([this.exporter.shutdown().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
  }

  private sendSoon(delayMs: number): void {
    if (this.inFlight !== undefined) return; // the export in flight sends the next batch when it ends
    if (this.timer !== undefined) {
      if (delayMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, delayMs);
    // A span waiting to be sent never keeps the process alive: close() flushes.
    this.timer.unref();
  }

  /** Exports one batch; when it ends, schedules the next if spans wait. */
  private send(): Promise<void> {
    if (this.inFlight !== undefined) return this.inFlight;
    const batch = this.queue.splice(0, this.options.batchSize);
    if (batch.length === 0) return Promise.resolve();
    const done = new Promise<void>((resolve) => {
      let over = false;
      const finish = (result: ExportResult): void => {
        if (over) return;
        over = true;
        clearTimeout(guard);
        if (result.code === ExportResultCode.SUCCESS) this.health.succeeded('traces', batch.length);
        else this.health.failed('traces', batch.length, result.error);
        resolve();
      };
      const guard = setTimeout(() => finish({ code: ExportResultCode.FAILED, error: new Error(`no answer within ${this.options.exportTimeoutMs} ms`) }), this.options.exportTimeoutMs);
      guard.unref();
      try {
        this.exporter.export(batch, finish);
      } catch (err) {
        finish({ code: ExportResultCode.FAILED, error: err as Error });
      }
    });
    this.inFlight = done.then(() => {
      this.inFlight = undefined;
      if (!this.closed && this.queue.length > 0) this.sendSoon(this.queue.length >= this.options.batchSize ? 0 : this.options.delayMs);
    });
    return this.inFlight;
  }
}
