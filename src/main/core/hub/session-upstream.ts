/**
 * A session's upstream connection over the session's life: opened on first use (once, however
 * many messages wait for it), re-opened after it ended by itself with the client's own
 * `initialize` replayed on the new one, and given up after too many restarts within a window
 * (ARCHITECTURE: reliability); and the requests the hub sends on it for itself (the client's
 * initialize, a replayed one, the inspector's replay), whose answers come back to the hub's code
 * through HubWaiters, never to a stream. The observers' upstream-edge calls (opened, failed,
 * first answer, closed, events) are made here: they are how server status is learned
 * (docs/architecture.md, "Server status is learned at the session's upstream edge").
 *
 * Separate from session.ts because none of this is on the per-message path (but the `answered`
 * flag, one field read per message): messages go to the connection `ensure` handed the session,
 * and come back through the one handler the session gives every connection
 * (`UpstreamOwner.receive`), which calls the session's own method: nothing of this file between.
 */
import type { UpstreamClosed, UpstreamConnection, UpstreamEvent } from '../upstream/upstream.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import { formatDuration } from './call-clock.js';
import type { HubAnswer, HubWaiters } from './hub-waiters.js';
import type { HubNote, SessionWatch } from './observer.js';

const REPLAY_ID_PREFIX = 'patchbay-replay-';

/** The server's limits the lifecycle follows (a SessionHost has them). */
export interface UpstreamLimits {
  /** How long the server may take to answer `initialize` (its start-up), the client's or a replayed one. */
  readonly startupTimeoutMs: number;
  /** Restarts allowed within `restartWindowMs` before the session is failed. */
  readonly maxRestarts: number;
  readonly restartWindowMs: number;
}

/** What the lifecycle needs of its session: set once, when the session is made. */
export interface UpstreamOwner {
  /** Opens a new upstream connection (spawning a child, a shared-child link, a remote). */
  connect(): Promise<UpstreamConnection>;
  /** The session's handler of its connections' messages: the same function for every connection. */
  readonly receive: NonNullable<UpstreamConnection['onmessage']>;
  /** Some stream's client is not keeping up: a new connection starts held back too. */
  heldBack(): boolean;
  /** The connection ended by itself: every request waiting on it is answered with this error. */
  lost(message: string, data: Record<string, unknown>): void;
  /** Too many restarts within the window: the session fails with this reason. */
  failed(failure: string): void;
}

/** A session's upstream connection: opened, re-opened with a replayed initialize, given up. */
export class SessionUpstream {
  /** The current connection has sent a message (for upstreamAnswered / upstreamClosed). */
  answered = false;
  /** The client's `initialize` request, replayed when the upstream must be re-created. */
  initializeRequest: JsonRpcRequest | undefined;
  private current: UpstreamConnection | undefined;
  private connecting: Promise<UpstreamConnection> | undefined;
  /** The session ended: a connection that opens after this is closed at once, never kept. */
  private shut = false;
  private restarts: number[] = [];
  private replayCounter = 0;

  /**
   * @param watch the session's observers' calls (observer.ts), undefined when nobody listens
   * @param waiters the session's hub-originated requests, answered by what the session receives
   */
  constructor(
    private readonly serverId: string,
    private readonly limits: UpstreamLimits,
    private readonly watch: SessionWatch | undefined,
    private readonly waiters: HubWaiters,
    private readonly owner: UpstreamOwner,
  ) {}

  /** Whether the connection is held back while a client is behind (it can pause), rather than outrun. */
  get holdsBack(): boolean {
    return this.current?.pause !== undefined;
  }

  /** Holds the connection back (`paused`), or lets it go on. */
  hold(paused: boolean): void {
    if (paused) this.current?.pause?.();
    else this.current?.resume?.();
  }

  /**
   * The open connection, or a new one (`replay`: initialized with the client's own `initialize`
   * when the session has one). Callers that come while one is being opened wait for it.
   */
  async ensure(replay: boolean): Promise<UpstreamConnection> {
    if (this.current && !this.current.closed) return this.current;
    if (this.connecting) return this.connecting;
    this.connecting = (async () => {
      let upstream: UpstreamConnection;
      try {
        upstream = await this.owner.connect();
      } catch (err) {
        this.watch?.upstreamFailed?.((err as Error).message);
        throw err;
      }
      // The session ended while its child was starting (a client that gave up during a slow
      // start): the child goes with it rather than live on unowned.
      if (this.shut) throw await this.discard(upstream);
      this.answered = false;
      upstream.onmessage = this.owner.receive;
      upstream.onclose = (info) => this.closed(upstream, info);
      // Events are wired only when someone observes them: building an HTTP exchange's record
      // copies and masks its headers.
      if (this.watch?.upstreamEvent) upstream.onevent = (event) => this.event(event);
      this.watch?.upstreamOpened?.();
      if (replay && this.initializeRequest) await this.replayInitialize(upstream);
      if (this.shut) throw await this.discard(upstream);
      this.current = upstream;
      // A new child of a session whose client is not keeping up starts held back too.
      if (this.owner.heldBack()) upstream.pause?.();
      return upstream;
    })();
    try {
      return await this.connecting;
    } finally {
      this.connecting = undefined;
    }
  }

