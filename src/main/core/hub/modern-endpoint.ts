/**
 * A modern-era (2026-07-28) POST to an `/mcp` door, once intake.ts has read it and
 * modern-classify.ts has routed it here (PROTOCOL Q1–Q6): no session. A notification is accepted
 * and dropped; a `tools/call` has its `Mcp-Param-*` headers checked against what the server
 * listed; then the request runs as a call (modern-call.ts: deadline, the client's pace, observers)
 * against the server's ModernUpstream — passed straight through to a server that speaks the era,
 * or through the hub's bridge to one that does not — and is answered as JSON or SSE
 * (modern-reply.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../../shared/protocol.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest } from '../protocol/json-rpc.js';
import type { PaceLimits } from '../protocol/sse-writer.js';
import { header } from './intake.js';
import { ModernCallRun, type ModernCallContext } from './modern-call.js';
import type { ModernClients } from './modern-clients.js';
import { ModernReply, statusForError } from './modern-reply.js';
import { principalClientOf, principalOf, viaOf } from './principal.js';
import type { ServerPort } from './server-port.js';

export interface ModernContext extends ModernCallContext {
  clients: ModernClients;
  /** The pace a reply's client is held to (protocol/write-pace.ts): the hub's stream limits, as for a shared child's stream. */
  pace: PaceLimits;
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
  if (request.method === 'tools/call') {
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    const wrong = typeof params.name === 'string' ? ctx.paramHeaders.check(server.id, params.name, params.arguments, (h) => header(req, h)) : undefined;
    if (wrong) {
      reply.final(JSON.stringify(errorResponse(request.id, ErrorCode.HeaderMismatch, `Header mismatch: ${wrong}`)), statusForError(ErrorCode.HeaderMismatch));
      return;
    }
  }
  const client = ctx.clients.watchFor(server, request.params, principalOf(req), viaOf(req));
  await new ModernCallRun(ctx, server, request, raw, modernHeaders(req), reply, client, principalClientOf(req)).start(req);
}
