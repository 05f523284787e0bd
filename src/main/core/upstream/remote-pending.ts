/**
 * The client's requests a remote connection has in flight: the link that carries each, whether
 * the server took its POST, the abort of its response stream, `initialize`'s deadline, and the
 * params of a subscription change until the server accepts it. Every way a request ends without
 * the server's answer is here, each as a JSON-RPC error that names the server and the cause,
 * never a hang: a failed POST, a response stream that closed unanswered, a lost upstream session,
 * the initialize deadline, the connection closed.
 *
 * Separate from remote-upstream.ts, which decides what to do about a failed POST (fall back,
 * re-initialize, step up) and passes messages on; this only keeps the table and writes the
 * errors, through the one `replyLocally` the connection gives it.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { errorResponse, idKey, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { displayUrl, rpcErrorFor } from './remote-errors.js';
import type { RemoteLink } from './remote-link.js';
import type { RemoteUpstreamOptions } from './remote-options.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/** A client's request on its way to a remote server, or waiting for its answer. */
export interface RemoteRequest {
  id: JsonRpcId;
  method: string;
  /** The link that carries it (set when dispatched). */
  generation: number;
  /** The server took the POST: the answer comes on its stream (or the legacy event stream). */
  posted: boolean;
  abort: AbortController;
  timer?: NodeJS.Timeout;
  /** A `resources/subscribe` or `unsubscribe`: its params, recorded once the server accepts it. */
  subscription?: Record<string, unknown>;
  /** The client's own text of the request, when the hub has it: the POST's body (not serialized again). */
  raw?: string;
}

/** A remote connection's requests in flight, by id key. */
export class RemotePending {
  private readonly byKey = new Map<string, RemoteRequest>();

  /** @param replyLocally writes an answer to the client that the server did not write (UpstreamConnection `local`) */
  constructor(
    private readonly opts: RemoteUpstreamOptions,
    private readonly url: URL,
    private readonly replyLocally: (message: JsonRpcMessage) => void,
  ) {}

  /** Tracks a client's request from now until it is answered, failed or cancelled. */
  add(message: JsonRpcRequest, raw?: string): RemoteRequest {
    const entry: RemoteRequest = { id: message.id, method: message.method, generation: 0, posted: false, abort: new AbortController() };
    if (raw !== undefined) entry.raw = raw;
    if (ResourceSubscriptions.concerns(message)) entry.subscription = message.params ?? {};
    this.byKey.set(idKey(message.id), entry);
    return entry;
  }

  /** The request with this id, while it is open. */
  get(id: JsonRpcId): RemoteRequest | undefined {
    return this.byKey.get(idKey(id));
  }

  /** The request an answer is for, no longer open from now on (undefined when none is). */
  take(key: string): RemoteRequest | undefined {
    const entry = this.byKey.get(key);
    if (!entry) return undefined;
    this.byKey.delete(key);
    clearTimeout(entry.timer);
    return entry;
  }

  /** `initialize` gets an error past the initialize deadline, but not while a sign-in is pending. */
  armInitializeTimer(entry: RemoteRequest): void {
    const limit = this.opts.initializeTimeoutMs;
    entry.timer = setTimeout(() => {
      // The sign-in has its own deadline (the login wait), after which it answers this request.
      if (this.opts.auth?.signingIn()) return this.armInitializeTimer(entry);
      this.fail(entry, ErrorCode.InternalError, `server '${this.opts.serverId}' did not answer initialize within ${Math.round(limit / 1000)}s (${displayUrl(this.url)})`, { cause: 'timeout' });
    }, limit);
  }

  /** The client cancelled a request. */
  cancelled(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = idKey(requestId);
    const entry = this.byKey.get(key);
    if (!entry) return;
    // The server should not answer a cancelled request: stop reading (or resuming) its stream.
    this.byKey.delete(key);
    clearTimeout(entry.timer);
    entry.abort.abort();
  }

  /** A request's response stream ended for good; if nothing answered it, say so now. */
  streamEnded(entry: RemoteRequest): void {
    if (this.byKey.get(idKey(entry.id)) !== entry || entry.abort.signal.aborted) return;
    this.fail(entry, ErrorCode.InternalError, `server '${this.opts.serverId}' closed the response stream of '${entry.method}' without answering it`, { cause: 'stream_closed' });
  }

  /**
   * A link was taken out of service: the requests the server took on it lose their answer with it
   * and get an error, except `keep` (the one that found the session gone, sent again). Those
   * still being POSTed fail their POST, and are sent again (RemoteUpstream.dispatch).
   */
  lostWith(link: RemoteLink, keep: string | undefined): void {
    for (const [key, p] of [...this.byKey]) {
      if (p.generation !== link.generation || key === keep || !p.posted) continue;
      this.fail(p, ErrorCode.InternalError, `server '${this.opts.serverId}' lost its session before answering '${p.method}' (did it restart?); try again`, { cause: 'session_lost' });
    }
  }

  /** A message could not be delivered: a request gets the error, a notification is logged. */
  failMessage(message: JsonRpcMessage, err: unknown): void {
    if (!isRequest(message)) {
      this.opts.logger.warn(`could not deliver ${'method' in message ? message.method : 'a response'} to server '${this.opts.serverId}': ${(err as Error).message}`);
      return;
    }
    const entry = this.byKey.get(idKey(message.id));
    if (!entry) return;
    const { code, message: text, data } = rpcErrorFor(err, this.opts.serverId, message.method, this.url);
    this.fail(entry, code, text, data);
  }

  /** The connection closed: nothing is waited for any more, no response stream is read. */
  clear(): void {
    for (const p of this.byKey.values()) {
      clearTimeout(p.timer);
      p.abort.abort();
    }
    this.byKey.clear();
  }

  private fail(entry: RemoteRequest, code: number, message: string, data: Record<string, unknown>): void {
    const key = idKey(entry.id);
    if (this.byKey.get(key) !== entry) return;
    this.byKey.delete(key);
    clearTimeout(entry.timer);
    entry.abort.abort();
    this.replyLocally(errorResponse(entry.id, code, message, { server: this.opts.serverId, ...data }));
  }
}
