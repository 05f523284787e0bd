/**
 * The deadline of a call in flight through the hub, in both eras (ARCHITECTURE reliability rules):
 * the server's request timeout from when the call went out, moved on by each progress
 * notification, checked by the hub's housekeeping tick — a 2025 session's pending requests
 * (session.ts) and a 2026-07-28 call (modern-call.ts) alike, with the same words when it passes.
 */

/** `250ms`, `1.5s`: how long, as the hub's messages say it. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

export class CallDeadline {
  /** When the call is given up unless progress moves it on (epoch ms). */
  at: number;

  constructor(
    readonly limitMs: number,
    now = Date.now(),
  ) {
    this.at = now + limitMs;
  }

  /** Progress shows work is being done: the whole limit again from now. */
  progressed(now = Date.now()): void {
    this.at = now + this.limitMs;
  }

  passed(now: number): boolean {
    return this.at <= now;
  }
}

/** What a call that timed out is told upstream (its cancellation's reason) and answered with. */
export function timedOut(serverId: string, method: string, limitMs: number): { reason: string; message: string } {
  const limit = formatDuration(limitMs);
  return { reason: `timed out after ${limit} in patchbay`, message: `Request timed out: server '${serverId}' did not answer '${method}' within ${limit}` };
}

/**
 * What a request is answered with when its client stopped reading and the hub gave its stream up
 * (the server is not held up for one client: flow control, protocol/sse-writer.ts).
 */
export function stalledReader(serverId: string, backlogBytes: number): string {
  return `patchbay: the client stopped reading this stream, and it was closed with ${Math.round(backlogBytes / 1048576)} MiB waiting in the hub, so that server '${serverId}' is not held up for other clients`;
}
