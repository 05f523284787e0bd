/**
 * When to try a member that is down again, for both aggregates (aggregate-upstream.ts for legacy
 * sessions, modern-aggregate.ts for modern clients) and a modern listen stream (modern-listen.ts):
 * one backoff schedule, each member's own failures in a row counted on it (MemberBackoff), and
 * at most one timer per member in an aggregate (MemberRetries), unref'd, at the member's own
 * `retryAt`; the timer's callback decides then whether the try is still wanted.
 */

/** Waits before a member that failed is tried again, by failures in a row (the last one repeats). */
export const BACKOFF_MS: readonly number[] = [250, 1000, 2000, 5000, 10_000, 30_000];

/** The wait after `failures` failures in a row (0: the first one). */
export function backoffDelay(failures: number): number {
  return BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
}

/** One member's failures in a row, and when it may be tried again. */
export class MemberBackoff {
  private failures = 0;
  private at = 0;

  /** When another try may be made (epoch ms; 0: at once). */
  get retryAt(): number {
    return this.at;
  }

  /** It failed (again): the next try waits longer. */
  failed(now = Date.now()): void {
    this.at = now + backoffDelay(this.failures++);
  }

  /** It answered: the next failure starts the schedule over. */
  succeeded(): void {
    this.failures = 0;
    this.at = 0;
  }
}

export class MemberRetries {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** Schedules `retry` for `server` at `at` (epoch ms) unless one is already pending. */
  schedule(server: string, at: number, retry: () => void): void {
    if (this.timers.has(server)) return;
    const timer = setTimeout(() => {
      this.timers.delete(server);
      retry();
    }, Math.max(0, at - Date.now()));
    timer.unref();
    this.timers.set(server, timer);
  }

  /** The member left (or was replaced): no retry for it. */
  cancel(server: string): void {
    clearTimeout(this.timers.get(server));
    this.timers.delete(server);
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
