/**
 * Requests the hub sends upstream on its own behalf (the client's initialize before a session
 * exists, replayed initializes, the inspector's replay): their answers go back to the hub's
 * code, never to a client stream. Ids are the hub's own (`patchbay-replay-N`) or the client's
 * initialize id, which no stream is waiting for.
 */
import { idKey, type JsonRpcId, type JsonRpcMessage } from '../protocol/json-rpc.js';

/** An answer to a hub-originated request; `local` when the upstream connection wrote it itself. */
export interface HubAnswer {
  message: JsonRpcMessage;
  local: boolean;
}

export class HubWaiters {
  private readonly byId = new Map<string, { resolve(a: HubAnswer): void; reject(e: Error): void }>();

  /** Waits for the answer to `id`; register before sending, so a fast answer cannot be missed. */
  wait(id: JsonRpcId): Promise<HubAnswer> {
    return new Promise((resolve, reject) => this.byId.set(idKey(id), { resolve, reject }));
  }

  /** Hands a response to the request that waits for it; false when none does. */
  settle(message: JsonRpcMessage, local: boolean): boolean {
    if ('method' in message) return false;
    const key = idKey(message.id ?? '');
    const waiter = this.byId.get(key);
    if (!waiter) return false;
    this.byId.delete(key);
    waiter.resolve({ message, local });
    return true;
  }

  /** Stops waiting for `id` (its caller gave up). */
  forget(id: JsonRpcId): void {
    this.byId.delete(idKey(id));
  }

  /** The upstream died: every waiting request fails with its reason. */
  rejectAll(error: Error): void {
    for (const waiter of this.byId.values()) waiter.reject(error);
    this.byId.clear();
  }
}
