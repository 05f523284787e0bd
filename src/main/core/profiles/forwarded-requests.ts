/**
 * The client requests a legacy aggregate handed to its members, by the client's id: which member
 * has each one, and that member's own deadline on it (member-deadlines.ts). An answer is the
 * client's once; one that comes after its deadline passed is dropped; a member that goes away
 * leaves its requests to be failed with its name.
 */
import { idKey, type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { MemberDeadlines } from './member-deadlines.js';
import type { MemberLink } from './member-link.js';

export interface ForwardedOwner {
  /**
   * The member's deadline passed: tell `link` (when it still has the request) `cancel`, and
   * answer the client with `answer`.
   */
  expired(link: MemberLink | undefined, answer: JsonRpcResponse, cancel: { requestId: JsonRpcId; reason: string }): void;
}

export class ForwardedRequests {
  private readonly byKey = new Map<string, { link: MemberLink; id: JsonRpcId }>();
  private readonly deadlines: MemberDeadlines;

  constructor(owner: ForwardedOwner) {
    this.deadlines = new MemberDeadlines({
      expired: (key, answer, cancel) => {
        const link = this.byKey.get(key)?.link;
        this.byKey.delete(key);
        owner.expired(link, answer, cancel);
      },
    });
  }

  /** `message` goes to `link`, under the member's own deadline when it sets one. */
  start(message: JsonRpcRequest, link: MemberLink): void {
    this.byKey.set(idKey(message.id), { link, id: message.id });
    this.deadlines.start(message, link.server, link.port?.requestTimeoutMs);
  }

  /** It could not be sent after all. */
  drop(id: JsonRpcId): void {
    const key = idKey(id);
    this.byKey.delete(key);
    this.deadlines.clear(key);
  }

  /** A member answered `id`: false when that is a late answer, to a request whose deadline passed (drop it). */
  answered(id: JsonRpcId | null | undefined): boolean {
    const key = idKey(id ?? '');
    if (!this.byKey.delete(key) && this.deadlines.late(key)) return false;
    this.deadlines.clear(key);
    return true;
  }

  /** The client cancelled `id`: the member that has it, if one does. */
  cancelled(id: JsonRpcId): MemberLink | undefined {
    const key = idKey(id);
    const link = this.byKey.get(key)?.link;
    this.byKey.delete(key);
    this.deadlines.clear(key);
    return link;
  }

  /** Progress of a request moves its member's deadline. */
  progress(token: unknown): void {
    this.deadlines.progress(token);
  }

  /** `link` will not answer (it died, or left the profile): the ids it had, forgotten. */
  lostWith(link: MemberLink): JsonRpcId[] {
    const ids: JsonRpcId[] = [];
    for (const [key, entry] of [...this.byKey]) {
      if (entry.link !== link) continue;
      this.byKey.delete(key);
      this.deadlines.clear(key);
      ids.push(entry.id);
    }
    return ids;
  }

  clear(): void {
    this.deadlines.clearAll();
    this.byKey.clear();
  }
}