  /** The current connection sent its first message. */
  firstAnswer(): void {
    this.answered = true;
    this.watch?.upstreamAnswered?.();
  }

  /** Sends a hub-originated request and waits for its answer (or the upstream's death). */
  ask(upstream: UpstreamConnection, request: JsonRpcRequest, raw?: string, note?: HubNote): Promise<HubAnswer> {
    const answer = this.waiters.wait(request.id);
    this.watch?.toServer?.(request, raw, note);
    upstream.send(request, raw);
    return answer;
  }

  /**
   * `initialize` (the client's or a replayed one) within the server's start-up deadline. Past it
   * the upstream is closed (a child that never answers is stopped) and the error says how long,
   * what the server wrote to stderr, and how to allow more.
   */
  async askWithin(upstream: UpstreamConnection, request: JsonRpcRequest, raw?: string, note?: HubNote): Promise<HubAnswer> {
    const limit = this.limits.startupTimeoutMs;
    try {
      return await withTimeout(this.ask(upstream, request, raw, note), limit, () => {
        const tail = upstream.stderrTail;
        void upstream.close();
        if (this.current === upstream) this.current = undefined;
        throw new Error(`server '${this.serverId}' did not answer initialize within ${formatDuration(limit)} (raise "startupTimeoutMs" in its config if it needs longer)${tail ? `: ${tail}` : ''}`);
      });
    } finally {
      this.waiters.forget(request.id);
    }
  }

  /** A message of the hub's own (a cancellation) to the open connection, if there is one. */
  tell(message: JsonRpcMessage, note: HubNote): void {
    const upstream = this.current;
    if (!upstream) return;
    this.watch?.toServer?.(message, undefined, note);
    upstream.send(message);
  }

  /** Closes the connection (the session ended), and any that is still being opened once it opens. */
  async close(): Promise<void> {
    this.shut = true;
    const upstream = this.current;
    this.current = undefined;
    await upstream?.close();
  }

  /** Closes a connection that opened after the session ended; the error is what its waiters get. */
  private async discard(upstream: UpstreamConnection): Promise<Error> {
    await upstream.close();
    return new Error(`server '${this.serverId}': the session was closed`);
  }

  /** Re-initializes a new upstream with the client's own `initialize` (ARCHITECTURE: reliability). */
  private async replayInitialize(upstream: UpstreamConnection): Promise<void> {
    const id = `${REPLAY_ID_PREFIX}${++this.replayCounter}`;
    const { message: answer } = await this.askWithin(upstream, { ...this.initializeRequest!, id }, undefined, 'replay-initialize');
    if ('error' in answer && answer.error) throw new Error(`server '${this.serverId}' refused the replayed initialize: ${answer.error.message}`);
    const initialized: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
    this.watch?.toServer?.(initialized, undefined, 'replay-initialize');
    upstream.send(initialized);
  }

  /**
   * Events of the upstream connection, for observers. A remote upstream re-initializes a lost
   * upstream session on its own link (it must, see RemoteLinks.replayInitialize): that is told
   * as this session's replay above is, the server's answer kept from the client, and the new
   * upstream session counted as a restart.
   */
  private event(event: UpstreamEvent): void {
    const watch = this.watch!;
    if (event.type !== 'reinitialize') watch.upstreamEvent?.(event);
    else if (event.step === 'sent') watch.toServer?.(event.message, undefined, 'replay-initialize');
    else if (event.step === 'answered') watch.fromServer?.(event.message, event.raw);
    else watch.upstreamOpened?.();
  }

  private closed(upstream: UpstreamConnection, info: UpstreamClosed): void {
    if (this.current === upstream) this.current = undefined;
    this.watch?.upstreamClosed?.(info, this.answered);
    const data: Record<string, unknown> = { server: this.serverId };
    if (info.exitCode !== undefined) data.exitCode = info.exitCode;
    if (info.signal) data.signal = info.signal;
    if (info.stderrTail) data.stderr = info.stderrTail;
    this.owner.lost(info.message, data);
    this.waiters.rejectAll(new Error(info.message));
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < this.limits.restartWindowMs);
    this.restarts.push(now);
    if (this.restarts.length > this.limits.maxRestarts) {
      this.owner.failed(`${info.message} (it failed ${this.restarts.length} times within ${Math.round(this.limits.restartWindowMs / 1000)}s; session closed)`);
    }
  }
}
