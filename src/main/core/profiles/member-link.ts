/**
 * One member of an aggregated session: the connection to one server, opened through that
 * server's own runtime (so its children, spare and shared mode work as for its own endpoint),
 * initialized with the client's `initialize`, and re-opened with backoff when it fails. Requests
 * the aggregate makes itself (lists, a fan-out) carry ids of their own and never reach the client.
 *
 * The link reports its traffic to the observers as a session reports its upstream leg
 * (member-watch.ts): one watch per link, taken when it first connects and ended when it closes.
 */
import type { HubNote, SessionWatch } from '../hub/observer.js';
import { HubWaiters } from '../hub/hub-waiters.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { isRequest, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { incomingTrace, withTrace, type RequestTracer } from '../hub/tracing.js';
import { withTimeout } from '../protocol/timeout.js';
import type { HubAnswer, UpstreamClosed, UpstreamConnection, UpstreamEvent } from '../upstream/upstream.js';
import { unansweredWithin } from './member-deadlines.js';
import { memberRefused, notConfigured, notConnected } from './member-errors.js';
import { MemberBackoff } from './member-retries.js';
import type { LinkState, MemberInit, MemberSource } from './member-source.js';
import { observe, OWN_NOTE, type MemberObserved } from './member-watch.js';

export interface MemberLinkOwner {
  /** A message from the server that is not the answer to the aggregate's own request. */
  message(link: MemberLink, message: JsonRpcMessage, raw: string, local: boolean | HubAnswer): void;
  /** The connection ended by itself (a child exited); requests in flight are lost. */
  lost(link: MemberLink, info: UpstreamClosed): void;
  /** The member (re)connected and initialized. */
  up(link: MemberLink): void;
  event(link: MemberLink, event: UpstreamEvent): void;
  /** Whether `event` is wanted at all now (the aggregate's session observes its upstream's events). */
  wantsEvents(): boolean;
  /** The observers' watch of this member's traffic (HubReach.watchMember); undefined when nobody listens. */
  watch(port: ServerPort): SessionWatch | undefined;
  /** Telemetry's tracer when telemetry is on (HubReach.tracer): the client's requests get the hub's CLIENT span. */
  tracer(): RequestTracer | undefined;
}

const INTERNAL_ID = 'patchbay-agg-';
const INITIALIZED: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };

export class MemberLink implements MemberSource {
  state: LinkState = 'idle';
  /** Why the member is down, a sentence naming the server. */
  error: string | undefined;
  init: MemberInit | undefined;
  /** The runtime the current connection came from: a config change replaces it. */
  port: ServerPort | undefined;
  private conn: UpstreamConnection | undefined;
  private connecting: Promise<boolean> | undefined;
  private readonly backoff = new MemberBackoff();
  private nextId = 1;
  private readonly waiters = new HubWaiters();
  private closed = false;
  /** The observers' view of this link, once it tried to connect (undefined: nobody listens). */
  private observed: MemberObserved | undefined;
  private watchTaken = false;
  /** Connections opened so far: the first is initialized with the client's own request, later ones replay it. */
  private opens = 0;

  constructor(
    readonly server: string,
    /** Position in the profile, for ids that must differ per member. */
    readonly index: number,
    private readonly owner: MemberLinkOwner,
    private readonly logger: Logger,
  ) {}

  get isUp(): boolean {
    return this.state === 'up' && this.conn !== undefined && !this.conn.closed;
  }

  /** When a reconnect may be tried again. */
  get retryAt(): number {
    return this.backoff.retryAt;
  }

