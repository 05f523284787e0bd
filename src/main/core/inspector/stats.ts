/** Per-server call statistics since the engine started; latency percentiles over a recent window. */
import type { ExchangeSummary, ServerStats } from '../../../shared/api/inspector-contract.js';

const WINDOW = 2048;

interface Book {
  calls: number;
  errors: number;
  cancelled: number;
  timeouts: number;
  lastCallAt: number | undefined;
  latencies: number[];
  next: number;
}

export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export class ServerStatsBook {
  readonly since = Date.now();
  private readonly books = new Map<string, Book>();

  /** Counts a client's request that completed (replays of the hub itself are not calls). */
  record(e: ExchangeSummary): void {
    if (e.requester !== 'client' || e.status === 'pending') return;
    let b = this.books.get(e.server);
    if (!b) {
      b = { calls: 0, errors: 0, cancelled: 0, timeouts: 0, lastCallAt: undefined, latencies: [], next: 0 };
      this.books.set(e.server, b);
    }
    b.calls++;
    if (e.status === 'error' || e.status === 'orphaned' || e.status === 'timeout') b.errors++;
    if (e.status === 'cancelled') b.cancelled++;
    if (e.status === 'timeout') b.timeouts++;
    b.lastCallAt = e.endedAt ?? e.startedAt;
    if (e.latencyMs !== undefined && e.status !== 'cancelled') {
      if (b.latencies.length < WINDOW) b.latencies.push(e.latencyMs);
      else b.latencies[b.next] = e.latencyMs;
      b.next = (b.next + 1) % WINDOW;
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
      out.push(s);
    }
    return out;
  }
}
