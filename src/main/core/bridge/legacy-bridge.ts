/**
 * Modern clients (2026-07-28) served by a legacy server (PROTOCOL Q8): the hub holds a legacy
 * session for each client — initialized from the request's `_meta` (client info, capabilities)
 * and reused while those stay the same — and turns each modern request into a request of that
 * session. What the legacy era does that the modern one cannot is translated:
 *
 * - the server's own requests during a call (sampling, elicitation, roots/list) become an
 *   `input_required` result with `inputRequests` and a `requestState` the hub mints; the client's
 *   retry with `inputResponses` answers the waiting server requests, and the retry then gets the
 *   call's outcome (bridge-call.ts);
 * - `server/discover` is answered from the session's initialize result;
 * - `subscriptions/listen` subscribes upstream and passes on the list-changed and resource
 *   notifications the client opted into, tagged with its subscription id (bridge-listen.ts);
 * - the per-request log level becomes `logging/setLevel` when it changes;
 * - results get `resultType` and, on list and read results, cache hints.
 */
import { createHash } from 'node:crypto';
import { ErrorCode, META, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { errorResponse, isNotification, isRequest, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { logMessageWanted, metaOf } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest } from '../upstream/modern-upstream.js';
import { BridgeCalls } from './bridge-call.js';
import { listenThroughBridge } from './bridge-listen.js';
import { completeResultText, discoverFromInitialize } from './bridge-results.js';
import type { EraBridge, EraBridgeOptions } from '../hub/server-port.js';
import type { Session } from '../hub/session.js';

/** A legacy session held for one modern client. */
export interface BridgeSession {
  readonly session: Session;
  /** The server's initialize result. */
  readonly init: Record<string, unknown>;
  logLevel: string | undefined;
  lastUsed: number;
  readonly calls: BridgeCalls;
  /** The open `subscriptions/listen` streams of this client (bridge-listen.ts). */
  readonly listeners: Set<(message: JsonRpcNotification) => void>;
}

export interface LegacyBridgeOptions extends EraBridgeOptions {
  /** The legacy revision to ask for in `initialize` (a pinned one, or the newest). */
  legacyVersion?: string;
  logger?: { info(message: string): void };
}

const LATEST_LEGACY = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1];

/** Legacy methods the modern era removed: a modern client sending one gets method-not-found, as from a modern server. */
const REMOVED = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

export class LegacyBridge implements EraBridge {
  readonly translates = true;
  private readonly sessions = new Map<string, Promise<BridgeSession>>();

  constructor(private readonly opts: LegacyBridgeOptions) {}

  call(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
    let cancelled = false;
    let inner: ModernCall | undefined;
    void this.sessionFor(request.message)
      .then((bs) => {
        if (cancelled) return;
        bs.lastUsed = Date.now();
        inner = this.dispatch(bs, request, handlers);
      })
      .catch((err: Error) => {
        if (cancelled) return;
        const answer = errorResponse(request.message.id, ErrorCode.InternalError, err.message, { server: this.opts.server.id });
        handlers.response(answer, JSON.stringify(answer), { local: true });
      });
    return {
      cancel: (reason) => {
        cancelled = true;
        inner?.cancel(reason);
      },
    };
  }