  /**
   * Opens and initializes the connection (once at a time). Resolves true when the member is up;
   * false when it is not, with `error` saying why. `initialize` is the client's own request.
   */
  connect(port: ServerPort | undefined, initialize: JsonRpcRequest, timeoutMs: number): Promise<boolean> {
    if (this.isUp) return Promise.resolve(true);
    this.connecting ??= this.open(port, initialize, timeoutMs).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** A connection attempt in progress, if any. */
  get pending(): Promise<boolean> | undefined {
    return this.connecting;
  }

  private async open(port: ServerPort | undefined, initialize: JsonRpcRequest, timeoutMs: number): Promise<boolean> {
    if (!port) return this.fail(notConfigured(this.server));
    this.state = 'connecting';
    this.port = port;
    if (!this.watchTaken) {
      this.watchTaken = true;
      this.observed = observe(this.owner.watch(port));
    }
    const observed = this.observed;
    let conn: UpstreamConnection;
    try {
      conn = await port.connect();
    } catch (err) {
      observed?.failed((err as Error).message);
      return this.fail(`server '${this.server}' could not be started: ${(err as Error).message}`);
    }
    if (this.closed) {
      void conn.close();
      return false;
    }
    this.conn = conn;
    observed?.opened();
    const watch = observed?.watch;
    conn.onmessage = (m, raw, local) => {
      // An answer the connection wrote itself is not the member's (a session reports it only to its client).
      if (observed && !local) {
        observed.answer();
        watch!.fromServer?.(m, raw);
      }
      if (this.waiters.settle(m, local !== false)) return;
      this.owner.message(this, m, raw, local);
    };
    conn.onclose = (info) => this.connectionLost(conn, info);
    // Events are wired only when someone wants them: a remote builds an HTTP exchange's record for each.
    if (watch?.upstreamEvent || this.owner.wantsEvents()) {
      conn.onevent = (event) => {
        observed?.event(event);
        this.owner.event(this, event);
      };
    }
    // The first connection is initialized with the client's own initialize; a later one replays it.
    const note: HubNote | undefined = this.opens++ === 0 ? undefined : 'replay-initialize';
    try {
      const answer = await this.ask({ ...initialize, id: this.internalId() }, timeoutMs, 'initialize', note);
      const result = (answer as { result?: MemberInit }).result;
      if (!result) throw new Error(`refused initialize: ${(answer as { error?: { message?: string } }).error?.message ?? 'no result'}`);
      this.init = { ...result, capabilities: result.capabilities ?? {} };
      watch?.toServer?.(INITIALIZED, undefined, note);
      conn.send(INITIALIZED);
    } catch (err) {
      // A connection that ended by itself was reported as such (connectionLost).
      const endedByItself = this.conn !== conn;
      if (this.conn === conn) this.conn = undefined;
      void conn.close();
      if (this.closed) return false;
      let message = (err as Error).message;
      const stderr = (conn as { stderrTail?: string }).stderrTail;
      if (stderr && !message.includes(stderr)) message += `: ${stderr}`;
      const named = message.startsWith(`server '${this.server}'`) ? message : `server '${this.server}' ${message}`;
      if (!endedByItself) observed?.failed(named);
      return this.fail(named);
    }
    this.state = 'up';
    this.error = undefined;
    this.backoff.succeeded();
    this.owner.up(this);
    return true;
  }

  /** A request of the aggregate's own; rejects with a sentence naming the server. */
  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    if (!this.isUp) throw new Error(this.error ?? notConnected(this.server));
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: this.internalId(), method };
    if (params) message.params = params;
    const answer = await this.ask(message, timeoutMs, method, OWN_NOTE);
    if ('error' in answer && answer.error) throw memberRefused(this.server, method, answer.error);
    return (answer as { result?: unknown }).result;
  }

  /**
   * Passes a message on as it is: the client's (no `note`), or one the aggregate wrote itself
   * (`note` says why, for observers). False when the member is not connected.
   */
  send(message: JsonRpcMessage, raw?: string, note?: HubNote): boolean {
    if (!this.isUp) return false;
    // Under telemetry a client's request to the member is the hub's CLIENT span, parented on the
    // profile's span its `_meta` names (hub/tracing.ts).
    const tracer = note === undefined && isRequest(message) ? this.owner.tracer() : undefined;
    if (tracer !== undefined && isRequest(message)) {
      const ctx = tracer.begin(incomingTrace(message), { clientSpan: true });
      if (ctx !== undefined) {
        this.observed?.watch.traced?.(message.id, ctx);
        message = withTrace(message, ctx);
        raw = undefined;
      }
    }
    this.observed?.watch.toServer?.(message, raw, note);
    this.conn!.send(message, raw);
    return true;
  }

  async close(): Promise<void> {
    const down = this.state === 'down';
    this.closed = true;
    this.state = 'idle';
    const conn = this.conn;
    this.conn = undefined;
    this.waiters.rejectAll(new Error(`server '${this.server}': the session was closed`));
    // A member that is down when its session ends ends failed, saying why.
    this.observed?.end(down ? 'failed' : 'closed', down ? this.error : undefined);
    await conn?.close();
  }

  private async ask(request: JsonRpcRequest, timeoutMs: number, what: string, note: HubNote | undefined): Promise<JsonRpcMessage> {
    const conn = this.conn;
    if (!conn) throw new Error('is not connected');
    const answer = this.waiters.wait(request.id);
    this.observed?.watch.toServer?.(request, undefined, note);
    conn.send(request);
    try {
      const { message, local } = await withTimeout(answer, timeoutMs, () => {
        throw new Error(unansweredWithin(what, timeoutMs));
      });
      if (local && 'error' in message && message.error) throw new Error(message.error.message);
      return message;
    } finally {
      this.waiters.forget(request.id);
    }
  }

  private internalId(): string {
    return `${INTERNAL_ID}${this.index}-${this.nextId++}`;
  }

  private fail(message: string): false {
    this.state = 'down';
    this.error = message;
    this.backoff.failed();
    this.logger.warn(message);
    return false;
  }

  private connectionLost(conn: UpstreamConnection, info: UpstreamClosed): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.observed?.closed(info);
    this.waiters.rejectAll(new Error(info.message));
    // During connect, the waiting initialize fails with this and open() reports it.
    if (this.state === 'connecting') return;
    this.fail(info.message.includes(`'${this.server}'`) ? info.message : `server '${this.server}': ${info.message}`);
    this.owner.lost(this, info);
  }
}
