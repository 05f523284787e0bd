/**
 * A downstream session's connection to a remote MCP server (Streamable HTTP, or legacy HTTP+SSE),
 * as an `UpstreamConnection`. Messages pass through untouched (the SDK transports are used at the
 * transport level only). What this adds to a bare transport:
 *
 * - transport choice: Streamable HTTP first; an initialize POST answered 400/404/405 falls back
 *   to HTTP+SSE (P32) unless the config pins a transport;
 * - a stale upstream session (404) is re-initialized by replaying the client's own `initialize`,
 *   and the message is retried: the client's session goes on (P17); the client's resource
 *   subscriptions are made again on the new session (resource-subscriptions.ts), and a lost
 *   legacy event stream is re-opened at once when the client holds any;
 * - every failure of a request becomes a JSON-RPC error that names the server and the cause
 *   (DNS, refused, TLS, HTTP status, timeout), never a hang; `initialize` has its own deadline
 *   (the session's per-request timeouts cover the rest);
 * - OAuth: the transports take the server's shared auth provider; a 403 insufficient_scope is
 *   stepped up once through the engine's OAuth service.
 *
 * This file passes messages both ways and decides what a failed POST means (fall back,
 * re-initialize, step up, the server's own error); its collaborators hold the rest:
 * remote-links.ts the links and the re-initialization between them, remote-pending.ts the
 * requests in flight and their errors, remote-internal-requests.ts the hub's own requests of a
 * re-initialization. Each HTTP exchange is reported here (remote-exchange.ts builds its record).
 */
