/**
 * Each member's own request timeout (`requestTimeoutMs` in its config) on the client requests an
 * aggregated session forwards to it. The session in front of a profile only knows the profile's
 * deadline; a member that sets a shorter one gets it here, extended by the request's progress as
 * the hub does for a server's own endpoint. On expiry the member is told (`notifications/cancelled`)
 * and the client gets an error naming the member; the member's late answer is dropped.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { errorResponse, idKey, progressTokenOf, type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';

export interface DeadlineOwner {
  /** The member's deadline passed: cancel it there and answer the client with `answer`. */
  expired(key: string, answer: JsonRpcResponse, cancel: { requestId: JsonRpcId; reason: string }): void;
}

interface Deadline {
  timer: NodeJS.Timeout;
  limit: number;
  id: JsonRpcId;
  method: string;
  server: string;
  token: string | undefined;
}

/** `1.5s`, `250ms`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

export function timeoutAnswer(id: JsonRpcId, server: string, method: string, limit: number): JsonRpcResponse {
  return errorResponse(id, ErrorCode.InternalError, `Request timed out: server '${server}' did not answer '${method}' within ${formatMs(limit)}`, { server });
}

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
    const token = progressTokenOf(message);
    const entry: Deadline = { timer: this.timer(key, limit), limit, id: message.id, method: message.method, server, token: token === undefined ? undefined : idKey(token) };
    this.clear(key);
    this.byKey.set(key, entry);
    if (entry.token !== undefined) this.byToken.set(entry.token, key);
  }

  /** Progress of a request moves its deadline. */
  progress(token: unknown): void {
    if (typeof token !== 'string' && typeof token !== 'number') return;
    const key = this.byToken.get(idKey(token));
    const entry = key === undefined ? undefined : this.byKey.get(key);
    if (!key || !entry) return;
    clearTimeout(entry.timer);
    entry.timer = this.timer(key, entry.limit);
  }

  /** The request is over (answered, cancelled, failed). */
  clear(key: string): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.byKey.delete(key);
    if (entry.token !== undefined) this.byToken.delete(entry.token);
  }

  /** Whether an answer is a late one, to a request that already timed out (each is dropped once). */
  late(key: string): boolean {
    return this.expiredKeys.delete(key);
  }

  clearAll(): void {
    for (const entry of this.byKey.values()) clearTimeout(entry.timer);
    this.byKey.clear();
    this.byToken.clear();
    this.expiredKeys.clear();
  }

  private timer(key: string, limit: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const entry = this.byKey.get(key);
      if (!entry) return;
      this.clear(key);
      this.expiredKeys.add(key);
      if (this.expiredKeys.size > 1000) this.expiredKeys.delete(this.expiredKeys.values().next().value!);
      this.owner.expired(key, timeoutAnswer(entry.id, entry.server, entry.method, entry.limit), { requestId: entry.id, reason: `timed out after ${formatMs(entry.limit)} in patchbay` });
    }, limit);
    timer.unref();
    return timer;
  }
}
