/**
 * A modern-era (2026-07-28) POST to `/mcp/<server>`, once modern-classify.ts has routed it here:
 * no session, the request handed to the server's ModernUpstream (passed straight through to a
 * modern server, or through the bridge to a legacy one), its notifications and answer written back
 * as JSON or SSE (modern-reply.ts). Closing the response stream cancels the request upstream; every
 * request but a `subscriptions/listen` stream has a deadline that progress extends (PROTOCOL Q1–Q6).
 *
 * A client that stops reading its reply cannot hold the server back (a modern stdio child and the
 * bridge's legacy session serve every modern client at once): once the reply's backlog passes the
 * hub's cap (`maxBacklogBytes`, as for a shared child's stream), the call is given up — an error
 * answer after everything the client has yet to read, the response ended, the call cancelled
 * upstream (issue 17).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, META } from '../../../shared/protocol.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import type { PaceLimits } from '../protocol/sse-writer.js';
import type { ModernCall, ModernCallHandlers, ModernUpstream } from '../upstream/modern-upstream.js';
import type { ModernClients } from './modern-clients.js';
import { ModernReply, statusForError } from './modern-reply.js';
import type { ParamHeaderIndex } from './param-headers.js';
import { principalOf } from './principal.js';
import type { ServerPort } from './server-port.js';

export interface ModernContext {
  clients: ModernClients;
  paramHeaders: ParamHeaderIndex;
  requestTimeoutMs: number;
  /** The pace a reply's client is held to (protocol/sse-writer.ts): the hub's stream limits, as for a shared child's stream. */
  pace: PaceLimits;
  /** Streams open now, for keep-alives (the hub's tick). */
  replies: Set<ModernReply>;
  /** The server's ModernUpstream: its own (a modern server), or the hub's bridge (a legacy one). */
  upstreamFor(server: ServerPort): Promise<ModernUpstream>;
  logger: { warn(message: string): void };
}

/** The request headers a modern upstream gets, as the client sent them (already checked). */
function modernHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (/^mcp-(protocol-version|method|name|param-.+)$/i.test(name)) out[name] = raw[i + 1]!;
  }
  return out;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

