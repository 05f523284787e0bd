/**
 * One 2026-07-28 request through the hub, from the client's POST to its answer: the call runner of
 * the modern era. It holds the call to what a 2025 session holds each request to (session.ts),
 * with the same parts: the server's request deadline, moved on by progress and checked by the
 * hub's tick (call-clock.ts); the client's pace judged by the one SSE writer (modern-reply.ts over
 * protocol/write-pace.ts), a stalled client's call given up with an error and cancelled upstream;
 * and the same observer calls — the client's request and answer, the server's side (or the
 * bridge's, `bridged`), the upstream's events (stderr, HTTP), and the upstream's health for the
 * server's status: it could not be reached (`upstreamFailed`), it answered (`upstreamAnswered`),
 * it failed a call it had taken (`upstreamClosed`).
 *
 * Modern traffic has no sessions: a call's observer is the watch of its client's group
 * (modern-clients.ts). Closing the response stream is the client's cancellation (2026-07-28).
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode, META } from '../../../shared/protocol.js';
import { errorResponse, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../upstream/modern-upstream.js';
import { CallDeadline, stalledReader, timedOut } from './call-clock.js';
import type { ModernWatch } from './modern-clients.js';
import type { ModernReply } from './modern-reply.js';
import { hubNoteOf } from './observer.js';
import type { ParamHeaderIndex } from './param-headers.js';
import type { ServerPort } from './server-port.js';
import { statusForError } from './modern-reply.js';
import { incomingTrace, traceHeaders, withTrace, type RequestTracer } from './tracing.js';

export interface ModernCallContext {
  /** Telemetry's tracer, when telemetry is on (hub/tracing.ts). */
  tracer?: RequestTracer;
  paramHeaders: ParamHeaderIndex;
  requestTimeoutMs: number;
  /** Calls in flight, for the hub's tick (deadlines, a stalled client, keep-alives) and shutdown. */
  calls: Set<ModernCallRun>;
  /** The server's ModernUpstream: its own (a modern server), or the hub's bridge (a legacy one). */
  upstreamFor(server: ServerPort): Promise<ModernUpstream>;
}

export class ModernCallRun {
  private over = false;
  /** No deadline for a `subscriptions/listen` stream: it lasts as long as its client wants. */
  private readonly deadline: CallDeadline | undefined;
  private readonly listen: boolean;
  /** The upstream's handle on the call; a cancellation asked for before it returned waits for it. */
  private handle: ModernCall | undefined;
  private cancelled: string | undefined;

  constructor(
    private readonly ctx: ModernCallContext,
    private readonly server: ServerPort,
    private readonly request: JsonRpcRequest,
    private readonly raw: string,
    /** The modern headers as the client sent them (checked): an HTTP upstream forwards them. */
    private readonly headers: Readonly<Record<string, string>>,
    private readonly reply: ModernReply,
    private readonly client: ModernWatch,
    /** The client id of the request's client token, if it came with one (hub/principal.ts). */
    private readonly tokenClient?: string,
  ) {
    this.listen = request.method === 'subscriptions/listen';
    this.deadline = this.listen ? undefined : new CallDeadline(server.requestTimeoutMs ?? ctx.requestTimeoutMs);
  }

