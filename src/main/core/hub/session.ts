/**
 * A downstream session: one MCP client's conversation with one configured server through the
 * hub. It owns the upstream connection (one per session unless the server is shared), routes each
 * upstream message to exactly one of its SSE streams (P10), and turns upstream failure into JSON-RPC
 * errors on every pending request, never a hang.
 *
 * This file is the session as the hub sees it, and where each message enters: a client's POST
 * (forward) and an upstream message (fromUpstream, localReply). Two collaborators, each made once
 * per session, hold the rest: session-requests.ts the client's requests in flight (ids, progress
 * tokens, deadlines, stream counters, giving up) and where the server's messages go;
 * session-upstream.ts the upstream connection's lifecycle and the hub's own requests on it.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import type { UpstreamConnection } from '../upstream/upstream.js';
import { errorResponse, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import { formatDuration } from './call-clock.js';
import { HubWaiters } from './hub-waiters.js';
import { hubNoteOf, type ClientRequestInfo, type HubNote, type SessionWatch } from './observer.js';
import { SessionRequests } from './session-requests.js';
import { SessionStreams } from './session-streams.js';
import { SessionUpstream } from './session-upstream.js';
import type { SseStream, StreamLimits } from './sse-stream.js';
import type { StreamSink } from './stream-sink.js';
import { incomingTrace, withTrace, type RequestTracer } from './tracing.js';

export type SessionState = 'live' | 'closed' | 'failed';

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
  /**
   * Telemetry's tracer, when telemetry is on: each client request forwarded gets a trace context,
   * and `_meta.traceparent` names the hub's span (hub/tracing.ts). `clientSpan`: the hub's own
   * request to the server gets a CLIENT span here (false where a stage of the hub makes them: a
   * profile's aggregate).
   */
  tracing?: { tracer: RequestTracer; clientSpan: boolean };
}

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

  private readonly streams: SessionStreams;
  /** The client's requests in flight, and where the server's own messages go. */
  private readonly requests: SessionRequests;
  /** The upstream connection: opened, re-opened with a replayed initialize, given up. */
  private readonly upstream: SessionUpstream;
  /** Hub-originated requests (initialize, replayed initialize, replay) waiting for the server's answer. */
  private readonly waiters = new HubWaiters();

  constructor(
    readonly id: string,
    readonly serverId: string,
    private readonly host: SessionHost,
  ) {
    const watch = (this.watch = host.watch(this));
    this.streams = new SessionStreams(host.streamLimits, {
      pause: (paused) => this.upstream.hold(paused),
      overflowed: (stream) => this.requests.overflowed(stream),
      // A connection that can pause is held back for a slow client; one that cannot (a shared
      // child, a remote, a profile) is not, and a stalled client's stream is given up instead.
      holdsBack: () => this.upstream.holdsBack,
      // Observers' marks: when a message reached the client, and the raw bytes of its streams.
      delivered: watch?.delivered?.bind(watch),
      wireFor: watch?.wireTap?.bind(watch),
    });
    this.upstream = new SessionUpstream(serverId, host, this.watch, this.waiters, {
      connect: () => host.connect(this),
      receive: (m, raw, local) => (local === false ? this.fromUpstream(m, raw) : this.localReply(m, raw, local === true ? 'upstream-closed' : hubNoteOf(local))),
      heldBack: () => this.streams.paused,
      lost: (message, data) => this.requests.failAll(message, data, 'upstream-closed'),
      failed: (failure) => void this.close('failed', failure),
    });
    this.requests = new SessionRequests(serverId, host, this.streams, this.watch, this.upstream);
  }

  /** The name the client gives itself in its initialize (clientInfo), once it sent one. */
  get clientName(): string | undefined {
    const name = (this.upstream.initializeRequest?.params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo?.name;
    return typeof name === 'string' ? name : undefined;
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
    return this.requests.has(id);
  }

  get pendingCount(): number {
    return this.requests.size;
  }

  /**
   * Sends the client's `initialize` upstream and resolves with the server's answer. The caller
   * answers the HTTP request with it (as JSON, so the session id header rides on it).
   */
  async initialize(request: JsonRpcRequest, raw: string | undefined, http?: ClientRequestInfo): Promise<{ message: JsonRpcMessage; ok: boolean }> {
    this.upstream.initializeRequest = request;
    this.watch?.fromClient?.(request, raw, http, this.door === 'sse' ? 202 : 200);
    try {
      const upstream = await this.upstream.ensure(false);
      // Replays use the client's own initialize (kept above), never a trace context of the past.
      const traced = this.trace(request, http);
      const { message, local } = traced === request ? await this.upstream.askWithin(upstream, request, raw) : await this.upstream.askWithin(upstream, traced, undefined);
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
    const upstream = await this.upstream.ensure(true);
    try {
      const { message, local } = await withTimeout(this.upstream.ask(upstream, request, undefined, 'replay'), timeoutMs, () => {
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
    this.upstream.initializeRequest = request;
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
    this.requests.admit(messages, stream, now);
    let upstream: UpstreamConnection;
    try {
      upstream = await this.upstream.ensure(true);
    } catch (err) {
      this.requests.failAll((err as Error).message, {}, 'upstream-closed');
      return;
    }
    const tracing = this.host.tracing;
    for (let i = 0; i < messages.length; i++) {
      let message = messages[i]!;
      let raw = raws[i];
      if (tracing !== undefined && isRequest(message)) {
        const traced = this.trace(message, http);
        if (traced !== message) {
          message = traced;
          raw = undefined;
        }
      }
      watch?.toServer?.(message, raw, undefined);
      upstream.send(message, raw);
    }
  }

  /**
   * The request as it goes upstream under telemetry: with a trace context, `_meta` names the
   * hub's span (hub/tracing.ts) and observers are told the ids; otherwise the request itself.
   */
  private trace(request: JsonRpcRequest, http: ClientRequestInfo | undefined): JsonRpcRequest {
    const tracing = this.host.tracing;
    if (tracing === undefined) return request;
    const ctx = tracing.tracer.begin(incomingTrace(request, http?.headers), { clientSpan: tracing.clientSpan });
    if (ctx === undefined) return request;
    this.watch?.traced?.(request.id, ctx);
    return withTrace(request, ctx);
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
    return this.requests.size === 0 && now - this.lastActivity >= timeoutMs && !this.streams.anyAttached();
  }

  keepAlive(now: number, idleMs: number): void {
    this.streams.keepAlive(now, idleMs);
  }

  /** Fails requests past their deadline and tells the server they were cancelled. */
  expireRequests(now: number): void {
    this.requests.expire(now);
  }

  async close(reason: SessionState = 'closed', failure?: string): Promise<void> {
    if (this.state !== 'live') return;
    this.state = reason;
    this.failure = failure;
    this.requests.failAll(failure ?? `session closed`, {}, 'session-closed');
    // Requests the hub itself is waiting on (an initialize in progress) end too: nothing will answer them now.
    this.waiters.rejectAll(new Error(failure ?? `server '${this.serverId}': the session was closed`));
    this.watch?.ended?.(reason === 'failed' ? 'failed' : 'closed', failure);
    this.streams.endAll();
    this.host.ended(this);
    await this.upstream.close();
  }

  private fromUpstream(message: JsonRpcMessage, raw: string): void {
    this.lastActivity = Date.now();
    const upstream = this.upstream;
    if (!upstream.answered) upstream.firstAnswer();
    this.watch?.fromServer?.(message, raw);
    if (!('method' in message)) {
      if (this.waiters.settle(message, false)) return;
      this.requests.answered(message, raw);
      return;
    }
    this.requests.route(message, raw);
  }

  /**
   * An error the upstream connection wrote for a request the server will not answer: routed as an
   * answer is, the very same text to the client, but captured as the hub's (on the client leg
   * only), as failAll does when a stdio upstream dies.
   */
  private localReply(message: JsonRpcMessage, raw: string, note: HubNote): void {
    this.lastActivity = Date.now();
    if ('method' in message || this.waiters.settle(message, true)) return; // always a response
    this.requests.answered(message, raw, note);
  }
}
