/**
 * One member of an aggregated session: the connection to one server, opened through that
 * server's own runtime (so its children, spare and shared mode work as for its own endpoint),
 * initialized with the client's `initialize`, and re-opened with backoff when it fails. Requests
 * the aggregate makes itself (lists, a fan-out) carry ids of their own and never reach the client.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { HubWaiters } from '../hub/hub-waiters.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { UpstreamClosed, UpstreamConnection, UpstreamEvent } from '../upstream/upstream.js';
import type { MemberSource } from './member-source.js';

export type LinkState = 'idle' | 'connecting' | 'up' | 'down';

/** What a member answered `initialize` with. */
export interface MemberInit {
  protocolVersion?: string;
  capabilities: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
  instructions?: string;
}

export interface MemberLinkOwner {
  /** A message from the server that is not the answer to the aggregate's own request. */
  message(link: MemberLink, message: JsonRpcMessage, raw: string, local: boolean): void;
  /** The connection ended by itself (a child exited); requests in flight are lost. */
  lost(link: MemberLink, info: UpstreamClosed): void;
  /** The member (re)connected and initialized. */
  up(link: MemberLink): void;
  event(link: MemberLink, event: UpstreamEvent): void;
}

const INTERNAL_ID = 'patchbay-agg-';
/** Waits before a member that failed is tried again (both eras). */
export const BACKOFF_MS = [250, 1000, 2000, 5000, 10_000, 30_000];

export class MemberLink implements MemberSource {
  state: LinkState = 'idle';
  /** Why the member is down, a sentence naming the server. */
  error: string | undefined;
  init: MemberInit | undefined;
  /** The runtime the current connection came from: a config change replaces it. */
  port: ServerPort | undefined;
  /** When a reconnect may be tried again. */
  retryAt = 0;
  private conn: UpstreamConnection | undefined;
  private connecting: Promise<boolean> | undefined;
  private failures = 0;
  private nextId = 1;
  private readonly waiters = new HubWaiters();
  private closed = false;

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
    if (!port) return this.fail(`server '${this.server}' is not configured (or it is disabled)`);
    this.state = 'connecting';
    this.port = port;
    let conn: UpstreamConnection;
    try {
      conn = await port.connect();
    } catch (err) {
      return this.fail(`server '${this.server}' could not be started: ${(err as Error).message}`);
    }
    if (this.closed) {
      void conn.close();
      return false;
    }
    this.conn = conn;
    conn.onmessage = (m, raw, local) => {
      if (this.waiters.settle(m, local)) return;
      this.owner.message(this, m, raw, local);
    };
    conn.onclose = (info) => this.connectionLost(conn, info);
    conn.onevent = (event) => this.owner.event(this, event);
    try {
      const answer = await this.ask({ ...initialize, id: this.internalId() }, timeoutMs, 'initialize');
      const result = (answer as { result?: MemberInit }).result;
      if (!result) throw new Error(`refused initialize: ${(answer as { error?: { message?: string } }).error?.message ?? 'no result'}`);
      this.init = { ...result, capabilities: result.capabilities ?? {} };
      conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } catch (err) {
      if (this.conn === conn) this.conn = undefined;
      void conn.close();
      if (this.closed) return false;
      let message = (err as Error).message;
      const stderr = (conn as { stderrTail?: string }).stderrTail;
      if (stderr && !message.includes(stderr)) message += `: ${stderr}`;
      return this.fail(message.startsWith(`server '${this.server}'`) ? message : `server '${this.server}' ${message}`);
    }
    this.state = 'up';
    this.error = undefined;
    this.failures = 0;
    this.retryAt = 0;
    this.owner.up(this);
    return true;
  }

  /** A request of the aggregate's own; rejects with a sentence naming the server. */
  async request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
    if (!this.isUp) throw new Error(this.error ?? `server '${this.server}' is not connected`);
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: this.internalId(), method };
    if (params) message.params = params;
    const answer = await this.ask(message, timeoutMs, method);
    if ('error' in answer && answer.error) throw new MemberError(`server '${this.server}' answered ${method} with error ${answer.error.code}: ${answer.error.message}`, answer.error.code);
    return (answer as { result?: unknown }).result;
  }

  /** Passes a client message on, as it is. False when the member is not connected. */
  send(message: JsonRpcMessage, raw?: string): boolean {
    if (!this.isUp) return false;
    this.conn!.send(message, raw);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'idle';
    const conn = this.conn;
    this.conn = undefined;
    this.waiters.rejectAll(new Error(`server '${this.server}': the session was closed`));
    await conn?.close();
  }

  /** Drops the connection (its runtime was replaced); the next connect opens a new one. */
  async reset(): Promise<void> {
    const conn = this.conn;
    this.conn = undefined;
    this.state = 'idle';
    this.init = undefined;
    this.waiters.rejectAll(new Error(`server '${this.server}' was reconfigured`));
    await conn?.close();
  }

  private async ask(request: JsonRpcRequest, timeoutMs: number, what: string): Promise<JsonRpcMessage> {
    const conn = this.conn;
    if (!conn) throw new Error('is not connected');
    const answer = this.waiters.wait(request.id);
    conn.send(request);
    try {
      const { message, local } = await withTimeout(answer, timeoutMs, () => {
        throw new Error(`did not answer ${what} within ${Math.round(timeoutMs / 100) / 10}s`);
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
    this.retryAt = Date.now() + BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!;
    this.failures++;
    this.logger.warn(message);
    return false;
  }

  private connectionLost(conn: UpstreamConnection, info: UpstreamClosed): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.waiters.rejectAll(new Error(info.message));
    // During connect, the waiting initialize fails with this and open() reports it.
    if (this.state === 'connecting') return;
    this.fail(info.message.includes(`'${this.server}'`) ? info.message : `server '${this.server}': ${info.message}`);
    this.owner.lost(this, info);
  }
}

/** A JSON-RPC error a member answered one of the aggregate's own requests with. */
export class MemberError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'MemberError';
  }
}

/** The error a client gets for a request its member cannot take. */
export function unavailable(link: { readonly server: string; readonly error: string | undefined }): { code: number; message: string; data: Record<string, unknown> } {
  const why = link.error ?? `server '${link.server}' is not connected`;
  return { code: ErrorCode.InternalError, message: `${why.startsWith(`server '${link.server}'`) ? why : `server '${link.server}' is unavailable: ${why}`}`, data: { server: link.server } };
}
