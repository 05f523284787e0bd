/**
 * Requests a remote connection sends on a link on its own behalf when it re-initializes a lost
 * upstream session (P17): the replayed `initialize` and the renewed resource subscriptions. Their
 * answers come back to this code, never to the client (which had its answers long ago), each
 * within the initialize deadline; what is sent and heard is reported as `reinitialize` events, so
 * the session captures it as its own replay. Ids are the hub's own (`patchbay-reinit-N`,
 * `patchbay-resubscribe-N`), so no client request is mistaken for one.
 *
 * The remote side's counterpart of hub/hub-waiters.ts, in a file of its own for the same reason:
 * remote-links.ts sends them, remote-upstream.ts hands them their answers, and neither needs the
 * other for that.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { idKey, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import type { RemoteLink } from './remote-link.js';
import type { RemoteUpstreamOptions } from './remote-options.js';
import type { UpstreamConnection } from './upstream.js';

/** The hub's own requests on a remote connection's links, waiting for their answers. */
export class InternalRequests {
  /** Answers by id key; an Error when the connection closed. */
  private readonly waiting = new Map<string, (answer: JsonRpcMessage | Error) => void>();

  /**
   * @param opts its `initializeTimeoutMs` is the deadline of each of them
   * @param events the connection's `onevent` as it is when there is something to report (its
   * session sets it only while an observer wants events)
   */
  constructor(
    private readonly opts: Pick<RemoteUpstreamOptions, 'initializeTimeoutMs'>,
    private readonly events: () => UpstreamConnection['onevent'],
  ) {}

  /**
   * A request of the hub's own on `link`, answered to the hub (never to the client), within the
   * initialize deadline; reported to observers as part of a re-initialization.
   */
  async ask(link: RemoteLink, request: JsonRpcRequest): Promise<JsonRpcMessage> {
    const key = idKey(request.id);
    const limit = this.opts.initializeTimeoutMs;
    const answer = await new Promise<JsonRpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        const err = new Error(`did not answer the replayed ${request.method} within ${Math.round(limit / 1000)}s`);
        (err as { code?: string }).code = 'ETIMEDOUT';
        reject(err);
      }, limit);
      this.waiting.set(key, (m) => {
        clearTimeout(timer);
        if (m instanceof Error) reject(m);
        else resolve(m);
      });
      this.events()?.({ type: 'reinitialize', step: 'sent', message: request });
      link.send(request as JSONRPCMessage).catch((err: unknown) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
    this.events()?.({ type: 'reinitialize', step: 'answered', message: answer, raw: JSON.stringify(answer) });
    return answer;
  }

  /** Hands a response to the request of the hub's own it answers; false when it answers none. */
  settle(key: string, message: JsonRpcMessage): boolean {
    const waiter = this.waiting.get(key);
    if (!waiter) return false;
    this.waiting.delete(key);
    waiter(message);
    return true;
  }

  /** The connection closed: each request waiting fails at once, with an error of its own. */
  closed(): void {
    for (const waiter of this.waiting.values()) waiter(new Error('the connection is closed'));
    this.waiting.clear();
  }
}
