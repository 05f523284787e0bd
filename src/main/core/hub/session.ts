/**
 * A downstream session: one MCP client's conversation with one configured server through the
 * hub. It owns the upstream connection (one per session unless the server is shared), routes each
 * upstream message to exactly one of its SSE streams (P10), and turns upstream failure into JSON-RPC
 * errors on every pending request, never a hang.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../../shared/protocol.js';
import type { CaptureNote, SessionTap } from '../inspector/capture-tap.js';
import type { UpstreamClosed, UpstreamConnection, UpstreamReinitialize } from '../upstream/upstream.js';
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
import { HubWaiters, type HubAnswer } from './hub-waiters.js';
import { SessionStreams } from './session-streams.js';
import type { SseStream, StreamLimits } from './sse-stream.js';

export type SessionState = 'live' | 'closed' | 'failed';

interface PendingRequest {
  id: JsonRpcId;
  method: string;
  stream: SseStream;
  progressKey: string | undefined;
  deadline: number;
}

export interface SessionHost {
  /** Opens a new upstream connection for this session (spawning a child, or a shared-child link). */
  connect(session: Session): Promise<UpstreamConnection>;
  requestTimeoutMs: number;
  streamLimits: StreamLimits;
  /** Called once when the session ends, to drop it from the hub's tables. */
  ended(session: Session): void;
  /** Restarts allowed within `restartWindowMs` before the session is failed. */
  maxRestarts: number;
  restartWindowMs: number;
  /** The inspector's tap for this session (undefined when capture is off). */
  openTap?(session: Session): SessionTap | undefined;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

const REPLAY_ID_PREFIX = 'patchbay-replay-';

export class Session {
  state: SessionState = 'live';
  failure: string | undefined;
  /** The version the server answered `initialize` with; set once initialized. */
  protocolVersion: string | undefined;
  lastActivity = Date.now();
  readonly createdAt = Date.now();
  /** Capture: O(1) calls that queue what crosses the session (see inspector/capture-tap.ts). */
  readonly tap: SessionTap | undefined;

  private upstream: UpstreamConnection | undefined;
  private connecting: Promise<UpstreamConnection> | undefined;
  private readonly pending = new Map<string, PendingRequest>();
  private readonly progress = new Map<string, PendingRequest>();
  private readonly streams: SessionStreams;
  /** The client's `initialize` request, replayed when the upstream must be re-created. */
  private initializeRequest: JsonRpcRequest | undefined;
  private restarts: number[] = [];
  private replayCounter = 0;
  /** Hub-originated requests (initialize, replayed initialize, replay) waiting for the server's answer. */
  private readonly waiters = new HubWaiters();

