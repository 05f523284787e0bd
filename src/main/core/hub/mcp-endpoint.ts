/**
 * The `/mcp` door (`POST|GET|DELETE /mcp/<server>`, `/mcp`, `/mcp/@<profile>`): the Streamable
 * HTTP server side of the hub (PROTOCOL A–D). What every door checks comes from intake.ts; the
 * era a POST speaks decides the rest: a 2026-07-28 request goes to modern-endpoint.ts, anything
 * else takes the session path here. Messages are checked by their envelope and forwarded
 * untouched; everything the spec asks of a server's HTTP layer (sessions, versions, Accept,
 * batches, resumption) is answered here. A request's answer goes as one JSON body when it is the
 * first message for it, on an SSE stream otherwise (http-sink.ts `replySink`, P6).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_PROTOCOL_VERSION, ErrorCode, isModernVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { accepts, sendError, sendJson } from '../protocol/http-util.js';
import { errorResponse, isRequest, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { replySink, sseSink } from './http-sink.js';
import { header, type Intake } from './intake.js';
import { classifyPost } from './modern-classify.js';
import { handleModernPost, type ModernContext } from './modern-endpoint.js';
import { principalClientOf, principalOf, viaOf } from './principal.js';
import type { ServerPort } from './server-port.js';
import type { Session } from './session.js';
import { parseEventId } from './sse-stream.js';

export interface EndpointContext {
  /** The checks every door shares: server lookup, body, batch rules, ids, room for a session. */
  intake: Intake;
  /** A new session, outside the table (its deadlines are ticked) until `register`ed; `principal`: see principal.ts. */
  newSession(id: string, runtime: ServerPort, principal?: string, client?: string, via?: 'relay'): Session;
  /** Puts an initialized session into the table, where clients can reach it by id. */
  register(session: Session): void;
  version: string;
  /** What modern-era (2026-07-28) requests need (modern-endpoint.ts). */
  modern: ModernContext;
  /** How long a POST's reply waits for its answer to send it as JSON before its stream opens (http-reply.ts). */
  replyHoldMs: number;
}

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
const SUPPORTED_LIST = SUPPORTED_PROTOCOL_VERSIONS.join(', ');

