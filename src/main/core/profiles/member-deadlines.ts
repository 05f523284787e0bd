/**
 * Each member's own request timeout (`requestTimeoutMs` in its config) on the client requests an
 * aggregate forwards to it, in both eras. The hub in front of a profile only knows the profile's
 * deadline (a backstop, profile-port.ts); a member that sets a shorter one gets it here, moved on
 * by the request's progress as the hub does for a server's own endpoint. On expiry the member is
 * told (`notifications/cancelled`, or the modern call cancelled) and the client gets an error
 * naming the member, in the hub's own words (hub/call-clock.ts); the member's late answer is dropped.
 *
 * The aggregates have no share in the hub's housekeeping tick, so a deadline here is a timer:
 * MemberTimer is one request's (the modern member arms one per forwarded call), MemberDeadlines
 * a legacy session's table of them, found again by request id and progress token.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { formatDuration, timedOut } from '../hub/call-clock.js';
import { errorResponse, idKey, progressTokenOf, type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';

/** The client's answer when `server` did not answer `method` within `limit` ms; `data.server` names it. */
export function timeoutAnswer(id: JsonRpcId, server: string, method: string, limit: number): JsonRpcResponse {
  return errorResponse(id, ErrorCode.InternalError, timedOut(server, method, limit).message, { server });
}

/** The reason a timed-out request is cancelled with at the member. */
export function timeoutReason(server: string, method: string, limit: number): string {
  return timedOut(server, method, limit).reason;
}

/** Why the aggregate's own request failed: the member did not answer `method` in time (the caller names the member). */
export function unansweredWithin(method: string, limit: number): string {
  return `did not answer ${method} within ${formatDuration(limit)}`;
}

/** One request's deadline at a member: `expired` runs once, `limit` ms after the start or the last progress. */
export class MemberTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly limit: number,
    private readonly expired: () => void,
  ) {
    this.arm();
  }

  /** Progress shows work is being done: the whole limit again from now. */
  progressed(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.arm();
  }

  /** The request is over: it will not expire. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.expired();
    }, this.limit);
    this.timer.unref();
  }
}

export interface DeadlineOwner {
  /** The member's deadline passed: cancel it there and answer the client with `answer`. */
  expired(key: string, answer: JsonRpcResponse, cancel: { requestId: JsonRpcId; reason: string }): void;
}

interface Deadline {
  timer: MemberTimer;
  token: string | undefined;
}

/** Late answers remembered at most (the oldest is forgotten first). */
const MAX_EXPIRED = 1000;

export class MemberDeadlines {
  private readonly byKey = new Map<string, Deadline>();
  private readonly byToken = new Map<string, string>();
  /** Requests that timed out: their late answers are not the client's any more. */
  private readonly expiredKeys = new Set<string>();

  constructor(private readonly owner: DeadlineOwner) {}

  /** A request went to `server`, whose own timeout is `limit` (none: the session's deadline only). */
  start(message: JsonRpcRequest, server: string, limit: number | undefined): void {
    const key = idKey(message.id);
    this.expiredKeys.delete(key);
    if (limit === undefined) return;
    this.clear(key);
    const token = progressTokenOf(message);
    const { id, method } = message;
    const timer = new MemberTimer(limit, () => this.expire(key, timeoutAnswer(id, server, method, limit), { requestId: id, reason: timeoutReason(server, method, limit) }));
    const entry: Deadline = { timer, token: token === undefined ? undefined : idKey(token) };
    this.byKey.set(key, entry);
    if (entry.token !== undefined) this.byToken.set(entry.token, key);
  }

  /** Progress of a request moves its deadline. */
  progress(token: unknown): void {
    if (typeof token !== 'string' && typeof token !== 'number') return;
    const key = this.byToken.get(idKey(token));
    if (key !== undefined) this.byKey.get(key)?.timer.progressed();
  }

  /** The request is over (answered, cancelled, failed). */
  clear(key: string): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    entry.timer.clear();
    this.byKey.delete(key);
    if (entry.token !== undefined) this.byToken.delete(entry.token);
  }

  /** Whether an answer is a late one, to a request that already timed out (each is dropped once). */
  late(key: string): boolean {
    return this.expiredKeys.delete(key);
  }

  clearAll(): void {
    for (const entry of this.byKey.values()) entry.timer.clear();
    this.byKey.clear();
    this.byToken.clear();
    this.expiredKeys.clear();
  }

  private expire(key: string, answer: JsonRpcResponse, cancel: { requestId: JsonRpcId; reason: string }): void {
    if (!this.byKey.has(key)) return;
    this.clear(key);
    this.expiredKeys.add(key);
    if (this.expiredKeys.size > MAX_EXPIRED) this.expiredKeys.delete(this.expiredKeys.values().next().value!);
    this.owner.expired(key, answer, cancel);
  }
}
