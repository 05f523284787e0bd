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
 */
import { ErrorCode } from '../../../shared/protocol.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { InsufficientScopeError, type AuthProvider } from '@modelcontextprotocol/client';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import { isModernError } from '../protocol/modern.js';
import { errorResponse, idKey, isNotification, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import type { Logger } from '../log/logger.js';
import { isUpstreamAuthError } from './upstream-auth-errors.js';
import type { UpstreamConnection } from './upstream.js';
import { exchangeOf } from './remote-exchange.js';
import { displayUrl, httpStatusOf, rpcErrorFor } from './remote-errors.js';
import type { RemoteFetch } from './remote-fetch.js';
import { RemoteLink, type LinkKind } from './remote-link.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/** What a remote connection needs from the engine's OAuth service for its server. */
export interface RemoteAuth {
  /** Given to the transports: the current bearer token, and the shared 401 handler. */
  provider: AuthProvider;
  /** A 403 insufficient_scope: sign in again with the wider scope, or throw when that cannot help. */
  stepUp(challenge: { scope?: string; resourceMetadataUrl?: URL }): Promise<void>;
  /** True while a browser sign-in is pending: `initialize` then waits for the person, not the clock. */
  signingIn(): boolean;
}

export interface RemoteUpstreamOptions {
  serverId: string;
  url: string;
  /** `auto`: Streamable HTTP, falling back to HTTP+SSE (P32). */
  transport: 'auto' | 'streamable-http' | 'sse';
  /** Sent on every request (secrets already resolved). */
  headers: Record<string, string>;
  fetch: RemoteFetch;
  auth?: RemoteAuth;
  /** How long `initialize` (and a replayed one) may take before the client gets an error. */
  initializeTimeoutMs: number;
  logger: Logger;
}

interface Pending {
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
}

const FALLBACK_STATUSES = new Set([400, 404, 405]);
const REINIT_PREFIX = 'patchbay-reinit-';
const RESUBSCRIBE_PREFIX = 'patchbay-resubscribe-';
/** A lost event stream with subscriptions behind it is re-opened at once, then after these delays (doubling to the cap). */
const REOPEN_BACKOFF_MS = 1000;
const REOPEN_BACKOFF_CAP_MS = 60_000;
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
  private link: RemoteLink | undefined;
  private linking: Promise<RemoteLink> | undefined;
  /** The transport that answered initialize; later links use it too. */
  private kind: LinkKind | undefined;
  private generation = 0;
  private initializeRequest: JsonRpcRequest | undefined;
  private initialized = false;
  private initializedSent = false;
  private reinitCounter = 0;
  private readonly pending = new Map<string, Pending>();
  /** Answers to the engine's own requests (replayed initialize, renewed subscriptions), by id key; an Error when closed. */
  private readonly internal = new Map<string, (answer: JsonRpcMessage | Error) => void>();
  /** Messages after `notifications/initialized` wait on this (see holdUntilStandaloneStream). */
  private gate: Promise<void> | undefined;
  private standaloneSettled: (() => void) | undefined;
  private readonly subscriptions = new ResourceSubscriptions();
  private reopenTimer: NodeJS.Timeout | undefined;
  private lastReopen = 0;
  private reopenDelay = 0;

  constructor(private readonly opts: RemoteUpstreamOptions) {
    this.url = new URL(opts.url);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  send(message: JsonRpcMessage, _raw?: string): void {
    if (isRequest(message)) {
      if (this.isClosed) {
        this.replyLocally(errorResponse(message.id, ErrorCode.InternalError, `server '${this.opts.serverId}': the connection is closed`));
        return;
      }
      const entry: Pending = { id: message.id, method: message.method, generation: 0, posted: false, abort: new AbortController() };
      if (ResourceSubscriptions.concerns(message)) entry.subscription = message.params ?? {};
      this.pending.set(idKey(message.id), entry);
      if (isInitialize(message)) {
        this.initializeRequest = message;
        this.armInitializeTimer(entry);
      }
    }
    if (this.isClosed) return;
    if (isNotification(message) && message.method === 'notifications/initialized' && this.kind === 'streamable-http') {
      this.holdUntilStandaloneStream(this.dispatch(message, 0));
      return;
    }
    const go = (): Promise<void> =>
      this.dispatch(message, 0).then(() => {
        if (isNotification(message) && message.method === 'notifications/cancelled') this.cancelled(message.params?.requestId);
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

  private armInitializeTimer(entry: Pending): void {
    const limit = this.opts.initializeTimeoutMs;
    entry.timer = setTimeout(() => {
      // The sign-in has its own deadline (the login wait), after which it answers this request.
      if (this.opts.auth?.signingIn()) return this.armInitializeTimer(entry);
      this.fail(entry, ErrorCode.InternalError, `server '${this.opts.serverId}' did not answer initialize within ${Math.round(limit / 1000)}s (${displayUrl(this.url)})`, { cause: 'timeout' });
    }, limit);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.reopenTimer);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.abort.abort();
    }
    this.pending.clear();
    // A re-initialization in progress must not hold close() up until its deadline.
    for (const waiter of this.internal.values()) waiter(new Error('the connection is closed'));
    this.internal.clear();
    const link = this.link;
    this.link = undefined;
    await this.linking?.catch(() => undefined);
    await link?.close(true);
  }

  private async dispatch(message: JsonRpcMessage, attempt: number): Promise<void> {
    const entry = isRequest(message) ? this.pending.get(idKey(message.id)) : undefined;
    if (isRequest(message) && !entry) return; // cancelled, timed out or closed meanwhile
    let link: RemoteLink;
    try {
      link = await this.ensureLink(isInitialize(message));
    } catch (err) {
      this.failMessage(message, err);
      return;
    }
    if (this.isClosed) return;
    if (entry) entry.generation = link.generation;
    try {
      await link.send(message as JSONRPCMessage, entry ? { signal: entry.abort.signal, onStreamEnd: () => this.streamEnded(entry) } : {});
      if (entry) entry.posted = true;
      if (isNotification(message) && message.method === 'notifications/initialized') this.initializedSent = true;
    } catch (err) {
      if (this.isClosed || entry?.abort.signal.aborted) return;
      // The link was retired while this POST was on its way (another message found the session
      // gone): the server never took it, so it goes again on the new link.
      if (link.dead && attempt === 0) return this.dispatch(message, attempt + 1);
      await this.sendFailed(link, message, err, attempt);
    }
  }

  private async sendFailed(link: RemoteLink, message: JsonRpcMessage, err: unknown, attempt: number): Promise<void> {
    if (isUpstreamAuthError(err)) return this.failMessage(message, err);
    const status = httpStatusOf(err);
    const { serverId } = this.opts;
    // P32: a server that does not take the initialize POST may speak the 2024-11-05 transport.
    // Never when the refusal is a modern server's (an error body naming 2026-07-28: 2026-07-28
    // streamable-http "Backward Compatibility"): a modern-only server does not speak HTTP+SSE either.
    if (isInitialize(message) && link.kind === 'streamable-http' && this.opts.transport === 'auto' && this.kind === undefined && status !== undefined && FALLBACK_STATUSES.has(status) && !modernRefusal(err)) {
      this.opts.logger.info(`server '${serverId}' answered the initialize POST with HTTP ${status}; trying the legacy HTTP+SSE transport`);
      this.kind = 'sse';
      this.retire(link, idKey(message.id));
      return this.dispatch(message, attempt + 1);
    }
    // P17: the server forgot our session (it restarted, or expired it): start a new one, replay
    // the client's initialize, and deliver the message there.
    if (status === 404 && link.hasSession && !isInitialize(message) && attempt === 0) {
      this.opts.logger.info(`server '${serverId}' no longer knows the session; re-initializing`);
      this.retire(link, isRequest(message) ? idKey(message.id) : undefined);
      return this.dispatch(message, attempt + 1);
    }
    if (InsufficientScopeError.isInstance(err) && this.opts.auth && attempt === 0) {
      try {
        await this.opts.auth.stepUp({ ...(err.requiredScope ? { scope: err.requiredScope } : {}), ...(err.resourceMetadataUrl ? { resourceMetadataUrl: err.resourceMetadataUrl } : {}) });
      } catch (stepUpErr) {
        this.failMessage(message, stepUpErr);
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
      const key = idKey(message.id);
      const entry = this.pending.get(key);
      if (!entry) return;
      this.pending.delete(key);
      clearTimeout(entry.timer);
      const reply = errorResponse(message.id, answered.code, answered.message, answered.data);
      this.onmessage?.(reply, JSON.stringify(reply), false);
      return;
    }
    this.failMessage(message, err);
  }

  private ensureLink(forInitialize: boolean): Promise<RemoteLink> {
    if (this.link && !this.link.dead) return Promise.resolve(this.link);
    this.linking ??= this.openLink(forInitialize).finally(() => {
      this.linking = undefined;
    });
    return this.linking;
  }

  private async openLink(forInitialize: boolean): Promise<RemoteLink> {
    const kind: LinkKind = this.kind ?? (this.opts.transport === 'sse' ? 'sse' : 'streamable-http');
    const link = new RemoteLink(kind, ++this.generation, {
      url: this.url,
      headers: this.opts.headers,
      fetch: (url, init) => this.fetch(url, init),
      ...(this.opts.auth ? { auth: this.opts.auth.provider } : {}),
      logger: this.opts.logger,
    });
    link.onmessage = (m) => this.fromUpstream(link, m as JsonRpcMessage);
    link.onlost = (err) => {
      const why = err.message && err.message !== 'SSE error: undefined' ? ` (${err.message})` : '';
      const when = this.subscriptions.size > 0 ? 're-opening it for the client\'s resource subscriptions' : 'the next message re-initializes';
      this.opts.logger.warn(`server '${this.opts.serverId}': the event stream ended${why}; ${when}`);
      this.retire(link);
      // Nothing else would open a new stream before the client's next message, and until then the
      // updates of its subscriptions would have nowhere to go.
      if (this.subscriptions.size > 0) this.reopenSoon();
    };
    await link.start(this.opts.initializeTimeoutMs);
    if (this.isClosed) {
      await link.close(false);
      throw new Error('the connection is closed');
    }
    try {
      if (!forInitialize && this.initialized && this.initializeRequest) {
        await this.replayInitialize(link);
        await this.replaySubscriptions(link);
      }
    } catch (err) {
      await link.close(true);
      throw err;
    }
    this.link = link;
    return link;
  }

  /**
   * Re-initializes a new upstream session with the client's own `initialize` (P17). It stays here,
   * not in the session (which replays for stdio): it must run on the new link before the message
   * that found the session gone is retried there, and only this class knows links. What it sends
   * and hears is reported as `reinitialize` events, so the session captures it as its own replay.
   */
  private async replayInitialize(link: RemoteLink): Promise<void> {
    const answer = await this.askInternal(link, { ...this.initializeRequest!, id: `${REINIT_PREFIX}${++this.reinitCounter}` });
    const error = (answer as { error?: { message?: string } }).error;
    if (error) throw new Error(`refused the replayed initialize: ${error.message ?? 'no message'}`);
    // A restart counts once the server took the initialize: while it is down, every message tries
    // (and fails) to re-initialize, and those attempts opened nothing.
    this.onevent?.({ type: 'reinitialize', step: 'opened' });
    const version = (answer as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') link.setProtocolVersion(version);
    if (!this.initializedSent) return;
    const initialized: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
    this.onevent?.({ type: 'reinitialize', step: 'sent', message: initialized });
    await link.send(initialized as JSONRPCMessage);
  }

  /**
   * After a re-initialization: the client's resource subscriptions, made again in the order it made
   * them, so the server's `notifications/resources/updated` reach it on the new session. The
   * answers are the hub's own (told to observers as part of the replay, never to the client, which
   * had its answers long ago); a refusal is logged and the link stays in use.
   */
  private async replaySubscriptions(link: RemoteLink): Promise<void> {
    const failures = await this.subscriptions.renew((params) => this.askInternal(link, { jsonrpc: '2.0', id: `${RESUBSCRIBE_PREFIX}${++this.reinitCounter}`, method: 'resources/subscribe', params }));
    for (const failure of failures) this.opts.logger.warn(`server '${this.opts.serverId}': could not renew a resource subscription: ${failure}`);
  }

  /**
   * A request of the hub's own on `link`, answered to the hub (never to the client), within the
   * initialize deadline; reported to observers as part of a re-initialization.
   */
  private async askInternal(link: RemoteLink, request: JsonRpcRequest): Promise<JsonRpcMessage> {
    const key = idKey(request.id);
    const limit = this.opts.initializeTimeoutMs;
    const answer = await new Promise<JsonRpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.internal.delete(key);
        const err = new Error(`did not answer the replayed ${request.method} within ${Math.round(limit / 1000)}s`);
        (err as { code?: string }).code = 'ETIMEDOUT';
        reject(err);
      }, limit);
      this.internal.set(key, (m) => {
        clearTimeout(timer);
        if (m instanceof Error) reject(m);
        else resolve(m);
      });
      this.onevent?.({ type: 'reinitialize', step: 'sent', message: request });
      link.send(request as JSONRPCMessage).catch((err: unknown) => {
        clearTimeout(timer);
        this.internal.delete(key);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
    this.onevent?.({ type: 'reinitialize', step: 'answered', message: answer, raw: JSON.stringify(answer) });
    return answer;
  }

  /**
   * Opens a new link (re-initialized, subscriptions renewed) after a lost event stream: at once
   * when the last re-open is long past, else after a delay that doubles (to a cap) while re-opens
   * keep failing or their streams keep dropping; never after the connection closed.
   */
  private reopenSoon(): void {
    if (this.isClosed || this.reopenTimer || !this.initialized) return;
    const recent = Date.now() - this.lastReopen < REOPEN_BACKOFF_CAP_MS;
    this.reopenDelay = recent ? Math.min(REOPEN_BACKOFF_CAP_MS, Math.max(REOPEN_BACKOFF_MS, this.reopenDelay * 2)) : 0;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      this.lastReopen = Date.now();
      if (this.isClosed || (this.link && !this.link.dead)) return;
      this.ensureLink(false).catch((err: unknown) => {
        this.opts.logger.warn(`server '${this.opts.serverId}': could not re-open the event stream: ${(err as Error).message}; trying again`);
        this.reopenSoon();
      });
    }, this.reopenDelay);
    this.reopenTimer.unref();
  }

  private fromUpstream(link: RemoteLink, message: JsonRpcMessage): void {
    if (this.isClosed) return;
    if (!('method' in message)) {
      const key = idKey(message.id ?? '');
      const waiter = this.internal.get(key);
      if (waiter) {
        this.internal.delete(key);
        waiter(message);
        return;
      }
      const entry = this.pending.get(key);
      if (entry) {
        this.pending.delete(key);
        clearTimeout(entry.timer);
        if (entry.method === 'initialize') this.initializeAnswered(link, message);
        else if (entry.subscription !== undefined && 'result' in message) this.subscriptions.accepted(entry.method, entry.subscription);
      }
    }
    this.reply(message);
  }

  private initializeAnswered(link: RemoteLink, message: JsonRpcMessage): void {
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return;
    link.setProtocolVersion(version);
    const first = !this.initialized;
    this.kind = link.kind;
    this.initialized = true;
    if (first) this.onevent?.({ type: 'transport', transport: link.kind });
  }

  /**
   * Takes a link out of service. Requests the server took on it lose their answer with it: they
   * get an error. Those still being POSTed fail their POST, and are sent again (see dispatch).
   */
  private retire(link: RemoteLink, keep?: string): void {
    if (this.link === link) this.link = undefined;
    link.dead = true;
    for (const [key, p] of [...this.pending]) {
      if (p.generation !== link.generation || key === keep || !p.posted) continue;
      this.fail(p, ErrorCode.InternalError, `server '${this.opts.serverId}' lost its session before answering '${p.method}' (did it restart?); try again`, { cause: 'session_lost' });
    }
    void link.close(false);
  }

  /** A request's response stream ended for good; if nothing answered it, say so now. */
  private streamEnded(entry: Pending): void {
    if (this.pending.get(idKey(entry.id)) !== entry || entry.abort.signal.aborted) return;
    this.fail(entry, ErrorCode.InternalError, `server '${this.opts.serverId}' closed the response stream of '${entry.method}' without answering it`, { cause: 'stream_closed' });
  }

  private cancelled(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = idKey(requestId);
    const entry = this.pending.get(key);
    if (!entry) return;
    // The server should not answer a cancelled request: stop reading (or resuming) its stream.
    this.pending.delete(key);
    clearTimeout(entry.timer);
    entry.abort.abort();
  }

  private failMessage(message: JsonRpcMessage, err: unknown): void {
    if (!isRequest(message)) {
      this.opts.logger.warn(`could not deliver ${'method' in message ? message.method : 'a response'} to server '${this.opts.serverId}': ${(err as Error).message}`);
      return;
    }
    const entry = this.pending.get(idKey(message.id));
    if (!entry) return;
    const { code, message: text, data } = rpcErrorFor(err, this.opts.serverId, message.method, this.url);
    this.fail(entry, code, text, data);
  }

  private fail(entry: Pending, code: number, message: string, data: Record<string, unknown>): void {
    const key = idKey(entry.id);
    if (this.pending.get(key) !== entry) return;
    this.pending.delete(key);
    clearTimeout(entry.timer);
    entry.abort.abort();
    this.replyLocally(errorResponse(entry.id, code, message, { server: this.opts.serverId, ...data }));
  }

  /** The links' fetch: reports each exchange to the inspector when it listens. */
  private async fetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const standalone = (init?.method ?? 'GET').toUpperCase() === 'GET' ? this.standaloneSettled : undefined;
    let res: Response | undefined;
    try {
      res = await this.opts.fetch(url, init);
      return res;
    } finally {
      standalone?.();
      // Only built when someone listens: it copies and masks every header.
      if (this.onevent) this.onevent({ type: 'http', exchange: exchangeOf(url, init, res, Object.keys(this.opts.headers)) });
    }
  }

  private reply(message: JsonRpcMessage): void {
    const raw = stringifyOrUndefined(message);
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