/** The `/mcp` door, mounted as every door is (an HttpRoute): `/mcp` the default profile, `/mcp/@name` a named one, `/mcp/<server>` a server. */
export function mcpDoor(ctx: EndpointContext): HttpRoute {
  return {
    prefix: '/mcp',
    auth: 'mcp',
    handle: async (req, res, path, cors) => {
      const runtime = ctx.intake.serverAt(path.slice('/mcp'.length), res, cors, '/mcp');
      if (!runtime) return;
      switch (req.method) {
        case 'POST':
          return handlePost(req, res, runtime, ctx, cors);
        case 'GET':
          return handleGet(req, res, runtime, ctx, cors);
        case 'DELETE':
          return handleDelete(req, res, runtime, ctx, cors);
        default:
          sendError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: ${req.method}`, { ...cors, Allow: 'GET, POST, DELETE' });
      }
    },
  };
}

/** Finds the session a request names, answering 400 or 404 itself when there is none (P15). */
function lookupSession(req: IncomingMessage, res: ServerResponse, ctx: EndpointContext, runtime: ServerPort, cors: Record<string, string>): Session | undefined {
  const id = header(req, 'mcp-session-id');
  if (!id) {
    sendError(res, 400, ErrorCode.ServerError, 'Bad Request: Mcp-Session-Id header is required', cors);
    return undefined;
  }
  const session = ctx.intake.sessions.get(id);
  if (!session || session.door !== 'streamable-http' || session.serverId !== runtime.id || session.state !== 'live') {
    sendError(res, 404, ErrorCode.SessionNotFound, 'Session not found', cors);
    return undefined;
  }
  return session;
}

/** Checked after the session (P20): unsupported or malformed → 400; missing → 2025-03-26. */
function checkVersion(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): boolean {
  const v = header(req, 'mcp-protocol-version') ?? DEFAULT_PROTOCOL_VERSION;
  if (SUPPORTED.has(v)) return true;
  sendError(res, 400, ErrorCode.InvalidRequest, `Bad Request: Unsupported protocol version: ${v}. Supported versions: ${SUPPORTED_LIST}`, cors);
  return false;
}

async function handlePost(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): Promise<void> {
  const accept = header(req, 'accept');
  if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
    sendError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must include both application/json and text/event-stream', cors);
    return;
  }
  const posted = await ctx.intake.body(req, res, cors);
  if (!posted) return;
  const { messages: typed, batch } = posted;
  // Which era: the body's _meta envelope first, the headers as a cross-check (modern-classify.ts).
  const route = classifyPost({ protocolVersion: header(req, 'mcp-protocol-version'), method: header(req, 'mcp-method'), name: header(req, 'mcp-name') }, typed, batch);
  if (route.kind === 'reject') {
    sendJson(res, route.status, errorResponse(route.id, route.code, route.message, route.data), cors);
    return;
  }
  if (route.kind === 'modern') {
    await handleModernPost(req, res, runtime, ctx.modern, route.message, posted.text, cors);
    return;
  }
  const init = ctx.intake.initializeOf(posted, res, cors);
  if (init === undefined) return;
  if (init) {
    await initialize(req, res, runtime, ctx, init, posted.text, cors);
    return;
  }
  // Each message's own text goes upstream only when the body is that one message.
  const raws = batch ? typed.map(() => undefined) : [posted.text];
  if (runtime.stateless) {
    if (!checkVersion(req, res, cors)) return;
    await statelessPost(req, res, runtime, ctx, typed, raws, batch, cors);
    return;
  }
  const session = lookupSession(req, res, ctx, runtime, cors);
  if (!session || !checkVersion(req, res, cors)) return;
  // Batches exist only in 2025-03-26 (added then, removed in 2025-06-18) (P4).
  if (batch && session.protocolVersion !== '2025-03-26') {
    sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: batches are not supported in protocol version ${session.protocolVersion}`, cors);
    return;
  }
  if (!ctx.intake.freshIds(typed, session, res, cors)) return;
  if (!typed.some(isRequest)) {
    void session.forward(typed, raws, undefined, req);
    res.writeHead(202, { ...cors, ...session.responseHeaders() });
    res.end();
    return;
  }
  await forwardRequests(session, typed, raws, batch, req, res, ctx, cors);
}

/**
 * Forwards a POST that carries requests and answers it: one request gets a reply held until its
 * first message — its answer alone goes as one JSON body, anything before it opens the SSE stream
 * (http-sink.ts), as does the hold time passing once the request is on its way to the server; a
 * batch's answers go on an SSE stream from the start, one event each (P4, P6).
 */
async function forwardRequests(session: Session, messages: JsonRpcMessage[], raws: Array<string | undefined>, batch: boolean, req: IncomingMessage, res: ServerResponse, ctx: EndpointContext, cors: Record<string, string>): Promise<void> {
  if (batch) {
    await session.forward(messages, raws, session.openRequestStream(sseSink(res), cors), req);
    return;
  }
  const sink = replySink(res);
  await session.forward(messages, raws, session.openRequestStream(sink, cors), req);
  sink.holdFor(ctx.replyHoldMs);
}

async function initialize(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, request: JsonRpcRequest, raw: string, cors: Record<string, string>): Promise<void> {
  const existing = header(req, 'mcp-session-id');
  if (existing && ctx.intake.sessions.get(existing)?.state === 'live') {
    sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized', cors);
    return;
  }
  if (!ctx.intake.roomForSession(res, cors)) return;
  const stateless = runtime.stateless;
  const session = ctx.newSession(stateless ? '' : ctx.intake.mintSessionId(), runtime, principalOf(req), principalClientOf(req), viaOf(req));
  // A client that gives up while the server starts takes the session (and its child) with it.
  const abandoned = (): void => void session.close();
  res.once('close', abandoned);
  const answer = await session.initialize(request, raw, req);
  res.off('close', abandoned);
  if (session.state !== 'live') return; // the client went away meanwhile: nobody to answer
  if (ctx.intake.isClosed) {
    await session.close();
    sendError(res, 503, ErrorCode.ServerError, 'Service Unavailable: the hub is shutting down', cors);
    return;
  }
  if (!answer.ok || stateless) void session.close();
  else ctx.register(session);
  sendJson(res, 200, answer.message, { ...cors, ...(answer.ok ? session.responseHeaders() : {}) });
}

/** Stateless servers (P19): a fresh child per request, initialized by the hub, stopped after. */
async function statelessPost(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, messages: JsonRpcMessage[], raws: Array<string | undefined>, batch: boolean, cors: Record<string, string>): Promise<void> {
  const session = ctx.newSession('', runtime, principalOf(req), principalClientOf(req), viaOf(req));
  session.setInitializeRequest({
    jsonrpc: '2.0',
    id: 'patchbay-stateless-init',
    method: 'initialize',
    params: { protocolVersion: header(req, 'mcp-protocol-version') ?? DEFAULT_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'patchbay-stateless', version: ctx.version } },
  });
  res.once('close', () => void session.close());
  if (!messages.some(isRequest)) {
    await session.forward(messages, raws, undefined, req);
    res.writeHead(202, cors);
    res.end();
    return;
  }
  await forwardRequests(session, messages, raws, batch, req, res, ctx, cors);
}

/** A GET or DELETE that names a modern revision: those are session operations the era does not have (Q3). */
function modernNonPost(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): boolean {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined || !isModernVersion(version.trim())) return false;
  sendError(res, 405, ErrorCode.ServerError, `Method Not Allowed: protocol revision ${version.trim()} has no ${req.method} on the MCP endpoint (POST only)`, { ...cors, Allow: 'POST' });
  return true;
}

function handleGet(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): void {
  if (modernNonPost(req, res, cors)) return;
  if (runtime.stateless) {
    sendError(res, 405, ErrorCode.InvalidRequest, 'Method Not Allowed: this server is stateless', { ...cors, Allow: 'POST' });
    return;
  }
  if (!accepts(header(req, 'accept'), 'text/event-stream')) {
    sendError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must include text/event-stream', cors);
    return;
  }
  const session = lookupSession(req, res, ctx, runtime, cors);
  if (!session || !checkVersion(req, res, cors)) return;
  const lastEventId = header(req, 'last-event-id');
  if (lastEventId !== undefined) {
    const parsed = parseEventId(lastEventId);
    if (!parsed || !session.resume(parsed.key, parsed.n, sseSink(res), cors)) {
      sendError(res, 404, ErrorCode.InvalidRequest, `Last-Event-ID '${lastEventId}' is unknown or no longer stored for this session`, { ...cors, ...session.responseHeaders() });
    }
    return;
  }
  session.attachGetStream(sseSink(res), cors);
}

async function handleDelete(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): Promise<void> {
  if (modernNonPost(req, res, cors)) return;
  if (runtime.stateless) {
    sendError(res, 405, ErrorCode.InvalidRequest, 'Method Not Allowed: this server is stateless', { ...cors, Allow: 'POST' });
    return;
  }
  const session = lookupSession(req, res, ctx, runtime, cors);
  if (!session || !checkVersion(req, res, cors)) return;
  const headers = session.responseHeaders();
  await session.close();
  res.writeHead(200, { ...cors, ...headers });
  res.end();
}