export async function handleModernPost(
  req: IncomingMessage,
  res: ServerResponse,
  server: ServerPort,
  ctx: ModernContext,
  message: JsonRpcRequest | JsonRpcNotification,
  raw: string,
  cors: Record<string, string>,
): Promise<void> {
  if (!('id' in message)) {
    // The era defines no client notifications over HTTP (cancelling is closing the stream): accept, drop.
    res.writeHead(202, cors);
    res.end();
    return;
  }
  const request = message;
  const reply = new ModernReply(res, cors, ctx.pace);
  const answerLocally = (code: number, text: string, data?: unknown): void => reply.final(JSON.stringify(errorResponse(request.id, code, text, data)), statusForError(code));

  if (request.method === 'tools/call') {
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    const wrong = typeof params.name === 'string' ? ctx.paramHeaders.check(server.id, params.name, params.arguments, (h) => headerValue(req, h)) : undefined;
    if (wrong) return answerLocally(ErrorCode.HeaderMismatch, `Header mismatch: ${wrong}`);
  }

  const client = ctx.clients.watchFor(server, request.params, principalOf(req));
  const watch = client.watch;
  watch?.fromClient?.(request, raw, req, 200);
  let upstream: ModernUpstream;
  try {
    upstream = await ctx.upstreamFor(server);
  } catch (err) {
    const answer = errorResponse(request.id, ErrorCode.InternalError, (err as Error).message, { server: server.id });
    const json = JSON.stringify(answer);
    watch?.toClient?.(answer, json, 'upstream-closed');
    reply.final(json, 200);
    return;
  }
  if (res.destroyed) return;

  const listen = request.method === 'subscriptions/listen';
  const limit = server.requestTimeoutMs ?? ctx.requestTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  // The upstream's handle on the call; a cancellation asked for before it returned waits for it.
  const upstreamCall: { handle?: ModernCall; cancelled?: string } = {};
  const cancel = (reason: string): void => {
    if (upstreamCall.handle) upstreamCall.handle.cancel(reason);
    else upstreamCall.cancelled ??= reason;
  };
  const arm = (): void => {
    if (listen) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      cancel(`timed out after ${formatMs(limit)} in patchbay`);
      const answer = errorResponse(request.id, ErrorCode.InternalError, `Request timed out: server '${server.id}' did not answer '${request.method}' within ${formatMs(limit)}`);
      const json = JSON.stringify(answer);
      watch?.toClient?.(answer, json, 'timeout');
      finish();
      reply.final(json, 200);
    }, limit);
    timer.unref();
  };
  let over = false;
  const finish = (): void => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    ctx.replies.delete(reply);
    client.end();
  };
  // The client stopped reading and the reply is over its cap: the server is not held up for it
  // (nor can it be, for one client); the call is answered with an error, after what the client has
  // yet to read, and cancelled upstream. Wording and code as for a shared child's stream (session.ts).
  const overflowed = (): void => {
    const why = `patchbay: the client stopped reading this stream, and it was closed with ${Math.round(reply.backlog / 1048576)} MiB waiting in the hub, so that server '${server.id}' is not held up for other clients`;
    finish();
    cancel('the client stopped reading');
    const answer = errorResponse(request.id, ErrorCode.InternalError, why);
    const json = JSON.stringify(answer);
    // 'session-closed': the hub ended the exchange on the client's side (observer.ts).
    watch?.toClient?.(answer, json, 'session-closed');
    reply.final(json, 200);
  };

  client.begin();
  ctx.replies.add(reply);
  // A legacy server behind the hub's bridge gets a translated request: the bridge reports what it
  // sent and got (`wire`), so observers see both sides; a modern server gets the client's request.
  const bridged = upstream.translates === true;
  if (!bridged) watch?.toServer?.(request, raw, undefined);
  const wire: Pick<ModernCallHandlers, 'wire'> = bridged && watch?.bridged ? { wire: (toServer, m, json) => watch.bridged!(request.id, toServer, m, json, undefined) } : {};
  const call = upstream.call(
    { message: request, raw, headers: modernHeaders(req) },
    {
      ...wire,
      notification: (m, json) => {
        if (over) return;
        watch?.fromServer?.(m, json);
        if (reply.overflowing) return overflowed();
        watch?.toClient?.(m, json, undefined);
        // Progress shows work is being done: the deadline moves (as in the legacy era).
        if (m.method === 'notifications/progress') arm();
        reply.notification(json);
      },
      response: (m, json, info) => {
        if (over) return;
        finish();
        if (info.local) watch?.toClient?.(m, json, bridged ? 'bridge-answer' : 'upstream-closed');
        else {
          if (!bridged) watch?.fromServer?.(m, json);
          watch?.toClient?.(m, json, undefined);
        }
        if (request.method === 'tools/list' && 'result' in m) ctx.paramHeaders.learn(server.id, (m as JsonRpcResponse).result);
        const code = (m as JsonRpcResponse).error?.code;
        reply.final(json, info.status ?? statusForError(code));
      },
      ended: () => {
        if (over) return;
        finish();
        reply.end();
      },
    },
  );
  upstreamCall.handle = call;
  if (upstreamCall.cancelled !== undefined) call.cancel(upstreamCall.cancelled);
  arm();
  if (listen) {
    reply.open();
    const graceful = { jsonrpc: '2.0', id: request.id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: request.id } } };
    reply.graceful = JSON.stringify(graceful);
  }
  // Closing the stream is the modern client's cancellation (2026-07-28 cancellation).
  res.once('close', () => {
    if (over) return;
    finish();
    cancel('the client closed the response stream');
  });
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