  /** Closes sessions nobody used for a while (the hub's housekeeping tick). */
  tick(now: number): void {
    for (const [key, pending] of this.sessions) {
      void pending.then((bs) => {
        if (now - bs.lastUsed < this.opts.idleMs || bs.calls.active > 0) return;
        if (this.sessions.get(key) === pending) this.sessions.delete(key);
        void bs.session.close();
      }, () => undefined);
    }
  }

  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((p) => p.then((bs) => bs.session.close(), () => undefined)));
  }

  private dispatch(bs: BridgeSession, request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall | undefined {
    const { message } = request;
    const none: ModernCall = { cancel: () => undefined };
    if (REMOVED.has(message.method)) {
      // Gone from the modern era (changelog 5, subscriptions): unknown methods there (404 on HTTP).
      const answer = errorResponse(message.id, ErrorCode.MethodNotFound, `Method not found: ${message.method} does not exist in protocol revision 2026-07-28`);
      handlers.response(answer, JSON.stringify(answer), { local: true, answered: 'bridge' });
      return none;
    }
    if (message.method === 'server/discover') {
      const answer: JsonRpcResponse = { jsonrpc: '2.0', id: message.id, result: discoverFromInitialize(bs.init) };
      handlers.response(answer, JSON.stringify(answer), { local: true, answered: 'bridge' });
      return none;
    }
    if (message.method === 'subscriptions/listen') return listenThroughBridge(bs, message, handlers);
    // The session's level only ever goes down to the most verbose one a request asked for: each
    // call then keeps what its own level wants (bridge-call.ts), so no request loses messages.
    const level = metaOf(message.params)?.[META.logLevel];
    if (typeof level === 'string' && (bs.logLevel === undefined || (level !== bs.logLevel && logMessageWanted(level, bs.logLevel))) && (bs.init.capabilities as { logging?: unknown } | undefined)?.logging !== undefined) {
      bs.logLevel = level;
      void bs.session.request({ jsonrpc: '2.0', id: `patchbay-loglevel-${Date.now()}`, method: 'logging/setLevel', params: { level } }, 10_000).catch(() => undefined);
    }
    return bs.calls.start(message, {
      notification: handlers.notification,
      ended: handlers.ended,
      wire: handlers.wire,
      response: (m, raw, info) => {
        const done = completeResultText(message.method, m, raw);
        handlers.response(done.message, done.raw, info);
      },
    });
  }

  /**
   * A request the server sent while no call of this client was open (server-everything asks for
   * `roots/list` right after `notifications/initialized`). A 2026-07-28 client can be asked only
   * inside a call that may answer `input_required`, so there is nobody to ask: the hub answers at
   * once — `ping` with an empty result, anything else with -32601 saying why — rather than let the
   * server wait for its own timeout (PROTOCOL Q12).
   */
  private outsideCall(session: Session, request: JsonRpcRequest): void {
    const answer: JsonRpcMessage =
      request.method === 'ping'
        ? { jsonrpc: '2.0', id: request.id, result: {} }
        : errorResponse(request.id, ErrorCode.MethodNotFound, `patchbay: the client speaks protocol revision 2026-07-28, which can answer '${request.method}' only during a tools/call, prompts/get or resources/read, and none is in progress`);
    // Info, not debug: a person wondering why a server says its roots request failed finds it here.
    this.opts.logger?.info(`server '${this.opts.server.id}' asked '${request.method}' while no call of its 2026-07-28 client was open: ${request.method === 'ping' ? 'answered' : 'refused (nobody to ask)'} at once by the hub`);
    void session.forward([answer], [undefined], undefined);
  }

  /** The session for a request's client: by client info and capabilities, initialized on first use. */
  private sessionFor(message: JsonRpcRequest): Promise<BridgeSession> {
    const meta = metaOf(message.params) ?? {};
    const clientInfo = meta[META.clientInfo] ?? { name: 'modern-client', version: '0' };
    const capabilities = meta[META.clientCapabilities] ?? {};
    const key = createHash('sha256').update(JSON.stringify([clientInfo, capabilities])).digest('base64url');
    let pending = this.sessions.get(key);
    if (!pending) {
      pending = this.open(clientInfo, capabilities);
      this.sessions.set(key, pending);
      pending.catch(() => {
        if (this.sessions.get(key) === pending) this.sessions.delete(key);
      });
    }
    return pending;
  }

  private async open(clientInfo: unknown, capabilities: unknown): Promise<BridgeSession> {
    const session = this.opts.openSession();
    const initialize: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: 'patchbay-bridge-init',
      method: 'initialize',
      params: { protocolVersion: this.opts.legacyVersion ?? LATEST_LEGACY, capabilities: capabilities as Record<string, unknown>, clientInfo: clientInfo as Record<string, unknown> },
    };
    const answer = await session.initialize(initialize, undefined);
    const result = (answer.message as { result?: Record<string, unknown> }).result;
    if (!answer.ok || !result) {
      void session.close();
      const why = (answer.message as { error?: { message?: string } }).error?.message ?? 'no result';
      throw new Error(`server '${this.opts.server.id}' refused the hub's initialize for a modern client: ${why}`);
    }
    await session.forward([{ jsonrpc: '2.0', method: 'notifications/initialized' }], [undefined], undefined);
    const bs: BridgeSession = { session, init: result, logLevel: undefined, lastUsed: Date.now(), calls: new BridgeCalls(session, this.opts.server.id, this.opts.inputWaitMs), listeners: new Set() };
    // Notifications no call owns (list changes, resource updates) reach the session's GET stream,
    // or the call stream it picks while one is open: both feed this client's listen streams.
    const unsolicited = (message: JsonRpcNotification): void => {
      for (const listener of bs.listeners) listener(message);
    };
    bs.calls.unsolicited = unsolicited;
    session.attachGetStream(
      {
        resumable: false,
        open: () => undefined,
        prime: () => undefined,
        keepAlive: () => undefined,
        end: () => undefined,
        onClose: () => undefined,
        message: (_eventId, json, parsed) => {
          const message = parsed ?? (JSON.parse(json) as JsonRpcMessage);
          if (isNotification(message)) unsolicited(message);
          else if (isRequest(message)) this.outsideCall(session, message);
        },
      },
      {},
    );
    return bs;
  }
}