import { ErrorCode } from '../../../shared/protocol.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { InsufficientScopeError } from '@modelcontextprotocol/client';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import { isModernError } from '../protocol/modern.js';
import { errorResponse, idKey, isNotification, isRequest, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { isUpstreamAuthError } from './upstream-auth-errors.js';
import type { UpstreamConnection } from './upstream.js';
import { exchangeOf, maskedHeaders } from './remote-exchange.js';
import { httpStatusOf } from './remote-errors.js';
import { InternalRequests } from './remote-internal-requests.js';
import type { RemoteRequestInit, RemoteResponse } from './remote-fetch.js';
import type { RemoteLink } from './remote-link.js';
import { RemoteLinks } from './remote-links.js';
import type { RemoteUpstreamOptions } from './remote-options.js';
import { RemotePending } from './remote-pending.js';

export type { RemoteAuth, RemoteUpstreamOptions } from './remote-options.js';

const FALLBACK_STATUSES = new Set([400, 404, 405]);
/** How long messages after `notifications/initialized` wait for the standalone GET stream. */
const STANDALONE_STREAM_WAIT_MS = 2000;

function isInitialize(m: JsonRpcMessage): m is JsonRpcRequest {
  return isRequest(m) && m.method === 'initialize';
}

export class RemoteUpstream implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  /** Each HTTP exchange (credentials masked), the settled transport, a re-initialization (P17). */
  onevent: UpstreamConnection['onevent'];

  private isClosed = false;
  private readonly url: URL;
  private readonly pending: RemotePending;
  /** Answers to the engine's own requests (replayed initialize, renewed subscriptions). */
  private readonly internal: InternalRequests;
  private readonly links: RemoteLinks;
  /** Messages after `notifications/initialized` wait on this (see holdUntilStandaloneStream). */
  private gate: Promise<void> | undefined;
  private standaloneSettled: (() => void) | undefined;
  /** What an exchange record masks (remote-exchange.ts), built once. */
  private readonly masked: ReadonlySet<string>;

  constructor(private readonly opts: RemoteUpstreamOptions) {
    this.url = new URL(opts.url);
    this.masked = maskedHeaders(Object.keys(opts.headers));
    this.pending = new RemotePending(opts, this.url, (message) => this.replyLocally(message));
    this.internal = new InternalRequests(opts, () => this.onevent);
    this.links = new RemoteLinks(opts, this.url, this.pending, this.internal, {
      closed: () => this.isClosed,
      events: () => this.onevent,
      receive: (link) => {
        link.onmessage = (m, raw) => this.fromUpstream(link, m as JsonRpcMessage, raw);
      },
      fetch: (url, init) => this.fetch(url, init),
      ...(opts.fetch.request ? { request: (url: URL, init: RemoteRequestInit, ids?: Array<string | number>) => this.request(url, init, ids) } : {}),
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (isRequest(message)) {
      if (this.isClosed) {
        this.replyLocally(errorResponse(message.id, ErrorCode.InternalError, `server '${this.opts.serverId}': the connection is closed`));
        return;
      }
      const entry = this.pending.add(message, raw);
      if (isInitialize(message)) {
        this.links.initializeRequest = message;
        this.pending.armInitializeTimer(entry);
      }
    }
    if (this.isClosed) return;
    if (isNotification(message) && message.method === 'notifications/initialized' && this.links.kind === 'streamable-http') {
      this.holdUntilStandaloneStream(this.dispatch(message, 0));
      return;
    }
    const go = (): Promise<void> =>
      this.dispatch(message, 0).then(() => {
        if (isNotification(message) && message.method === 'notifications/cancelled') this.pending.cancelled(message.params?.requestId);
      });
    void (this.gate ? this.gate.then(go) : go());
  }

  /**
   * A server built on the SDK sends server-initiated requests (elicitation, sampling) on the
   * standalone GET stream and drops them when that stream is not open yet. The client transport
   * opens it only after `notifications/initialized` was accepted, without waiting, so the next
   * call could reach the server first and its elicitation would be lost. Later messages therefore
   * wait until the initialized POST is done and the GET has been answered (or refused), at most
   * STANDALONE_STREAM_WAIT_MS.
   */
  private holdUntilStandaloneStream(sent: Promise<void>): void {
    const answered = new Promise<void>((resolve) => {
      const timer = setTimeout(done, STANDALONE_STREAM_WAIT_MS);
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.standaloneSettled = done;
    });
    const gate: Promise<void> = sent.then(() => answered).finally(() => {
      if (this.gate === gate) this.gate = undefined;
      this.standaloneSettled = undefined;
    });
    this.gate = gate;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.links.stopReopening();
    this.pending.clear();
    // A re-initialization in progress must not hold close() up until its deadline.
    this.internal.closed();
    await this.links.close();
  }

  private async dispatch(message: JsonRpcMessage, attempt: number): Promise<void> {
    const entry = isRequest(message) ? this.pending.get(message.id) : undefined;
    if (isRequest(message) && !entry) return; // cancelled, timed out or closed meanwhile
    let link: RemoteLink;
    try {
      link = await this.links.ensure(isInitialize(message));
    } catch (err) {
      this.pending.failMessage(message, err);
      return;
    }
    if (this.isClosed) return;
    if (entry) entry.generation = link.generation;
    try {
      await link.send(message as JSONRPCMessage, entry ? { signal: entry.abort.signal, onStreamEnd: () => this.pending.streamEnded(entry), ...(entry.raw !== undefined ? { raw: entry.raw } : {}) } : {});
      if (entry) entry.posted = true;
      if (isNotification(message) && message.method === 'notifications/initialized') this.links.initializedSent = true;
    } catch (err) {
      if (this.isClosed || entry?.abort.signal.aborted) return;
      // The link was retired while this POST was on its way (another message found the session
      // gone): the server never took it, so it goes again on the new link.
      if (link.dead && attempt === 0) return this.dispatch(message, attempt + 1);
      await this.sendFailed(link, message, err, attempt);
    }
  }

  private async sendFailed(link: RemoteLink, message: JsonRpcMessage, err: unknown, attempt: number): Promise<void> {
    if (isUpstreamAuthError(err)) return this.pending.failMessage(message, err);
    const status = httpStatusOf(err);
    const { serverId } = this.opts;
    // P32: a server that does not take the initialize POST may speak the 2024-11-05 transport.
    // Never when the refusal is a modern server's (an error body naming 2026-07-28: 2026-07-28
    // streamable-http "Backward Compatibility"): a modern-only server does not speak HTTP+SSE either.
    if (isInitialize(message) && link.kind === 'streamable-http' && this.opts.transport === 'auto' && this.links.kind === undefined && status !== undefined && FALLBACK_STATUSES.has(status) && !modernRefusal(err)) {
      this.opts.logger.info(`server '${serverId}' answered the initialize POST with HTTP ${status}; trying the legacy HTTP+SSE transport`);
      this.links.kind = 'sse';
      this.links.retire(link, idKey(message.id));
      return this.dispatch(message, attempt + 1);
    }
    // P17: the server forgot our session (it restarted, or expired it): start a new one, replay
    // the client's initialize, and deliver the message there.
    if (status === 404 && link.hasSession && !isInitialize(message) && attempt === 0) {
      this.opts.logger.info(`server '${serverId}' no longer knows the session; re-initializing`);
      this.links.retire(link, isRequest(message) ? idKey(message.id) : undefined);
      return this.dispatch(message, attempt + 1);
    }
    if (InsufficientScopeError.isInstance(err) && this.opts.auth && attempt === 0) {
      try {
        await this.opts.auth.stepUp({ ...(err.requiredScope ? { scope: err.requiredScope } : {}), ...(err.resourceMetadataUrl ? { resourceMetadataUrl: err.resourceMetadataUrl } : {}) });
      } catch (stepUpErr) {
        this.pending.failMessage(message, stepUpErr);
        return;
      }
      return this.dispatch(message, attempt + 1);
    }
    // A refusal whose body is the server's own JSON-RPC error (a modern-only server's -32022 to
    // an initialize, SEP-2575) is the server's answer: passed on as it is, not as "HTTP 400", so
    // the client (and the hub's era sniffer) reads what the server said (PROTOCOL: upstream errors
    // pass through untouched).
    const answered = isRequest(message) ? serverErrorOf(err) : undefined;
    if (answered && isRequest(message)) {
      if (!this.pending.take(idKey(message.id))) return;
      const reply = errorResponse(message.id, answered.code, answered.message, answered.data);
      this.onmessage?.(reply, JSON.stringify(reply), false);
      return;
    }
    this.pending.failMessage(message, err);
  }

  private fromUpstream(link: RemoteLink, message: JsonRpcMessage, raw: string | undefined): void {
    if (this.isClosed) return;
    if (!('method' in message)) {
      const key = idKey(message.id ?? '');
      if (this.internal.settle(key, message)) return;
      const entry = this.pending.take(key);
      if (entry) {
        if (entry.method === 'initialize') this.links.initializeAnswered(link, message);
        else if (entry.subscription !== undefined && 'result' in message) this.links.subscriptions.accepted(entry.method, entry.subscription);
      }
    }
    this.reply(message, raw);
  }

  /** The links' fetch: reports each exchange to the inspector when it listens. */
  private async fetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const standalone = (init?.method ?? 'GET').toUpperCase() === 'GET' ? this.standaloneSettled : undefined;
    if (this.opts.traceHeaders && init !== undefined) init = withTraceHeaders(init);
    let res: Response | undefined;
    try {
      res = await this.opts.fetch(url, init);
      return res;
    } finally {
      standalone?.();
      // Only built when someone listens: it copies and masks every header.
      if (this.onevent) this.onevent({ type: 'http', exchange: exchangeOf(url, init, res, this.masked) });
    }
  }

  /** The links' POSTs by undici's request API (remote-post.ts): the same trace headers and exchange reports as `fetch`. */
  private async request(url: URL, init: RemoteRequestInit, ids: Array<string | number> | undefined): Promise<RemoteResponse> {
    if (this.opts.traceHeaders) {
      const traced = withTraceHeaders(init as RequestInit);
      if (traced.headers instanceof Headers) init = { ...init, headers: Object.fromEntries(traced.headers) };
    }
    let res: RemoteResponse | undefined;
    try {
      res = await this.opts.fetch.request!(url, init);
      return res;
    } finally {
      if (this.onevent) this.onevent({ type: 'http', exchange: exchangeOf(url, init as RequestInit, res && { status: res.statusCode, headers: res.headers() }, this.masked, ids) });
    }
  }

  /** `serverText`: the server's own text, forwarded as it is (not serialized again) when the link kept it. */
  private reply(message: JsonRpcMessage, serverText?: string): void {
    const raw = serverText ?? stringifyOrUndefined(message);
    if (raw !== undefined) return this.onmessage?.(message, raw, false);
    // Nested too deep to serialize (json-depth.ts): an answer becomes the hub's error answer.
    this.opts.logger.warn(`server '${this.opts.serverId}' sent JSON too deeply nested to forward: dropped`);
    if (!('method' in message) && message.id !== null) {
      this.replyLocally(errorResponse(message.id, ErrorCode.InternalError, `server '${this.opts.serverId}' sent JSON too deeply nested to forward`, { server: this.opts.serverId }));
    }
  }

  /** An answer written here, not by the server: the same text, told apart for the inspector. */
  private replyLocally(message: JsonRpcMessage): void {
    this.onmessage?.(message, JSON.stringify(message), true);
  }
}

/** Whether an HTTP error's body is a modern server's JSON-RPC error (SdkHttpError keeps the body as `data.text`). */
function modernRefusal(err: unknown): boolean {
  return isModernError(serverErrorOf(err));
}

/** The JSON-RPC error an HTTP error's body carries (a 4xx from the server's own MCP layer), if it is one. */
function serverErrorOf(err: unknown): { code: number; message: string; data?: unknown } | undefined {
  const text = (err as { data?: { text?: unknown } } | undefined)?.data?.text;
  if (typeof text !== 'string' || text.length > 65_536) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } } | null)?.error;
    if (!error || typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
    return error as { code: number; message: string; data?: unknown };
  } catch {
    return undefined;
  }
}

/**
 * The POST with the trace context its message carries in `_meta` (written by the hub under
 * telemetry: hub/tracing.ts) also as W3C headers. The SDK's transport builds the request, so the
 * values are read back from the body it sends — parsed, not searched, so that a tool argument
 * that happens to contain the words is never taken for them; only under telemetry
 * (`traceHeaders`), and only for a body that names a traceparent at all.
 */
function withTraceHeaders(init: RequestInit): RequestInit {
  const body = init.body;
  if (typeof body !== 'string' || !body.includes('"traceparent"')) return init;
  let meta: Record<string, unknown> | undefined;
  try {
    meta = (JSON.parse(body) as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  } catch {
    return init;
  }
  if (meta === undefined || typeof meta !== 'object') return init;
  const headers = new Headers(init.headers);
  for (const name of ['traceparent', 'tracestate', 'baggage']) {
    const value = meta[name];
    if (typeof value === 'string' && !headers.has(name)) headers.set(name, value);
  }
  return { ...init, headers };
}
