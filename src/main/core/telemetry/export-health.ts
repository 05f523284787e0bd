/**
 * Whether the collector takes what telemetry sends, said once: the first failed export logs one
 * warning (what failed and that what fails is dropped and counted), the first success after it
 * one line saying so and how much was dropped meanwhile. Nothing on the request path waits for
 * an export, so a collector that is down or slow costs a call nothing; this is how a person
 * learns of it without a line per batch.
 */
import type { Logger } from '../log/logger.js';

/** What was dropped since telemetry started (spans the collector did not take or the queue had no room for; metric exports). */
export interface DropCounts {
  spans: number;
  metricExports: number;
}

/** Counts what the collector did not take and says a failure (and a recovery) once. */
export class ExportHealth {
  readonly dropped: DropCounts = { spans: 0, metricExports: 0 };
  /** What the collector took since start (the Settings panel shows both counts). */
  readonly exported: DropCounts = { spans: 0, metricExports: 0 };
  /** The last export that failed: its message (never a header) and when. */
  lastError: { message: string; at: string } | undefined;
  private down = false;
  /** Spans dropped when an export last went through, for the recovery line. */
  private spansAtSuccess = 0;

  constructor(
    private readonly log: Logger,
    /** Where exports go, for the log (the endpoints: never the headers). */
    private readonly where: string,
  ) {}

  /** True between a failed export and the next one that succeeds. */
  get failing(): boolean {
    return this.down;
  }

  /** An export failed: its `spans` (0 for metrics) are dropped. */
  failed(signal: 'traces' | 'metrics', spans: number, error: Error | undefined): void {
    if (signal === 'traces') this.dropped.spans += spans;
    else this.dropped.metricExports++;
    this.lastError = { message: `${signal}: ${error?.message ?? 'export failed'}`, at: new Date().toISOString() };
    if (this.down) return;
    this.down = true;
    this.log.warn(`telemetry: the collector did not take ${signal} (${this.where}): ${error?.message ?? 'export failed'}; what it does not take is dropped and counted, calls go on unaffected`);
  }

  /** The queue had no room: `spans` dropped before any export was tried (said with the outage). */
  overflowed(spans: number): void {
    this.dropped.spans += spans;
  }

  /** An export went through: `spans` of traces (0 for a metric export). */
  succeeded(signal: 'traces' | 'metrics', spans = 0): void {
    if (signal === 'traces') this.exported.spans += spans;
    else this.exported.metricExports++;
    if (this.down) {
      this.down = false;
      this.log.info(`telemetry: the collector takes exports again (${this.dropped.spans - this.spansAtSuccess} spans dropped meanwhile, ${this.dropped.spans} since start)`);
    }
    this.spansAtSuccess = this.dropped.spans;
  }
}
