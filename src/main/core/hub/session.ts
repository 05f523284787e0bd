/**
 * A downstream session: one MCP client's conversation with one configured server through the
 * hub. It owns the upstream connection (one per session unless the server is shared), routes each
 * upstream message to exactly one of its SSE streams (P10), and turns upstream failure into JSON-RPC
 * errors on every pending request, never a hang.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import type { UpstreamClosed, UpstreamConnection, UpstreamEvent } from '../upstream/upstream.js';
import {
  errorResponse,
  idKey,
  isNotification,
  isRequest,
  progressTokenOf,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import { CallDeadline, formatDuration, stalledReader, timedOut } from './call-clock.js';
import { HubWaiters, type HubAnswer } from './hub-waiters.js';
import type { ClientRequestInfo, HubNote, SessionWatch } from './observer.js';
import { SessionStreams } from './session-streams.js';
import type { SseStream, StreamLimits } from './sse-stream.js';
import type { StreamSink } from './stream-sink.js';

export type SessionState = 'live' | 'closed' | 'failed';

interface PendingRequest {
  id: JsonRpcId;
  method: string;
  stream: SseStream;
  progressKey: string | undefined;
  deadline: CallDeadline;
}

export interface SessionHost {
  /** Opens a new upstream connection for this session (spawning a child, or a shared-child link). */
  connect(session: Session): Promise<UpstreamConnection>;
  requestTimeoutMs: number;
  /** How long the server may take to answer `initialize` (its start-up), the client's or a replayed one. */
  startupTimeoutMs: number;
  streamLimits: StreamLimits;
  /** Called once when the session ends, to drop it from the hub's tables. */
  ended(session: Session): void;
  /** Restarts allowed within `restartWindowMs` before the session is failed. */
  maxRestarts: number;
  restartWindowMs: number;
  /** What the observers want to hear of this session (undefined: nobody listens). */
  watch(session: Session): SessionWatch | undefined;
}

const REPLAY_ID_PREFIX = 'patchbay-replay-';

export class Session {
  state: SessionState = 'live';
  failure: string | undefined;
  /** The version the server answered `initialize` with; set once initialized. */
  protocolVersion: string | undefined;
  lastActivity = Date.now();
  readonly createdAt = Date.now();
  /**
   * The door the client came in by: `/mcp` (Streamable HTTP), or `sse` (`/sse` + `/messages`, the
   * 2024-11-05 transport: legacy-sse-endpoint.ts, where every POST is answered 202). A session
   * answers only at its own door.
   */
  door: 'streamable-http' | 'sse' = 'streamable-http';
  /** The observers' calls (observer.ts): O(1) each, on the proxy path. */
  private readonly watch: SessionWatch | undefined;

  private upstream: UpstreamConnection | undefined;
  private connecting: Promise<UpstreamConnection> | undefined;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly progress = new Map<string, PendingRequest>();
  private readonly streams: SessionStreams;
  /** The client's `initialize` request, replayed when the upstream must be re-created. */
  private initializeRequest: JsonRpcRequest | undefined;
  private restarts: number[] = [];
  private replayCounter = 0;
  /** The current upstream connection has sent a message (for upstreamAnswered / upstreamClosed). */
  private upstreamAnswered = false;
  /** Hub-originated requests (initialize, replayed initialize, replay) waiting for the server's answer. */
  private readonly waiters = new HubWaiters();

  constructor(
    readonly id: string,
    readonly serverId: string,
    private readonly host: SessionHost,
  ) {
    this.streams = new SessionStreams(host.streamLimits, {
      pause: (paused) => (paused ? this.upstream?.pause?.() : this.upstream?.resume?.()),
      overflowed: (stream) => this.streamOverflowed(stream),
      // A connection that can pause is held back for a slow client; one that cannot (a shared
      // child, a remote, a profile) is not, and a stalled client's stream is given up instead.
      holdsBack: () => this.upstream?.pause !== undefined,
    });
    this.watch = host.watch(this);
  }

