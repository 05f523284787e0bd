/**
 * The resource subscriptions a client holds on a remote server (`resources/subscribe`), as the
 * server accepted them, so that a new upstream session — one the hub opened because the old one
 * was lost — can be given them again and `notifications/resources/updated` keep coming.
 * Only answered requests count: a subscribe the server refused holds nothing.
 */
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.js';

/** More than any client plausibly holds; past it the oldest is forgotten (bounded, ARCHITECTURE). */
const MAX_SUBSCRIPTIONS = 1000;

export class ResourceSubscriptions {
  /** Params of each subscribe as the client sent them, by URI, oldest first. */
  private readonly byUri = new Map<string, Record<string, unknown>>();

  /** Whether a request changes the subscriptions (so its params must be kept until it is answered). */
  static concerns(request: JsonRpcRequest): boolean {
    return request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe';
  }

  get size(): number {
    return this.byUri.size;
  }

  /** The server accepted a subscribe or unsubscribe with these params. */
  accepted(method: string, params: Record<string, unknown>): void {
    const uri = params.uri;
    if (typeof uri !== 'string') return;
    // Deleted first either way: a repeated subscribe counts from its latest time.
    this.byUri.delete(uri);
    if (method !== 'resources/subscribe') return;
    this.byUri.set(uri, params);
    if (this.byUri.size > MAX_SUBSCRIPTIONS) this.byUri.delete(this.byUri.keys().next().value!);
  }

  /**
   * Makes the subscriptions again on a new upstream session, one after the other in the order the
   * client made them, through `ask` (a request of the hub's own, its answer kept from the client).
   * Resolves with what went wrong, one line per subscription the server did not take again.
   */
  async renew(ask: (params: Record<string, unknown>) => Promise<JsonRpcMessage>): Promise<string[]> {
    const failures: string[] = [];
    for (const [uri, params] of [...this.byUri]) {
      try {
        const error = (await ask(params) as JsonRpcResponse).error;
        if (error) failures.push(`${uri}: the server refused it: ${error.message}`);
      } catch (err) {
        failures.push(`${uri}: ${(err as Error).message}`);
      }
    }
    return failures;
  }
}
