/**
 * Modern-era requests to a stdio server, multiplexed over one child (2026-07-28 basic/transports/
 * stdio). The era has no sessions, so one child serves every modern client; request ids are
 * rewritten to the hub's own (two clients may both use id 1) and restored on the way back, and
 * so are progress tokens and the subscription ids that `subscriptions/listen` notifications carry.
 *
 * Stdio gives a request-scoped `notifications/message` no request id. It goes to the one call in
 * flight that asked for logs (`_meta` logLevel); when several did, nobody can tell whose it is,
 * and it is dropped rather than risk showing one client another's log (as shared mode fails closed).
 *
 * A child that exits fails every call in flight with an error naming it; the next call starts a
 * new one (the era is stateless: nothing to replay).
 */
import { ErrorCode, META } from '../../../shared/protocol.js';
import type { Logger } from '../log/logger.js';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import { errorResponse, isNotification, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { withId } from '../protocol/lazy-answer.js';
import { replaceIdKeepingBytes } from '../protocol/wire-bytes.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from './modern-upstream.js';
import type { UpstreamClosed, UpstreamConnection, UpstreamEvent } from './upstream.js';

interface Pending {
  hubId: number;
  clientId: JsonRpcId;
  method: string;
  progressToken: JsonRpcId | undefined;
  wantsLogs: boolean;
  handlers: ModernCallHandlers;
}

const TOKEN_PREFIX = 'pbm-';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stderr lines kept while no call is in flight, for the next call an observer watches. */
const UNCLAIMED_STDERR = 20;

export class ModernStdioChannel implements ModernUpstream {
  private child: UpstreamConnection | undefined;
  private starting: Promise<UpstreamConnection> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  /** What the child wrote to stderr while no observed call was in flight (the newest few lines). */
  private unclaimed: string[] = [];

  constructor(
    readonly serverId: string,
    private readonly open: () => Promise<UpstreamConnection>,
    private readonly logger: Logger,
  ) {}

  /** Calls in flight (for tests and stats). */
  get inFlight(): number {
    return this.pending.size;
  }

  call(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
    const hubId = this.nextId++;
    const { message } = request;
    const meta = isObject(message.params) && isObject(message.params._meta) ? message.params._meta : undefined;
    const token = meta && (typeof meta.progressToken === 'string' || typeof meta.progressToken === 'number') ? meta.progressToken : undefined;
    const entry: Pending = { hubId, clientId: message.id, method: message.method, progressToken: token, wantsLogs: meta !== undefined && META.logLevel in meta, handlers };
    this.pending.set(hubId, entry);
    if (handlers.event && this.unclaimed.length > 0) for (const line of this.unclaimed.splice(0)) handlers.event({ type: 'stderr', line });
    void this.ensureChild().then(
      (child) => {
        if (this.pending.get(hubId) !== entry) return;
        child.send(rewrite(message, hubId, token));
      },
      (err: Error) => this.fail(entry, err.message, {}),
    );
    return {
      cancel: (reason) => {
        if (this.pending.get(hubId) !== entry) return;
        this.pending.delete(hubId);
        // stdio has no stream to close: the notification is the cancellation (2026-07-28 cancellation).
        this.child?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: hubId, reason } });
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = undefined;
    for (const p of [...this.pending.values()]) this.fail(p, `server '${this.serverId}' is shutting down`, {});
    await child?.close();
  }

  private ensureChild(): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new Error(`server '${this.serverId}' is shutting down`));
    if (this.child && !this.child.closed) return Promise.resolve(this.child);
    this.starting ??= this.open()
      .then((child) => {
        this.child = child;
        child.onmessage = (m, raw, local) => this.fromChild(m, raw, local !== false);
        child.onclose = (info) => this.childClosed(child, info);
        child.onevent = (e) => this.childEvent(e);
        return child;
      })
      .finally(() => {
        this.starting = undefined;
      });
    return this.starting;
  }

  private fromChild(message: JsonRpcMessage, raw: string, local: boolean): void {
    if (!('method' in message)) {
      const entry = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!entry) return; // cancelled meanwhile: dropped on purpose
      this.pending.delete(entry.hubId);
      const restored = withId(message, entry.clientId);
      entry.handlers.response(restored, replaceIdKeepingBytes(raw, JSON.stringify(entry.clientId)) ?? stringifyOrUndefined(restored) ?? raw, { local });
      return;
    }
    if (isRequest(message)) {
      // Servers MUST NOT send requests in this era (MRTR replaces them): refuse, never forward.
      this.child?.send(errorResponse(message.id, ErrorCode.MethodNotFound, `patchbay: server-to-client requests do not exist in protocol revision 2026-07-28 (use an input_required result)`));
      return;
    }
    if (isNotification(message)) this.routeNotification(message);
  }

  private routeNotification(message: JsonRpcNotification): void {
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params._meta) ? params._meta : undefined;
    const subscription = meta?.[META.subscriptionId];
    if (typeof subscription === 'number') {
      const entry = this.pending.get(subscription);
      if (!entry) return;
      const restored = { ...message, params: { ...params, _meta: { ...meta, [META.subscriptionId]: entry.clientId } } };
      return this.deliver(entry, restored);
    }
    if (message.method === 'notifications/cancelled') {
      // The server ending a subscription stream it holds (the only server-sent cancellation).
      const entry = typeof params.requestId === 'number' ? this.pending.get(params.requestId) : undefined;
      if (!entry) return;
      this.pending.delete(entry.hubId);
      entry.handlers.ended?.();
      return;
    }
    if (message.method === 'notifications/progress') {
      const token = params.progressToken;
      const entry = typeof token === 'string' && token.startsWith(TOKEN_PREFIX) ? this.pending.get(Number(token.slice(TOKEN_PREFIX.length))) : undefined;
      if (!entry || entry.progressToken === undefined) return;
      return this.deliver(entry, { ...message, params: { ...params, progressToken: entry.progressToken } });
    }
    if (message.method === 'notifications/message') {
      let only: Pending | undefined;
      for (const p of this.pending.values()) {
        if (!p.wantsLogs) continue;
        if (only) return this.logger.debug(`server '${this.serverId}': a log message while several requests asked for logs; dropped (stdio cannot tell whose it is)`);
        only = p;
      }
      if (only) this.deliver(only, message);
    }
    // Anything else (an unsolicited list_changed, …) has no modern client to go to.
  }

  /**
   * The child serves every modern client at once, so what it writes to stderr belongs to no one
   * call: each call in flight that an observer watches hears it (as a shared child's lines reach
   * every session on it); with none in flight the newest lines wait for the next such call.
   */
  private childEvent(event: UpstreamEvent): void {
    let heard = false;
    for (const p of this.pending.values()) {
      if (!p.handlers.event) continue;
      heard = true;
      p.handlers.event(event);
    }
    if (heard || event.type !== 'stderr') return;
    this.unclaimed.push(event.line);
    if (this.unclaimed.length > UNCLAIMED_STDERR) this.unclaimed.shift();
  }

  private deliver(entry: Pending, message: JsonRpcNotification): void {
    const raw = stringifyOrUndefined(message);
    if (raw !== undefined) entry.handlers.notification(message, raw);
  }

  private childClosed(child: UpstreamConnection, info: UpstreamClosed): void {
    if (this.child === child) this.child = undefined;
    const data: Record<string, unknown> = {};
    if (info.exitCode !== undefined) data.exitCode = info.exitCode;
    if (info.signal) data.signal = info.signal;
    if (info.stderrTail) data.stderr = info.stderrTail;
    for (const p of [...this.pending.values()]) this.fail(p, info.message, data);
  }

  private fail(entry: Pending, message: string, data: Record<string, unknown>): void {
    if (this.pending.get(entry.hubId) !== entry) return;
    this.pending.delete(entry.hubId);
    const answer = errorResponse(entry.clientId, ErrorCode.InternalError, message, { server: this.serverId, ...data });
    entry.handlers.response(answer, JSON.stringify(answer), { local: true });
  }
}

/** The request with the hub's id, and its progress token made the hub's too. */
function rewrite(message: JsonRpcRequest, hubId: number, token: JsonRpcId | undefined): JsonRpcRequest {
  if (token === undefined) return { ...message, id: hubId };
  const params = message.params as Obj;
  return { ...message, id: hubId, params: { ...params, _meta: { ...(params._meta as Obj), progressToken: `${TOKEN_PREFIX}${hubId}` } } };
}
