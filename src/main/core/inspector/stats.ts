/**
 * Per-server call statistics since the engine started: counts, latency percentiles over a recent
 * window, and the same percentiles over time (10-second buckets of the most recent hour) for the
 * UI's chart. A subscriber of the pipeline's completed exchanges (traffic/traffic.ts
 * `onExchange`, passive: it counts whenever the pipeline runs), never on the proxy path.
 */
import type { ServerStats } from '../../../shared/api/inspector-contract.js';
import type { ObservedExchange } from '../traffic/observed-exchange.js';

const WINDOW = 2048;
/** Width of one point of the latency-over-time series. */
export const BUCKET_MS = 10_000;
/** One hour of buckets. */
const MAX_BUCKETS = 360;
/** Latencies kept per bucket (a uniform sample beyond: percentiles stay honest, memory bounded). */
const BUCKET_SAMPLES = 256;

interface Bucket {
  t: number;
  calls: number;
  errors: number;
  latencies: number[];
}

interface Book {
  calls: number;
  errors: number;
  cancelled: number;
  timeouts: number;
  lastCallAt: number | undefined;
  latencies: number[];
  next: number;
  buckets: Bucket[];
}

export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/** Failed from the caller's point of view: an error answer (a failed tool too), a timeout, no answer. */
function failed(e: ObservedExchange): boolean {
  return e.status === 'error' || e.status === 'orphaned' || e.status === 'timeout';
}

export class ServerStatsBook {
  readonly since = Date.now();
  private readonly books = new Map<string, Book>();

  /** Counts a client's request that completed (replays of the hub itself are not calls). */
  record(e: ObservedExchange): void {
    if (e.requester !== 'client' || e.session.debug) return;
    const server = e.session.serverId;
    let b = this.books.get(server);
    if (!b) {
      b = { calls: 0, errors: 0, cancelled: 0, timeouts: 0, lastCallAt: undefined, latencies: [], next: 0, buckets: [] };
      this.books.set(server, b);
    }
    b.calls++;
    const isFailure = failed(e);
    if (isFailure) b.errors++;
    if (e.status === 'cancelled') b.cancelled++;
    if (e.status === 'timeout') b.timeouts++;
    const at = e.endedAt;
    b.lastCallAt = at;
    const bucket = bucketFor(b, at);
    bucket.calls++;
    if (isFailure) bucket.errors++;
    if (e.status !== 'cancelled') {
      const latency = e.durationMs;
      if (b.latencies.length < WINDOW) b.latencies.push(latency);
      else b.latencies[b.next] = latency;
      b.next = (b.next + 1) % WINDOW;
      if (bucket.latencies.length < BUCKET_SAMPLES) bucket.latencies.push(latency);
      else {
        // Reservoir sampling: every latency of the bucket had the same chance to be kept.
        const slot = Math.floor(Math.random() * bucket.calls);
        if (slot < BUCKET_SAMPLES) bucket.latencies[slot] = latency;
      }
    }
  }

  list(server?: string): ServerStats[] {
    const out: ServerStats[] = [];
    for (const [id, b] of [...this.books].sort(([a], [c]) => a.localeCompare(c))) {
      if (server !== undefined && id !== server) continue;
      const sorted = [...b.latencies].sort((x, y) => x - y);
      const s: ServerStats = { server: id, calls: b.calls, errors: b.errors, cancelled: b.cancelled, timeouts: b.timeouts };
      const p50 = percentile(sorted, 50);
      const p95 = percentile(sorted, 95);
      if (p50 !== undefined) s.p50Ms = p50;
      if (p95 !== undefined) s.p95Ms = p95;
      if (b.lastCallAt !== undefined) s.lastCallAt = b.lastCallAt;
      s.bucketMs = BUCKET_MS;
      s.series = b.buckets
        .filter((k) => k.latencies.length > 0)
        .map((k) => {
          const lat = [...k.latencies].sort((x, y) => x - y);
          return { t: k.t, calls: k.calls, errors: k.errors, p50Ms: percentile(lat, 50)!, p95Ms: percentile(lat, 95)! };
        });
      out.push(s);
    }
    return out;
  }
}

/** The bucket of time `at` (exchanges complete in time order, give or take: a late one joins its own bucket if kept). */
function bucketFor(b: Book, at: number): Bucket {
  const t = Math.floor(at / BUCKET_MS) * BUCKET_MS;
  const last = b.buckets[b.buckets.length - 1];
  if (last && last.t === t) return last;
  if (last && t < last.t) {
    for (let i = b.buckets.length - 2; i >= 0; i--) if (b.buckets[i]!.t === t) return b.buckets[i]!;
    return last;
  }
  const bucket: Bucket = { t, calls: 0, errors: 0, latencies: [] };
  b.buckets.push(bucket);
  if (b.buckets.length > MAX_BUCKETS) b.buckets.shift();
  return bucket;
}
