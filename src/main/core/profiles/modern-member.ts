/**
 * One member of a profile's modern aggregate (modern-aggregate.ts): the server reached in the
 * 2026-07-28 era through what the hub lends (`hub.modernFor`) — the member's own modern upstream
 * when it speaks that era, else the hub's bridge to it. The era has no connection to hold: the
 * member is up once it answered `server/discover`, down after a failure the hub itself reported
 * (its child died, it could not be reached), and asked again after a backoff (as member-link.ts
 * does for a legacy session). Client requests forwarded to it keep their ids, `_meta` envelope
 * and headers; its own `requestTimeoutMs` cuts them when its config sets one.
 *
 * Its traffic is observed as a session of its own (member-watch.ts), taken on its first call and
 * ended when the aggregate closes or drops it: each request it is sent, each notification and
 * answer it sends, its upstream's events, and its health — answering, or failing.
 */
import { ErrorCode, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { HubNote, SessionWatch } from '../hub/observer.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { encodeHeaderValue, modernRequestHeaders, nameSource } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../upstream/modern-upstream.js';
import type { CacheHints } from './aggregate-lists.js';
import { MemberTimer, timeoutAnswer, timeoutReason, unansweredWithin } from './member-deadlines.js';
import { memberRefused, naming, notConfigured, notConnected, unavailable } from './member-errors.js';
import { MemberBackoff } from './member-retries.js';
import type { LinkState, MemberInit, MemberSource } from './member-source.js';
import { observe, OWN_NOTE, type MemberObserved } from './member-watch.js';
import { incomingTrace, traceHeaders, withTrace, type RequestTracer } from '../hub/tracing.js';

export interface ModernMemberHost {
  /** The member's runtime now (config reloads replace runtimes). */
  port(server: string): ServerPort | undefined;
  /** Its modern upstream: its own, or the hub's bridge to it (`hub.modernFor`). */
  upstream(port: ServerPort): Promise<ModernUpstream>;
  /** The observers' watch of its traffic (`hub.watchMember`); undefined when nobody listens. */
  watch(port: ServerPort): SessionWatch | undefined;
  /** Telemetry's tracer when telemetry is on (`hub.tracer`): the client's requests get the hub's CLIENT span. */
  tracer(): RequestTracer | undefined;
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

/** The client's headers for a member: `Mcp-Name` names what the member calls the target. */
export function forwardedHeaders(headers: Readonly<Record<string, string>>, message: JsonRpcRequest): Record<string, string> {
  const target = nameSource(message.method, message.params);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (target?.value === undefined || name.toLowerCase() !== 'mcp-name') out[name] = value;
  if (target?.value !== undefined) out['Mcp-Name'] = encodeHeaderValue(target.value);
  return out;
}

export class ModernMember implements MemberSource {
  state: LinkState = 'idle';
  /** What it said of itself in its last `server/discover` answer. */
  init: MemberInit | undefined;
  /** The cache hints of that answer. */
  discoverHints: CacheHints = { ttlMs: 0, cacheScope: 'private' };
  /** Why it is down, a sentence naming the server. */
  error: string | undefined;
  /** The runtime it was reached through: a config change replaces it. */
  port: ServerPort | undefined;
  private readonly backoff = new MemberBackoff();
  private connecting: Promise<boolean> | undefined;
  private nextId = 1;
  private closed = false;
  /** The observers' view of its traffic, from its first call until it is closed. */
  private observed: MemberObserved | undefined;
  private watchTaken = false;

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

  /** When it may be tried again. */
  get retryAt(): number {
    return this.backoff.retryAt;
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

  /** It left the aggregate (or the aggregate closed): its observed session ends; calls in flight finish unobserved. */
  close(): void {
    this.closed = true;
    this.observed?.end('closed', undefined);
    this.observed = undefined;
  }

  private async discover(): Promise<boolean> {
    const port = this.host.port(this.server);
    if (!port) return this.fail(notConfigured(this.server));
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
    this.backoff.succeeded();
    this.host.up(this, cameUp);
    return true;
  }

  /** A request of the aggregate's own (MemberSource); rejects with a sentence naming the server. */
  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    if (!this.isUp) throw new Error(this.error ?? notConnected(this.server));
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
    throw memberRefused(this.server, method, error);
  }

  /**
   * Passes a request on, as it is (its id, envelope and headers), with the member's own deadline
   * when it sets one (progress moves it; a `subscriptions/listen` has none). A member that is down
   * and not due for another try fails it at once with its error. `note`: the request is the
   * aggregate's own (a listen stream of its own), for observers; none for a client's.
   */
  forward(request: ModernCallRequest, handlers: ModernCallHandlers, note?: HubNote): ModernCall {
    const { message } = request;
    const limit = message.method === 'subscriptions/listen' ? undefined : this.requestTimeoutMs;
    let inner: ModernCall | undefined;
    let over = false;
    let deadline: MemberTimer | undefined;
    const finish = (): void => {
      over = true;
      deadline?.clear();
    };
    const failWith = (answer: JsonRpcResponse): void => {
      if (over) return;
      finish();
      handlers.response(answer, JSON.stringify(answer), { local: true });
    };
    void (async () => {
      if (!(await this.ready())) {
        const { code, message: text, data } = unavailable(this);
        return failWith(errorResponse(message.id, code, text, data));
      }
      const port = this.host.port(this.server);
      if (!port) return failWith(errorResponse(message.id, ErrorCode.InternalError, notConfigured(this.server), { server: this.server }));
      let upstream: ModernUpstream;
      try {
        upstream = await this.upstreamOf(port);
      } catch (err) {
        return failWith(errorResponse(message.id, ErrorCode.InternalError, naming(this.server, (err as Error).message), { server: this.server }));
      }
      if (over) return;
      if (limit !== undefined) {
        deadline = new MemberTimer(limit, () => {
          inner?.cancel(timeoutReason(this.server, message.method, limit));
          failWith(timeoutAnswer(message.id, this.server, message.method, limit));
        });
      }
      const own: ModernCallHandlers = {
        notification: (m, raw) => {
          if (over) return;
          if (m.method === 'notifications/progress') deadline?.progressed();
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
      };
      // What the member's upstream reports meanwhile, its stderr named by the member (as the
      // legacy aggregate names it: aggregate-upstream.ts).
      if (handlers.event) own.event = (e) => handlers.event!(e.type === 'stderr' ? { type: 'stderr', line: `[${this.server}] ${e.line}` } : e);
      const out = this.traced(upstream, request, note);
      inner = upstream.call(out, this.observing(upstream, out, note, own));
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
    if (!port) throw new Error(notConfigured(this.server));
    const upstream = await this.upstreamOf(port);
    const envelope = this.host.envelope();
    const given = (params?._meta ?? {}) as Obj;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: `${INTERNAL_ID}${this.index}-${this.nextId++}`, method, params: { ...(params ?? {}), _meta: { ...envelope, ...given } } };
    const request: ModernCallRequest = { message, raw: undefined, headers: modernRequestHeaders(message, envelopeVersionOf(envelope)) };
    return new Promise((resolve, reject) => {
      const deadline = new MemberTimer(timeoutMs, () => {
        call.cancel(timeoutReason(this.server, method, timeoutMs));
        reject(new Error(unansweredWithin(method, timeoutMs)));
      });
      const handlers: ModernCallHandlers = {
        notification: () => undefined,
        response: (m, _raw, info) => {
          deadline.clear();
          resolve({ message: m, local: info.local });
        },
        ended: () => {
          deadline.clear();
          reject(new Error(`ended ${method} without an answer`));
        },
      };
      const call = upstream.call(request, this.observing(upstream, request, OWN_NOTE, handlers));
    });
  }

  /**
   * A client's request as it goes to the member under telemetry: the hub's CLIENT span, parented
   * on the profile's span its `_meta` names (hub/tracing.ts). Not for a member behind the hub's
   * era bridge: the bridge's own session makes that span.
   */
  private traced(upstream: ModernUpstream, request: ModernCallRequest, note: HubNote | undefined): ModernCallRequest {
    const tracer = note === undefined && upstream.translates !== true ? this.host.tracer() : undefined;
    if (tracer === undefined) return request;
    const ctx = tracer.begin(incomingTrace(request.message), { clientSpan: true });
    if (ctx === undefined) return request;
    this.observed?.watch.traced?.(request.message.id, ctx);
    return { message: withTrace(request.message, ctx), raw: undefined, headers: { ...request.headers, ...traceHeaders(ctx) } };
  }

  /** Its modern upstream; the observers' watch is taken on the first call, and told when the upstream cannot be had. */
  private async upstreamOf(port: ServerPort): Promise<ModernUpstream> {
    if (!this.watchTaken && !this.closed) {
      this.watchTaken = true;
      this.observed = observe(this.host.watch(port));
    }
    try {
      return await this.host.upstream(port);
    } catch (err) {
      this.observed?.failed(naming(this.server, (err as Error).message));
      throw err;
    }
  }

  /**
   * `handlers`, with what passes reported on the member's watch: the request as it is sent, what
   * the member answers (a bridge's own answer too: it is the member's modern face speaking), its
   * events, what a bridge exchanged with it in its own era, and its health — it answered, or the
   * hub answered because it could not. Unchanged when nobody listens; after the member was closed,
   * nothing more is reported.
   */
  private observing(upstream: ModernUpstream, request: ModernCallRequest, note: HubNote | undefined, handlers: ModernCallHandlers): ModernCallHandlers {
    const observed = this.observed;
    if (!observed) return handlers;
    const watch = observed.watch;
    const live = (): boolean => this.observed === observed;
    watch.toServer?.(request.message, request.raw, note);
    const out: ModernCallHandlers = {
      notification: (m, raw) => {
        if (live()) {
          observed.answer();
          watch.fromServer?.(m, raw);
        }
        handlers.notification(m, raw);
      },
      response: (m, raw, info) => {
        if (!live()) return handlers.response(m, raw, info);
        if (!info.local) observed.answer();
        // The hub's failure answer is not the member's message: its health says it.
        if (info.local && info.answered === undefined) observed.closed({ message: naming(this.server, m.error?.message ?? 'did not answer') });
        else watch.fromServer?.(m, raw);
        handlers.response(m, raw, info);
      },
    };
    if (handlers.ended) out.ended = handlers.ended;
    if (handlers.event || watch.upstreamEvent) {
      out.event = (e) => {
        if (live()) observed.event(e);
        handlers.event?.(e);
      };
    }
    if (upstream.translates === true && watch.bridged) {
      const of = request.message.id;
      out.wire = (toServer, m, raw) => {
        if (live()) watch.bridged!(of, toServer, m, raw, undefined);
        handlers.wire?.(toServer, m, raw);
      };
    }
    return out;
  }

  private fail(message: string): false {
    const wasDown = this.state === 'down';
    this.state = 'down';
    this.error = message;
    this.backoff.failed();
    if (!wasDown) this.host.logger.warn(message);
    this.host.down(this);
    return false;
  }
}
