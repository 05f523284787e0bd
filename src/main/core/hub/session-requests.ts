/**
 * The client's requests a session has in flight, by JSON-RPC id and by progress token: the stream
 * each is answered on (P10), its deadline, and its stream's count of open requests. Whatever ends
 * a request goes through here — the server's answer, the client's cancellation, the hub's own
 * error (a deadline, a client that stopped reading, an upstream that died) — and so does every
 * message the server starts, because where it goes depends on the requests still open.
 *
 * Separate from session.ts so that the session reads as what it is to the hub (its door, its
 * streams, its upstream) and this as the one table the per-message path works on. The session
 * hands it messages; it calls nothing of the session's, and reaches the upstream only to tell the
 * server a request was given up.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import {
  errorResponse,
  idKey,
  isNotification,
  isRequest,
  progressTokenOf,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '../protocol/json-rpc.js';
import { piecesFor } from '../protocol/wire-bytes.js';
import { CallDeadline, stalledReader, timedOut } from './call-clock.js';
import type { HubNote, SessionWatch } from './observer.js';
import type { SessionStreams } from './session-streams.js';
import type { SessionUpstream } from './session-upstream.js';
import type { SseStream } from './sse-stream.js';

interface PendingRequest {
  id: JsonRpcId;
  method: string;
  stream: SseStream;
  progressKey: string | undefined;
  deadline: CallDeadline;
}

/** The client's requests in flight in one session, and where the server's messages go. */
export class SessionRequests {
  private readonly pending = new Map<string, PendingRequest>();
  private readonly progress = new Map<string, PendingRequest>();

  /**
   * @param limits read when a request comes in: how long the server may take (SessionHost)
   * @param watch the session's observers' calls (observer.ts): O(1) each, on the proxy path
   * @param upstream where a given-up request's cancellation goes
   */
  constructor(
    private readonly serverId: string,
    private readonly limits: { readonly requestTimeoutMs: number },
    private readonly streams: SessionStreams,
    private readonly watch: SessionWatch | undefined,
    private readonly upstream: Pick<SessionUpstream, 'tell'>,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  has(id: JsonRpcId): boolean {
    return this.pending.has(idKey(id));
  }

  /**
   * The messages of one POST, before they go upstream: its requests wait for their answers on
   * `stream` (none without one), and a client's `notifications/cancelled` ends the request it names.
   */
  admit(messages: JsonRpcMessage[], stream: SseStream | undefined, now: number): void {
    for (const m of messages) {
      if (isRequest(m) && stream) {
        const entry: PendingRequest = {
          id: m.id,
          method: m.method,
          stream,
          progressKey: undefined,
          deadline: new CallDeadline(this.limits.requestTimeoutMs, now),
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
  }

  /**
   * A response for a client's request: the server's, or (`note`) one the upstream connection wrote
   * itself because the server will not answer.
   */
  answered(message: JsonRpcResponse, raw: string, note?: HubNote): void {
    const key = idKey(message.id ?? '');
    const p = this.pending.get(key);
    // Unknown ids: a response to a request that was cancelled or timed out. Dropped on purpose.
    if (p) this.answer(key, p, message, raw, note);
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
  route(message: JsonRpcMessage, raw: string): void {
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

  /** Fails requests past their deadline and tells the server they were cancelled. */
  expire(now: number): void {
    for (const [key, p] of this.pending) {
      if (!p.deadline.passed(now)) continue;
      const { reason, message } = timedOut(this.serverId, p.method, p.deadline.limitMs);
      this.giveUp(key, p, reason, message, 'timeout');
    }
  }

  /**
   * A stream whose client is stalled (sse-stream.ts: it took nothing for a while with more than
   * the cap waiting, or let twice the cap pile up; only where the upstream cannot be held back for
   * one session: a shared child, a remote, a profile). Its open requests are answered with an
   * error, written after everything the client has yet to read, and cancelled upstream; the
   * stream ends (a GET stream stays resumable). The session's other streams, and the other
   * sessions of a shared child, go on.
   */
  overflowed(stream: SseStream): void {
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

  /** Answers every open request with the hub's error (the upstream is gone, or the session ended). */
  failAll(message: string, data: Record<string, unknown>, note: HubNote): void {
    for (const [key, p] of [...this.pending]) {
      this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, message, Object.keys(data).length ? data : undefined), undefined, note);
    }
  }

  /** Answers a request with the hub's error, and tells the server it was cancelled. */
  private giveUp(key: string, p: PendingRequest, reason: string, error: string, note: HubNote): void {
    const cancel: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: p.id, reason } };
    this.upstream.tell(cancel, note);
    this.answer(key, p, errorResponse(p.id, ErrorCode.InternalError, error), undefined, note);
  }

  /** `note`: the hub answers itself (a timeout, a failure) instead of the server. */
  private answer(key: string, p: PendingRequest, message: JsonRpcMessage, raw?: string, note?: HubNote): void {
    this.pending.delete(key);
    if (p.progressKey) this.progress.delete(p.progressKey);
    // A line being handed on is newline-free by framing (wire-bytes.ts): not scanned again.
    const json = raw !== undefined && (piecesFor(raw) !== undefined || !raw.includes('\n')) ? raw : JSON.stringify(message);
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
}