  constructor(
    readonly id: string,
    readonly serverId: string,
    private readonly host: SessionHost,
  ) {
    this.streams = new SessionStreams(host.streamLimits);
    this.tap = host.openTap?.(this);
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
  async initialize(request: JsonRpcRequest, raw: string | undefined, req?: IncomingMessage): Promise<{ message: JsonRpcMessage; ok: boolean }> {
    this.initializeRequest = request;
    this.tap?.fromClient(request, raw, req, 200);
    try {
      const upstream = await this.ensureUpstream(false);
      const { message, local } = await this.ask(upstream, request, raw);
      const result = (message as { result?: { protocolVersion?: unknown } }).result;
      if (result && typeof result.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
      this.tap?.toClient(message, undefined, local ? 'upstream-closed' : undefined);
      return { message, ok: result !== undefined };
    } catch (err) {
      const message = errorResponse(request.id, ErrorCode.InternalError, (err as Error).message, { server: this.serverId });
      this.tap?.toClient(message, undefined, 'upstream-closed');
      return { message, ok: false };
    }
  }

  /**
   * A request the hub makes itself (the inspector's replay, in a session of its own): sent
   * upstream and answered to the caller, not to a stream. Rejects after `timeoutMs`.
   */
  async request(request: JsonRpcRequest, timeoutMs: number): Promise<JsonRpcMessage> {
    const upstream = await this.ensureUpstream(true);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`server '${this.serverId}' did not answer '${request.method}' within ${formatDuration(timeoutMs)}`)), timeoutMs);
    });
    try {
      const { message, local } = await Promise.race([this.ask(upstream, request, undefined, 'replay'), timeout]);
      // The server never answered (as when a stdio upstream dies): a failure, not its error.
      if (local) throw new Error('error' in message && message.error ? message.error.message : `server '${this.serverId}' did not answer '${request.method}'`);
      return message;
    } finally {
      clearTimeout(timer);
      this.waiters.forget(request.id);
    }
  }

  /** For sessions the hub initializes itself (stateless servers): what to replay upstream. */
  setInitializeRequest(request: JsonRpcRequest): void {
    this.initializeRequest = request;
  }

  /** Sends a hub-originated request and waits for its answer (or the upstream's death). */
  private ask(upstream: UpstreamConnection, request: JsonRpcRequest, raw?: string, note?: CaptureNote): Promise<HubAnswer> {
    const answer = this.waiters.wait(request.id);
    this.tap?.toServer(request, raw, note);
    upstream.send(request, raw);
    return answer;
  }

  /** Opens a stream for a POST that carries requests, and forwards the POST's messages. */
  openRequestStream(res: ServerResponse, extraHeaders: Record<string, string>): SseStream {
    return this.streams.open(res, { ...extraHeaders, ...this.responseHeaders() }, this.usesPrimingEvents);
  }

  /** Forwards messages of one POST. Requests are answered on `stream`. */
  async forward(messages: JsonRpcMessage[], raws: Array<string | undefined>, stream: SseStream | undefined, req?: IncomingMessage): Promise<void> {
    this.lastActivity = Date.now();
    const now = Date.now();
    if (this.tap) for (let i = 0; i < messages.length; i++) this.tap.fromClient(messages[i]!, raws[i], req, stream ? 200 : 202);
    for (const m of messages) {
      if (isRequest(m) && stream) {
        const entry: PendingRequest = {
          id: m.id,
          method: m.method,
          stream,
          progressKey: undefined,
          deadline: now + this.host.requestTimeoutMs,
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
      this.tap?.toServer(messages[i]!, raws[i]);
      upstream.send(messages[i]!, raws[i]);
    }
  }

  /** Attaches the standalone GET stream (P10), replacing an older connection of it. */
  attachGetStream(res: ServerResponse, extraHeaders: Record<string, string>): void {
    this.lastActivity = Date.now();
    // Messages that arrived while no GET stream was open were kept for it, and go out now.
    this.streams.attachGet(res, { ...extraHeaders, ...this.responseHeaders() }, this.usesPrimingEvents);
  }

  /** Resumes a stream after `Last-Event-ID` (P11). False when the id is unknown or evicted. */
  resume(key: string, n: number, res: ServerResponse, extraHeaders: Record<string, string>): boolean {
    if (!this.streams.resume(key, n, res, { ...extraHeaders, ...this.responseHeaders() })) return false;
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
      if (p.deadline > now) continue;
      const limit = formatDuration(this.host.requestTimeoutMs);
      const cancel: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: p.id, reason: `timed out after ${limit} in patchbay` } };
      if (this.upstream) this.tap?.toServer(cancel, undefined, 'timeout');
      this.upstream?.send(cancel);
      this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, `Request timed out: server '${this.serverId}' did not answer '${p.method}' within ${limit}`), undefined, 'timeout');
    }
  }

  async close(reason: SessionState = 'closed', failure?: string): Promise<void> {
    if (this.state !== 'live') return;
    this.state = reason;
    this.failure = failure;
    this.failAll(failure ?? `session closed`, {}, 'session-closed');
    this.tap?.ended(reason === 'failed' ? 'failed' : 'closed', failure);
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
      const upstream = await this.host.connect(this);
      upstream.onmessage = (m, raw) => this.fromUpstream(m, raw);
      upstream.onlocalreply = (m, raw) => this.localReply(m, raw);
      upstream.onclose = (info) => this.upstreamClosed(upstream, info);
      const tap = this.tap;
      if (tap) {
        tap.upstreamOpened();
        upstream.onstderr = (line) => tap.stderr(line);
        upstream.onhttp = (info) => tap.upstreamHttp(info);
        upstream.onreinitialize = (step) => this.reinitialized(tap, step);
        upstream.ontransport = (transport) => tap.upstreamTransport(transport);
      }
      if (replay && this.initializeRequest) await this.replayInitialize(upstream);
      this.upstream = upstream;
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
    const { message: answer } = await this.ask(upstream, { ...this.initializeRequest!, id }, undefined, 'replay-initialize');
    if ('error' in answer && answer.error) throw new Error(`server '${this.serverId}' refused the replayed initialize: ${answer.error.message}`);
    const initialized: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
    this.tap?.toServer(initialized, undefined, 'replay-initialize');
    upstream.send(initialized);
  }

  /**
   * A remote upstream re-initialized a lost upstream session on its own link (it must, see
   * RemoteUpstream.replayInitialize): captured as this session's replay above is, the server's
   * answer kept from the client, and the new upstream session counted as a restart.
   */
  private reinitialized(tap: SessionTap, step: UpstreamReinitialize): void {
    if (step.step === 'sent') tap.toServer(step.message, undefined, 'replay-initialize');
    else if (step.step === 'answered') tap.fromServer(step.message, step.raw);
    else tap.upstreamOpened();
  }

  private fromUpstream(message: JsonRpcMessage, raw: string): void {
    this.lastActivity = Date.now();
    this.tap?.fromServer(message, raw);
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
   */
  private routeServerMessage(message: JsonRpcMessage, raw: string): void {
    const json = raw.includes('\n') ? JSON.stringify(message) : raw;
    this.tap?.toClient(message, json);
    if ('method' in message && message.method === 'notifications/progress') {
      const token = (message.params as { progressToken?: JsonRpcId } | undefined)?.progressToken;
      const p = token === undefined ? undefined : this.progress.get(idKey(token));
      if (p) {
        // Progress extends the request's timeout (ARCHITECTURE: reliability rules).
        p.deadline = Date.now() + this.host.requestTimeoutMs;
        p.stream.push(json);
        return;
      }
    }
    for (const p of this.pending.values()) {
      if (p.stream.attached) {
        p.stream.push(json);
        return;
      }
    }
    this.streams.get.push(json);
  }

  /** `note`: the hub answers itself (a timeout, a failure) instead of the server. */
  private answer(key: string, p: PendingRequest, message: JsonRpcMessage, raw?: string, note?: CaptureNote): void {
    this.pending.delete(key);
    if (p.progressKey) this.progress.delete(p.progressKey);
    const json = raw !== undefined && !raw.includes('\n') ? raw : JSON.stringify(message);
    this.tap?.toClient(message, json, note);
    p.stream.push(json);
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
    this.tap?.upstreamClosed(info);
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

  private failAll(message: string, data: Record<string, unknown>, note: CaptureNote): void {
    for (const [key, p] of [...this.pending]) {
      this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, message, Object.keys(data).length ? data : undefined), undefined, note);
    }
  }
}