  /** Hands the request to the server's upstream; `http`: the POST it came in, for observers. */
  async start(http: IncomingMessage): Promise<void> {
    const { request, client, reply } = this;
    const watch = client.watch;
    watch?.fromClient?.(request, this.raw, http, 200);
    // The raw bytes of this call's reply, when an observer records them (asked once per call).
    const wire = watch?.wireTap?.(String(request.id));
    if (wire !== undefined) reply.wire = wire;
    let upstream: ModernUpstream;
    try {
      upstream = await this.ctx.upstreamFor(this.server);
    } catch (err) {
      const message = (err as Error).message;
      client.unreachable(message);
      const answer = errorResponse(request.id, ErrorCode.InternalError, message, { server: this.server.id });
      const json = JSON.stringify(answer);
      watch?.toClient?.(answer, json, 'upstream-closed');
      reply.final(json, 200);
      watch?.delivered?.(json);
      return;
    }
    if (reply.gone) return;
    client.begin();
    this.ctx.calls.add(this);
    // A legacy server behind the hub's bridge gets a translated request: the bridge reports what
    // it sent and got (`wire`), so observers see both sides; a modern server gets the client's.
    const bridged = upstream.translates === true;
    const out = this.traced(request, http, bridged);
    if (!bridged) watch?.toServer?.(out.message, out.raw, undefined);
    const observed: Pick<ModernCallHandlers, 'wire' | 'event'> = {};
    if (bridged && watch?.bridged) observed.wire = (toServer, m, json) => watch.bridged!(request.id, toServer, m, json, undefined);
    if (watch?.upstreamEvent) observed.event = (e) => client.event(e);
    this.handle = upstream.call(
      out,
      {
        ...observed,
        notification: (m, json) => {
          if (this.over) return;
          client.answered();
          watch?.fromServer?.(m, json);
          // The client is stalled: the call is given up (the notification goes no further).
          if (reply.overflowing) return this.giveUp();
          watch?.toClient?.(m, json, undefined);
          // Progress shows work is being done: the deadline moves (as in a 2025 session).
          if (m.method === 'notifications/progress') this.deadline?.progressed();
          reply.notification(json);
          watch?.delivered?.(json);
        },
        response: (m, json, info) => {
          if (this.over) return;
          this.finish();
          if (info.local) {
            if (info.answered === undefined) client.failed((m as JsonRpcResponse).error?.message ?? `server '${this.server.id}' did not answer`);
            watch?.toClient?.(m, json, info.answered !== undefined ? hubNoteOf(info.answered) : 'upstream-closed');
          } else {
            client.answered();
            if (!bridged) watch?.fromServer?.(m, json);
            watch?.toClient?.(m, json, undefined);
          }
          if (request.method === 'tools/list' && 'result' in m) this.ctx.paramHeaders.learn(this.server.id, (m as JsonRpcResponse).result);
          reply.final(json, info.status ?? statusForError((m as JsonRpcResponse).error?.code));
          watch?.delivered?.(json);
        },
        ended: () => {
          if (this.over) return;
          this.finish();
          reply.end();
        },
      },
    );
    if (this.cancelled !== undefined) this.handle.cancel(this.cancelled);
    if (this.listen) {
      reply.open();
      const graceful = { jsonrpc: '2.0', id: request.id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: request.id } } };
      reply.graceful = JSON.stringify(graceful);
    }
    // Closing the stream is the modern client's cancellation (2026-07-28 cancellation).
    reply.onGone(() => {
      if (this.over) return;
      this.finish();
      this.cancel('the client closed the response stream');
    });
  }

  /**
   * The request as it goes upstream: under telemetry with a trace context (`_meta.traceparent`,
   * and the W3C headers for an HTTP upstream), the ids told to observers first. Where the next
   * hop is one of the hub's own stages (the era bridge's session, a profile's aggregate), that
   * stage makes the CLIENT spans.
   */
  private traced(request: JsonRpcRequest, http: IncomingMessage, bridged: boolean): ModernCallRequest {
    const tracer = this.ctx.tracer;
    const plain: ModernCallRequest = { message: request, raw: this.raw, headers: this.headers, who: this.client.who, ...(this.tokenClient !== undefined ? { client: this.tokenClient } : {}) };
    if (tracer === undefined) return plain;
    const trace = tracer.begin(incomingTrace(request, http.headers), { clientSpan: !bridged && this.server.transportLabel !== 'profile' });
    if (trace === undefined) return plain;
    this.client.watch?.traced?.(request.id, trace);
    return { message: withTrace(request, trace), raw: undefined, headers: { ...this.headers, ...traceHeaders(trace) } };
  }

  /** The hub's tick: the deadline, a client that stopped reading, keep-alives. */
  tick(now: number, keepAliveMs: number): void {
    if (this.over) return;
    if (this.deadline?.passed(now)) return this.timeout();
    if (this.reply.overflowing) return this.giveUp();
    this.reply.keepAlive(now, keepAliveMs);
  }

  /** The hub shuts down: a listen stream gets its graceful answer, anything else just ends. */
  shutdown(): void {
    if (this.over) return;
    this.finish();
    this.cancel('the hub is shutting down');
    this.reply.shutdown();
  }

  private timeout(): void {
    const { reason, message } = timedOut(this.server.id, this.request.method, this.deadline!.limitMs);
    this.answerWithError(reason, message, 'timeout');
  }

  /**
   * The client is stalled and the reply is over its cap: the server is not held up for it (nor can
   * it be, for one client); the call is answered with an error, after what the client has yet to
   * read, and cancelled upstream — as a 2025 session gives up a stalled stream (session.ts).
   */
  private giveUp(): void {
    // 'session-closed': the hub ended the exchange on the client's side (observer.ts).
    this.answerWithError('the client stopped reading', stalledReader(this.server.id, this.reply.backlog), 'session-closed');
  }

  private answerWithError(reason: string, text: string, note: 'timeout' | 'session-closed'): void {
    this.finish();
    this.cancel(reason);
    const answer = errorResponse(this.request.id, ErrorCode.InternalError, text);
    const json = JSON.stringify(answer);
    this.client.watch?.toClient?.(answer, json, note);
    this.reply.final(json, 200);
    this.client.watch?.delivered?.(json);
  }

  private cancel(reason: string): void {
    if (this.handle) this.handle.cancel(reason);
    else this.cancelled ??= reason;
  }

  private finish(): void {
    if (this.over) return;
    this.over = true;
    this.ctx.calls.delete(this);
    this.client.end();
  }
}
