/**
 * One connection attempt to a remote MCP server: an SDK client transport (Streamable HTTP, or the
 * legacy HTTP+SSE one) used at the transport level only, so messages pass through as they are.
 * A `RemoteUpstream` replaces its link when the server loses the session or the legacy event
 * stream drops; each link has a generation so requests can be matched to the link that carried them.
 */
import {
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import type { Logger } from '../log/logger.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { RemoteFetch } from './remote-fetch.js';
import { RemotePost, type LinkRequest } from './remote-post.js';

export type LinkKind = 'streamable-http' | 'sse';

export interface LinkOptions {
  url: URL;
  headers: Record<string, string>;
  fetch: RemoteFetch;
  /** POSTs of requests by undici's request API (remote-post.ts); else they go by `fetch`. */
  request?: LinkRequest;
  auth?: AuthProvider;
  logger: Logger;
}

export interface LinkSendOptions {
  /** Aborts the request's own response stream (cancellation, close). */
  signal?: AbortSignal;
  /** The request's response stream ended (answered or not) and will not be resumed. */
  onStreamEnd?: () => void;
  /** The message's JSON text as the client wrote it, when known (the body of a POST the hub makes itself). */
  raw?: string;
}

/** Upstream SSE streams are resumed with Last-Event-ID; the server's `retry:` sets the delay (P12). */
const RECONNECTION = { initialReconnectionDelay: 500, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 2, maxRetries: 4 };
const TERMINATE_TIMEOUT_MS = 2000;

export class RemoteLink {
  dead = false;
  /** `raw`: the server's own text of the message, when it can be forwarded as it is. */
  onmessage: ((message: JSONRPCMessage, raw?: string) => void) | undefined;
  /** The legacy event stream broke: the server-side session is gone with it. */
  onlost: ((err: Error) => void) | undefined;
  private readonly transport: StreamableHTTPClientTransport | SSEClientTransport;
  /** Streamable HTTP: the requests the hub POSTs itself (remote-post.ts). */
  private readonly post: RemotePost | undefined;
  private started = false;

  constructor(
    readonly kind: LinkKind,
    readonly generation: number,
    private readonly opts: LinkOptions,
  ) {
    const common = {
      requestInit: { headers: opts.headers },
      fetch: opts.fetch,
      ...(opts.auth ? { authProvider: opts.auth } : {}),
    };
    this.transport =
      kind === 'sse'
        ? new SSEClientTransport(opts.url, common)
        : new StreamableHTTPClientTransport(opts.url, {
            ...common,
            reconnectionOptions: RECONNECTION,
            // Step-up is driven by the engine's OAuth service, once per server, not per transport.
            onInsufficientScope: 'throw',
          });
    this.transport.onmessage = (message) => this.onmessage?.(message);
    this.transport.onerror = (err) => this.error(err);
    if (this.transport instanceof StreamableHTTPClientTransport) {
      const auth = opts.auth;
      this.post = new RemotePost(
        { url: opts.url, headers: opts.headers, fetch: opts.fetch, ...(opts.request ? { request: opts.request } : {}), ...(auth ? { token: () => auth.token() } : {}), logger: opts.logger },
        this.transport,
        (message, raw) => this.onmessage?.(message as JSONRPCMessage, raw),
      );
    }
  }

  /** Streamable HTTP: nothing on the wire yet. Legacy SSE: the GET and its `endpoint` event. */
  async start(timeoutMs: number): Promise<void> {
    if (this.kind === 'streamable-http') {
      await this.transport.start();
      this.started = true;
      return;
    }
    try {
      await withTimeout(this.transport.start(), timeoutMs, () => {
        const err = new Error(`did not send the legacy SSE 'endpoint' event within ${Math.round(timeoutMs / 1000)}s`);
        (err as { code?: string }).code = 'ETIMEDOUT';
        throw err;
      });
      this.started = true;
    } catch (err) {
      void this.transport.close().catch(() => undefined);
      throw err;
    }
  }

  /** True once the server knows this client: a session id (Streamable HTTP) or an endpoint (SSE). */
  get hasSession(): boolean {
    if (this.kind === 'sse') return this.started;
    return (this.transport as StreamableHTTPClientTransport).sessionId !== undefined;
  }

  send(message: JSONRPCMessage, options: LinkSendOptions = {}): Promise<void> {
    if (this.transport instanceof SSEClientTransport) return this.transport.send(message);
    if (this.post && RemotePost.handles(message as JsonRpcMessage)) return this.post.send(message as JsonRpcMessage, options);
    return this.transport.send(message, {
      ...(options.signal ? { requestSignal: options.signal } : {}),
      ...(options.onStreamEnd ? { onRequestStreamEnd: options.onStreamEnd } : {}),
    });
  }

  /** Sent on every later request (P22). */
  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion(version);
  }

  /** `terminate`: DELETE the upstream session first (bounded), as a well-behaved client does. */
  async close(terminate: boolean): Promise<void> {
    this.dead = true;
    this.post?.close();
    const transport = this.transport;
    if (terminate && transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      await withTimeout(transport.terminateSession().catch(() => undefined), TERMINATE_TIMEOUT_MS, () => undefined);
    }
    await transport.close().catch(() => undefined);
  }

  private error(err: Error): void {
    if (this.dead) return;
    // The legacy transport's EventSource would reconnect into a new, uninitialized server session:
    // the link is over, and the next message re-initializes on a fresh one.
    if (this.kind === 'sse' && this.started && SseError.isInstance(err)) {
      this.dead = true;
      void this.transport.close().catch(() => undefined);
      this.onlost?.(err);
      return;
    }
    // Send failures are reported by send() itself; these are stream hiccups the SDK retries.
    this.opts.logger.debug(`transport: ${err.message}`);
  }
}
