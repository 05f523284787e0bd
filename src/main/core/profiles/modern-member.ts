/**
 * One member of a profile's modern aggregate (modern-aggregate.ts): the server reached in the
 * 2026-07-28 era through what the hub lends (`hub.modernFor`) — the member's own modern upstream
 * when it speaks that era, else the hub's bridge to it. The era has no connection to hold: the
 * member is up once it answered `server/discover`, down after a failure the hub itself reported
 * (its child died, it could not be reached), and asked again after a backoff (as member-link.ts
 * does for a legacy session). Client requests forwarded to it keep their ids, `_meta` envelope
 * and headers; its own `requestTimeoutMs` cuts them when its config sets one.
 */
import { ErrorCode, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { modernRequestHeaders } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../upstream/modern-upstream.js';
import type { CacheHints } from './aggregate-lists.js';
import { formatMs, timeoutAnswer } from './member-deadlines.js';
import { BACKOFF_MS, MemberError, unavailable, type LinkState, type MemberInit } from './member-link.js';
import { naming, type MemberSource } from './member-source.js';

export interface ModernMemberHost {
  /** The member's runtime now (config reloads replace runtimes). */
  port(server: string): ServerPort | undefined;
  /** Its modern upstream: its own, or the hub's bridge to it (`hub.modernFor`). */
  upstream(port: ServerPort): Promise<ModernUpstream>;
  /** The `_meta` envelope of the aggregate's own requests: the latest client's. */
  envelope(): Record<string, unknown>;
  /** The profile's deadline for its own requests to members that set none. */
  requestTimeoutMs: number;
  /** It answered `server/discover`; `cameUp`: it was not up before (first time, or back). */
  up(member: ModernMember, cameUp: boolean): void;
  /** The hub reported it unreachable; `error` says why. */
  down(member: ModernMember): void;
  logger: Logger;
}

type Obj = Record<string, unknown>;

const DEFAULT_STARTUP_MS = 60_000;
const INTERNAL_ID = 'patchbay-agg-';

/** The version a request's envelope names (the newest modern one when it names none). */
export function envelopeVersionOf(envelope: Obj): string {
  const v = envelope[META.protocolVersion];
  return typeof v === 'string' ? v : MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;
}

export class ModernMember implements MemberSource {
  state: LinkState = 'idle';
  /** What it said of itself in its last `server/discover` answer. */
  init: MemberInit | undefined;
  /** The cache hints of that answer. */
  discoverHints: CacheHints = { ttlMs: 0, cacheScope: 'private' };
  /** Why it is down, a sentence naming the server. */
  error: string | undefined;
  /** When it may be tried again. */
  retryAt = 0;
  /** The runtime it was reached through: a config change replaces it. */
  port: ServerPort | undefined;
  private failures = 0;
  private connecting: Promise<boolean> | undefined;
  private nextId = 1;
  private closed = false;

  constructor(
    readonly server: string,
    /** Position in the profile, for ids that must differ per member. */
    readonly index: number,
    private readonly host: ModernMemberHost,
  ) {}

  get isUp(): boolean {
    return this.state === 'up';
  }

  get pending(): Promise<boolean> | undefined {
    return this.connecting;
  }

  /** The member's own request timeout, when its config sets one. */
  get requestTimeoutMs(): number | undefined {
    return this.host.port(this.server)?.requestTimeoutMs;
  }

  /** Asks it `server/discover` (once at a time). Resolves true when it answered. */
  open(): Promise<boolean> {
    this.connecting ??= this.discover().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Up now, or after one attempt when its backoff allows; false when it stays down. */
  async ready(): Promise<boolean> {
    if (this.isUp) return true;
    if (this.connecting) return this.connecting;
    if (this.state === 'down' && Date.now() < this.retryAt) return false;
    return this.open();
  }

  close(): void {
    this.closed = true;
  }

  private async discover(): Promise<boolean> {
    const port = this.host.port(this.server);
    if (!port) return this.fail(`server '${this.server}' is not configured (or it is disabled)`);
    if (this.state !== 'up') this.state = 'connecting';
    this.port = port;
    let answer: { message: JsonRpcResponse; local: boolean };
    try {
      answer = await this.exchange('server/discover', undefined, port.startupTimeoutMs ?? DEFAULT_STARTUP_MS);
    } catch (err) {
      return this.fail(naming(this.server, (err as Error).message));
    }
    if (this.closed) return false;
    const result = answer.message.result as Obj | undefined;
    if (!result || typeof result !== 'object') {
      const why = answer.message.error?.message ?? 'no result';
      return this.fail(answer.local ? naming(this.server, why) : `server '${this.server}' refused server/discover: ${why}`);
    }
    const meta = (result._meta ?? {}) as Obj;
    this.init = {
      capabilities: (typeof result.capabilities === 'object' && result.capabilities !== null ? result.capabilities : {}) as Obj,
      ...(typeof meta[META.serverInfo] === 'object' ? { serverInfo: meta[META.serverInfo] as Obj } : {}),
      ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
    };
    this.discoverHints = {
      ttlMs: typeof result.ttlMs === 'number' && result.ttlMs > 0 ? Math.floor(result.ttlMs) : 0,
      cacheScope: result.cacheScope === 'public' ? 'public' : 'private',
    };
    const cameUp = this.state !== 'up';
    this.state = 'up';
    this.error = undefined;
    this.failures = 0;
    this.retryAt = 0;
    this.host.up(this, cameUp);
    return true;
  }

  /** A request of the aggregate's own (MemberSource); rejects with a sentence naming the server. */
  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    if (!this.isUp) throw new Error(this.error ?? `server '${this.server}' is not connected`);
    let answer: { message: JsonRpcResponse; local: boolean };
    try {
      answer = await this.exchange(method, params, timeoutMs);
    } catch (err) {
      throw new Error(naming(this.server, (err as Error).message));
    }
    const error = answer.message.error;
    if (!error) return answer.message.result;
    if (answer.local && error.code === ErrorCode.InternalError) {
      this.fail(naming(this.server, error.message));
      throw new Error(this.error);
    }
    throw new MemberError(`server '${this.server}' answered ${method} with error ${error.code}: ${error.message}`, error.code);
  }

  /**
   * Passes a client's request on, as it is (its id, envelope and headers), with the member's own
   * deadline when it sets one (progress moves it; a `subscriptions/listen` has none). A member that
   * is down and not due for another try fails it at once with its error.
   */
  forward(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
    const { message } = request;
    const listen = message.method === 'subscriptions/listen';
    let inner: ModernCall | undefined;
    let over = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      over = true;
      clearTimeout(timer);
    };
    const failWith = (answer: JsonRpcResponse): void => {
      if (over) return;
      finish();
      handlers.response(answer, JSON.stringify(answer), { local: true });
    };
    const limit = listen ? undefined : this.requestTimeoutMs;
    const arm = (): void => {
      if (limit === undefined || over) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        inner?.cancel(`timed out after ${formatMs(limit)} in patchbay`);
        failWith(timeoutAnswer(message.id, this.server, message.method, limit));
      }, limit);
      timer.unref();
    };
    void (async () => {
      if (!(await this.ready())) {
        const { code, message: text, data } = unavailable(this);
        return failWith(errorResponse(message.id, code, text, data));
      }
      const port = this.host.port(this.server);
      let upstream: ModernUpstream;
      try {
        if (!port) throw new Error(`server '${this.server}' is not configured (or it is disabled)`);
        upstream = await this.host.upstream(port);
      } catch (err) {
        return failWith(errorResponse(message.id, ErrorCode.InternalError, naming(this.server, (err as Error).message), { server: this.server }));
      }
      if (over) return;
      arm();
      inner = upstream.call(request, {
        // What the member's upstream reports meanwhile, its stderr named by the member (as the
        // legacy aggregate names it: aggregate-upstream.ts).
        ...(handlers.event ? { event: (e) => handlers.event!(e.type === 'stderr' ? { type: 'stderr', line: `[${this.server}] ${e.line}` } : e) } : {}),
        notification: (m, raw) => {
          if (over) return;
          if (m.method === 'notifications/progress') arm();
          handlers.notification(m, raw);
        },
        response: (m, raw, info) => {
          if (over) return;
          finish();
          if (info.local && m.error?.code === ErrorCode.InternalError) {
            // The hub says the member could not answer (its child died, it is unreachable): it is
            // down until its backoff passes, and the error names it.
            this.fail(naming(this.server, m.error.message));
            const data = { ...((m.error.data as Obj | undefined) ?? {}), server: this.server };
            const named: JsonRpcResponse = { ...m, error: { ...m.error, message: this.error!, data } };
            return handlers.response(named, JSON.stringify(named), info);
          }
          handlers.response(m, raw, info);
        },
        ended: () => {
          if (over) return;
          finish();
          handlers.ended?.();
        },
      });
    })().catch((err: Error) => failWith(errorResponse(message.id, ErrorCode.InternalError, naming(this.server, err.message), { server: this.server })));
    return {
      cancel: (reason) => {
        if (over) return;
        finish();
        inner?.cancel(reason);
      },
    };
  }

  /** One request of the aggregate's own, with the envelope: the member's answer, or the hub's. */
  private async exchange(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<{ message: JsonRpcResponse; local: boolean }> {
    const port = this.host.port(this.server);
    if (!port) throw new Error(`server '${this.server}' is not configured (or it is disabled)`);
    const upstream = await this.host.upstream(port);
    const envelope = this.host.envelope();
    const given = (params?._meta ?? {}) as Obj;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: `${INTERNAL_ID}${this.index}-${this.nextId++}`, method, params: { ...(params ?? {}), _meta: { ...envelope, ...given } } };
    const headers = modernRequestHeaders(message, envelopeVersionOf(envelope));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        call.cancel(`timed out after ${formatMs(timeoutMs)} in patchbay`);
        reject(new Error(`did not answer ${method} within ${formatMs(timeoutMs)}`));
      }, timeoutMs);
      timer.unref();
      const call = upstream.call(
        { message, raw: undefined, headers },
        {
          notification: () => undefined,
          response: (m, _raw, info) => {
            clearTimeout(timer);
            resolve({ message: m, local: info.local });
          },
          ended: () => {
            clearTimeout(timer);
            reject(new Error(`ended ${method} without an answer`));
          },
        },
      );
    });
  }

  private fail(message: string): false {
    const wasDown = this.state === 'down';
    this.state = 'down';
    this.error = message;
    this.retryAt = Date.now() + BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
    this.failures++;
    if (!wasDown) this.host.logger.warn(message);
    this.host.down(this);
    return false;
  }
}