  /** Headers every response of this session carries (P14, P21). */
  responseHeaders(): Record<string, string> {
    const h: Record<string, string> = {};
    if (this.id) h['Mcp-Session-Id'] = this.id;
    if (this.protocolVersion) h['Mcp-Protocol-Version'] = this.protocolVersion;
    return h;
  }

  get usesPrimingEvents(): boolean {
    return this.protocolVersion !== undefined && this.protocolVersion >= '2025-11-25';
  }

  hasPending(id: JsonRpcId): boolean {
    return this.pending.has(idKey(id));
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Sends the client's `initialize` upstream and resolves with the server's answer. The caller
   * answers the HTTP request with it (as JSON, so the session id header rides on it).
   */
  async initialize(request: JsonRpcRequest, raw: string | undefined, http?: ClientRequestInfo): Promise<{ message: JsonRpcMessage; ok: boolean }> {
    this.initializeRequest = request;
    this.watch?.fromClient?.(request, raw, http, this.door === 'sse' ? 202 : 200);
    try {
      const upstream = await this.ensureUpstream(false);
      const { message, local } = await this.askWithin(upstream, request, raw);
      const result = (message as { result?: { protocolVersion?: unknown } }).result;
      if (result && typeof result.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
      this.watch?.toClient?.(message, undefined, local ? 'upstream-closed' : undefined);
      return { message, ok: result !== undefined };
    } catch (err) {
      const message = errorResponse(request.id, ErrorCode.InternalError, (err as Error).message, { server: this.serverId });
      this.watch?.toClient?.(message, undefined, 'upstream-closed');
      return { message, ok: false };
    }
  }

  /**
   * A request the hub makes itself (the inspector's replay, in a session of its own): sent
   * upstream and answered to the caller, not to a stream. Rejects after `timeoutMs`.
   */
  async request(request: JsonRpcRequest, timeoutMs: number): Promise<JsonRpcMessage> {
    const upstream = await this.ensureUpstream(true);
    try {
      const { message, local } = await withTimeout(this.ask(upstream, request, undefined, 'replay'), timeoutMs, () => {
        throw new Error(`server '${this.serverId}' did not answer '${request.method}' within ${formatDuration(timeoutMs)}`);
      });
      // The server never answered (as when a stdio upstream dies): a failure, not its error.
      if (local) throw new Error('error' in message && message.error ? message.error.message : `server '${this.serverId}' did not answer '${request.method}'`);
      return message;
    } finally {
      this.waiters.forget(request.id);
    }
  }

  /** For sessions the hub initializes itself (stateless servers): what to replay upstream. */
  setInitializeRequest(request: JsonRpcRequest): void {
    this.initializeRequest = request;
  }

  /**
   * `initialize` (the client's or a replayed one) within the server's start-up deadline. Past it
   * the upstream is closed (a child that never answers is stopped) and the error says how long,
   * what the server wrote to stderr, and how to allow more.
   */
  private async askWithin(upstream: UpstreamConnection, request: JsonRpcRequest, raw?: string, note?: HubNote): Promise<HubAnswer> {
    const limit = this.host.startupTimeoutMs;
    try {
      return await withTimeout(this.ask(upstream, request, raw, note), limit, () => {
        const tail = upstream.stderrTail;
        void upstream.close();
        if (this.upstream === upstream) this.upstream = undefined;
        throw new Error(`server '${this.serverId}' did not answer initialize within ${formatDuration(limit)} (raise "startupTimeoutMs" in its config if it needs longer)${tail ? `: ${tail}` : ''}`);
      });
    } finally {
      this.waiters.forget(request.id);
    }
  }

  /** Sends a hub-originated request and waits for its answer (or the upstream's death). */
  private ask(upstream: UpstreamConnection, request: JsonRpcRequest, raw?: string, note?: HubNote): Promise<HubAnswer> {
    const answer = this.waiters.wait(request.id);
    this.watch?.toServer?.(request, raw, note);
    upstream.send(request, raw);
    return answer;
  }

  /** Opens the stream a POST that carries requests is answered on. */
  openRequestStream(sink: StreamSink, extraHeaders: Record<string, string>): SseStream {
    return this.streams.open(sink, { ...extraHeaders, ...this.responseHeaders() }, this.usesPrimingEvents);
  }

  /** Forwards messages of one POST. Requests are answered on `stream`. */
  async forward(messages: JsonRpcMessage[], raws: Array<string | undefined>, stream: SseStream | undefined, http?: ClientRequestInfo): Promise<void> {
    this.lastActivity = Date.now();
    const now = Date.now();
    const watch = this.watch;
    const status = stream && this.door !== 'sse' ? 200 : 202;
    if (watch?.fromClient) for (let i = 0; i < messages.length; i++) watch.fromClient(messages[i]!, raws[i], http, status);
    for (const m of messages) {
      if (isRequest(m) && stream) {
        const entry: PendingRequest = {
          id: m.id,
          method: m.method,
          stream,
          progressKey: undefined,
          deadline: new CallDeadline(this.host.requestTimeoutMs, now),
        };
        const token = progressTokenOf(m);
        if (token !== undefined) {
          entry.progressKey = idKey(token);
          this.progress.set(entry.progressKey, entry);
        }
        this.pending.set(idKey(m.id), entry);
        stream.pending++;
      } else if (isNotification(m) && m.method === 'notifications/cancelled') {
        this.clientCancelled(m.params?.requestId);
      }
    }
    let upstream: UpstreamConnection;
    try {
      upstream = await this.ensureUpstream(true);
    } catch (err) {
      this.failAll((err as Error).message, {}, 'upstream-closed');
      return;
    }
    for (let i = 0; i < messages.length; i++) {
      watch?.toServer?.(messages[i]!, raws[i], undefined);
      upstream.send(messages[i]!, raws[i]);
    }
  }

  /** Attaches the standalone GET stream (P10), replacing an older connection of it. */
  attachGetStream(sink: StreamSink, extraHeaders: Record<string, string>): void {
    this.lastActivity = Date.now();
    // Messages that arrived while no GET stream was open were kept for it, and go out now.
    this.streams.attachGet(sink, { ...extraHeaders, ...this.responseHeaders() }, this.usesPrimingEvents);
  }

  /** Resumes a stream after `Last-Event-ID` (P11). False when the id is unknown or evicted. */
  resume(key: string, n: number, sink: StreamSink, extraHeaders: Record<string, string>): boolean {
    if (!this.streams.resume(key, n, sink, { ...extraHeaders, ...this.responseHeaders() })) return false;
    this.lastActivity = Date.now();
    return true;
  }

  /** No traffic for `timeoutMs`, nothing in flight, and no stream the client holds open. */
  isIdle(now: number, timeoutMs: number): boolean {
    return this.pending.size === 0 && now - this.lastActivity >= timeoutMs && !this.streams.anyAttached();
  }

  keepAlive(now: number, idleMs: number): void {
    this.streams.keepAlive(now, idleMs);
  }

  /** Fails requests past their deadline and tells the server they were cancelled. */
  expireRequests(now: number): void {
    for (const [key, p] of this.pending) {
      if (!p.deadline.passed(now)) continue;
      const { reason, message } = timedOut(this.serverId, p.method, p.deadline.limitMs);
      this.giveUp(key, p, reason, message, 'timeout');
    }
  }

  /** Answers a request with the hub's error, and tells the server it was cancelled. */
  private giveUp(key: string, p: PendingRequest, reason: string, error: string, note: HubNote): void {
    const cancel: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: p.id, reason } };
    if (this.upstream) this.watch?.toServer?.(cancel, undefined, note);
    this.upstream?.send(cancel);
    this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, error), undefined, note);
  }

  /**
   * A stream whose client is stalled (sse-stream.ts: it took nothing for a while with more than
   * the cap waiting, or let twice the cap pile up; only where the upstream cannot be held back for
   * one session: a shared child, a remote, a profile). Its open requests are answered with an
   * error, written after everything the client has yet to read, and cancelled upstream; the
   * stream ends (a GET stream stays resumable). The session's other streams, and the other
   * sessions of a shared child, go on.
   */
  private streamOverflowed(stream: SseStream): void {
    const why = stalledReader(this.serverId, stream.backlog);
    let answered = false;
    for (const [key, p] of [...this.pending]) {
      if (p.stream !== stream) continue;
      answered = true;
      // 'session-closed': the hub ended the exchange on the client's side (observer.ts).
      this.giveUp(key, p, 'the client stopped reading', why, 'session-closed');
    }
    if (!answered) stream.end();
  }

  async close(reason: SessionState = 'closed', failure?: string): Promise<void> {
    if (this.state !== 'live') return;
    this.state = reason;
    this.failure = failure;
    this.failAll(failure ?? `session closed`, {}, 'session-closed');
    // Requests the hub itself is waiting on (an initialize in progress) end too: nothing will answer them now.
    this.waiters.rejectAll(new Error(failure ?? `server '${this.serverId}': the session was closed`));
    this.watch?.ended?.(reason === 'failed' ? 'failed' : 'closed', failure);
    this.streams.endAll();
    this.host.ended(this);
    const upstream = this.upstream;
    this.upstream = undefined;
    await upstream?.close();
  }

  private async ensureUpstream(replay: boolean): Promise<UpstreamConnection> {
    if (this.upstream && !this.upstream.closed) return this.upstream;
    if (this.connecting) return this.connecting;
    this.connecting = (async () => {
      let upstream: UpstreamConnection;
      try {
        upstream = await this.host.connect(this);
      } catch (err) {
        this.watch?.upstreamFailed?.((err as Error).message);
        throw err;
      }
      this.upstreamAnswered = false;
      upstream.onmessage = (m, raw, local) => (local ? this.localReply(m, raw) : this.fromUpstream(m, raw));
      upstream.onclose = (info) => this.upstreamClosed(upstream, info);
      // Events are wired only when someone observes them: building an HTTP exchange's record
      // copies and masks its headers.
      if (this.watch?.upstreamEvent) upstream.onevent = (event) => this.upstreamEvent(event);
      this.watch?.upstreamOpened?.();
      if (replay && this.initializeRequest) await this.replayInitialize(upstream);
      this.upstream = upstream;
      // A new child of a session whose client is not keeping up starts held back too.
      if (this.streams.paused) upstream.pause?.();
      return upstream;
    })();
    try {
      return await this.connecting;
    } finally {
      this.connecting = undefined;
    }
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
   * upstream session on its own link (it must, see RemoteUpstream.replayInitialize): that is told
   * as this session's replay above is, the server's answer kept from the client, and the new
   * upstream session counted as a restart.
   */
  private upstreamEvent(event: UpstreamEvent): void {
    const watch = this.watch!;
    if (event.type !== 'reinitialize') watch.upstreamEvent?.(event);
    else if (event.step === 'sent') watch.toServer?.(event.message, undefined, 'replay-initialize');
    else if (event.step === 'answered') watch.fromServer?.(event.message, event.raw);
    else watch.upstreamOpened?.();
  }

  private fromUpstream(message: JsonRpcMessage, raw: string): void {
    this.lastActivity = Date.now();
    if (!this.upstreamAnswered) {
      this.upstreamAnswered = true;
      this.watch?.upstreamAnswered?.();
    }
    this.watch?.fromServer?.(message, raw);
    if (!('method' in message)) {
      if (this.waiters.settle(message, false)) return;
      const key = idKey(message.id ?? '');
      const p = this.pending.get(key);
      // Unknown ids: a response to a request that was cancelled or timed out. Dropped on purpose.
      if (p) this.answer(key, p, message, raw);
      return;
    }
    this.routeServerMessage(message, raw);
  }

  /**
   * An error the upstream connection wrote for a request the server will not answer: routed as an
   * answer is, the very same text to the client, but captured as the hub's (on the client leg
   * only), as failAll does when a stdio upstream dies.
   */
  private localReply(message: JsonRpcMessage, raw: string): void {
    this.lastActivity = Date.now();
    if ('method' in message || this.waiters.settle(message, true)) return; // always a response
    const key = idKey(message.id ?? '');
    const p = this.pending.get(key);
    if (p) this.answer(key, p, message, raw, 'upstream-closed');
  }

  /**
   * Where a server-initiated request or notification goes. Stdio carries no stream affinity, so
   * the hub infers it: a progress notification goes with the request that asked for it; anything
   * else goes on the oldest request stream still open (servers send logging, sampling and
   * elicitation while handling a call), else on the GET stream, where it waits if none is open.
   * Progress for a token no pending request has (its request was answered, cancelled or given
   * up) is dropped: it belongs to no stream, and on another one it would reach a call (or, through
   * the era bridge, a client) it is not about.
   */
  private routeServerMessage(message: JsonRpcMessage, raw: string): void {
    const json = raw.includes('\n') ? JSON.stringify(message) : raw;
    if ('method' in message && message.method === 'notifications/progress') {
      const token = (message.params as { progressToken?: JsonRpcId } | undefined)?.progressToken;
      const p = token === undefined ? undefined : this.progress.get(idKey(token));
      if (!p) return;
      this.watch?.toClient?.(message, json, undefined);
      // Progress extends the request's timeout (ARCHITECTURE: reliability rules).
      p.deadline.progressed();
      p.stream.push(json, message);
      return;
    }
    this.watch?.toClient?.(message, json, undefined);
    for (const p of this.pending.values()) {
      if (p.stream.attached) {
        p.stream.push(json, message);
        return;
      }
    }
    this.streams.get.push(json, message);
  }

  /** `note`: the hub answers itself (a timeout, a failure) instead of the server. */
  private answer(key: string, p: PendingRequest, message: JsonRpcMessage, raw?: string, note?: HubNote): void {
    this.pending.delete(key);
    if (p.progressKey) this.progress.delete(p.progressKey);
    const json = raw !== undefined && !raw.includes('\n') ? raw : JSON.stringify(message);
    this.watch?.toClient?.(message, json, note);
    p.stream.push(json, message);
    p.stream.pending--;
    if (p.stream.pending === 0) this.streams.complete(p.stream);
  }

  private clientCancelled(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = idKey(requestId);
    const p = this.pending.get(key);
    if (!p) return;
    // The server should not answer a cancelled request, so the stream must not wait for it.
    this.pending.delete(key);
    if (p.progressKey) this.progress.delete(p.progressKey);
    p.stream.pending--;
    if (p.stream.pending === 0) this.streams.complete(p.stream);
  }

  private upstreamClosed(upstream: UpstreamConnection, info: UpstreamClosed): void {
    if (this.upstream === upstream) this.upstream = undefined;
    this.watch?.upstreamClosed?.(info, this.upstreamAnswered);
    const data: Record<string, unknown> = { server: this.serverId };
    if (info.exitCode !== undefined) data.exitCode = info.exitCode;
    if (info.signal) data.signal = info.signal;
    if (info.stderrTail) data.stderr = info.stderrTail;
    this.failAll(info.message, data, 'upstream-closed');
    this.waiters.rejectAll(new Error(info.message));
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < this.host.restartWindowMs);
    this.restarts.push(now);
    if (this.restarts.length > this.host.maxRestarts) {
      void this.close('failed', `${info.message} (it failed ${this.restarts.length} times within ${Math.round(this.host.restartWindowMs / 1000)}s; session closed)`);
    }
  }

  private failAll(message: string, data: Record<string, unknown>, note: HubNote): void {
    for (const [key, p] of [...this.pending]) {
      this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, message, Object.keys(data).length ? data : undefined), undefined, note);
    }
  }
}
