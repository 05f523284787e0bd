/**
 * When to try a member that is down again, for both aggregates (aggregate-upstream.ts for legacy
 * sessions, modern-aggregate.ts for modern clients): at most one timer per member, unref'd, at the
 * member's own `retryAt` (its backoff); `retry` decides then whether the try is still wanted.
 */
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
