/**
 * `POST|GET|DELETE /mcp/<server>`: the Streamable HTTP server side of the hub (PROTOCOL A–D).
 * Messages are checked by their envelope and forwarded untouched; everything the spec asks of a
 * server's HTTP layer (sessions, versions, Accept, batches, resumption) is answered here.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_PROTOCOL_VERSION, ErrorCode, isModernVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { readBody } from '../protocol/body.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';
import { accepts, sendError, sendJson } from '../protocol/http-util.js';
import { classify, errorResponse, idKey, isRequest, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { sseSink } from './http-sink.js';
import { classifyPost } from './modern-classify.js';
import { handleModernPost, type ModernContext } from './modern-endpoint.js';
import { principalOf } from './principal.js';
import type { ServerPort } from './server-port.js';
import type { Session } from './session.js';
import { parseEventId } from './sse-stream.js';

export interface EndpointContext {
  sessions: Map<string, Session>;
  maxBodyBytes: number;
  maxSessions: number;
  /** A new session, outside the table (its deadlines are ticked) until `register`ed; `principal`: see principal.ts. */
  newSession(id: string, runtime: ServerPort, principal?: string): Session;
  /** Puts an initialized session into the table, where clients can reach it by id. */
  register(session: Session): void;
  version: string;
  /** True once the hub is shutting down: no session may be added then. */
  isClosed(): boolean;
  /** What modern-era (2026-07-28) requests need (modern-endpoint.ts). */
  modern: ModernContext;
}

const SUPPORTED = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);
const SUPPORTED_LIST = SUPPORTED_PROTOCOL_VERSIONS.join(', ');

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** ≥ 128 bits of cryptographic randomness in visible ASCII (P14). */
function newSessionId(): string {
  return randomBytes(18).toString('base64url');
}

/** Finds the session a request names, answering 400 or 404 itself when there is none (P15). */
function lookupSession(req: IncomingMessage, res: ServerResponse, ctx: EndpointContext, runtime: ServerPort, cors: Record<string, string>): Session | undefined {
  const id = header(req, 'mcp-session-id');
  if (!id) {
    sendError(res, 400, ErrorCode.ServerError, 'Bad Request: Mcp-Session-Id header is required', cors);
    return undefined;
  }
  const session = ctx.sessions.get(id);
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

export async function handlePost(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): Promise<void> {
  const accept = header(req, 'accept');
  if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
    sendError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must include both application/json and text/event-stream', cors);
    return;
  }
  const contentType = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json') {
    sendError(res, 415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json', cors);
    return;
  }
  const body = await readBody(req, ctx.maxBodyBytes);
  if (!body.ok) {
    if (body.reason === 'aborted') return;
    sendError(res, 413, ErrorCode.InvalidRequest, `Payload Too Large: the body is over the ${ctx.maxBodyBytes}-byte limit`, { ...cors, Connection: 'close' });
    if (!body.drained) res.once('finish', () => req.socket.destroy());
    return;
  }
  // Before anything parses it: a body this deep would overflow whatever walks it later (P7's
  // "never a hang": without this, a deep message on a re-serialized path got no answer at all).
  if (exceedsDepth(body.text)) {
    sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: the body nests JSON deeper than ${MAX_JSON_DEPTH} levels`, cors);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch (err) {
    sendError(res, 400, ErrorCode.ParseError, `Parse error: ${(err as Error).message}`, cors);
    return;
  }
  const batch = Array.isArray(parsed);
  const messages = (batch ? parsed : [parsed]) as unknown[];
  if (messages.length === 0 || messages.some((m) => classify(m) === undefined)) {
    sendError(res, 400, ErrorCode.InvalidRequest, batch && messages.length === 0 ? 'Invalid Request: empty batch' : 'Invalid Request: the body is not a JSON-RPC 2.0 message', cors);
    return;
  }
  const typed = messages as JsonRpcMessage[];
  // Which era: the body's _meta envelope first, the headers as a cross-check (modern-classify.ts).
  const route = classifyPost({ protocolVersion: header(req, 'mcp-protocol-version'), method: header(req, 'mcp-method'), name: header(req, 'mcp-name') }, typed, batch);
  if (route.kind === 'reject') {
    sendJson(res, route.status, errorResponse(route.id, route.code, route.message, route.data), cors);
    return;
  }
  if (route.kind === 'modern') {
    await handleModernPost(req, res, runtime, ctx.modern, route.message, body.text, cors);
    return;
  }
  const initIndex = typed.findIndex((m) => isRequest(m) && m.method === 'initialize');
  if (initIndex !== -1) {
    if (batch) {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be part of a batch', cors);
      return;
    }
    await initialize(req, res, runtime, ctx, typed[0] as JsonRpcRequest, body.text, cors);
    return;
  }
  // The same id twice in one batch could be answered only once (its second answer has no request
  // left to go to), and the stream would wait for it until the deadline.
  if (batch) {
    const seen = new Set<string>();
    for (const m of typed) {
      if (!isRequest(m)) continue;
      const key = idKey(m.id);
      if (seen.has(key)) {
        sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: request id ${JSON.stringify(m.id)} appears twice in the batch`, cors);
        return;
      }
      seen.add(key);
    }
  }
  // Each message's own text goes upstream only when the body is that one message.
  const raws = batch ? typed.map(() => undefined) : [body.text];
  if (runtime.stateless) {
    if (!checkVersion(req, res, cors)) return;
    await statelessPost(req, res, runtime, ctx, typed, raws, cors);
    return;
  }
  const session = lookupSession(req, res, ctx, runtime, cors);
  if (!session || !checkVersion(req, res, cors)) return;
  // Batches exist only in 2025-03-26 (added then, removed in 2025-06-18) (P4).
  if (batch && session.protocolVersion !== '2025-03-26') {
    sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: batches are not supported in protocol version ${session.protocolVersion}`, cors);
    return;
  }
  for (const m of typed) {
    if (isRequest(m) && session.hasPending(m.id)) {
      sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: request id ${JSON.stringify(m.id)} is already in use in this session`, cors);
      return;
    }
  }
  if (!typed.some(isRequest)) {
    void session.forward(typed, raws, undefined, req);
    res.writeHead(202, { ...cors, ...session.responseHeaders() });
    res.end();
    return;
  }
  const stream = session.openRequestStream(sseSink(res), cors);
  await session.forward(typed, raws, stream, req);
}

async function initialize(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, request: JsonRpcRequest, raw: string, cors: Record<string, string>): Promise<void> {
  const existing = header(req, 'mcp-session-id');
  if (existing && ctx.sessions.get(existing)?.state === 'live') {
    sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized', cors);
    return;
  }
  if (ctx.sessions.size >= ctx.maxSessions) {
    sendError(res, 503, ErrorCode.ServerError, `Service Unavailable: the hub already holds ${ctx.maxSessions} sessions`, { ...cors, 'Retry-After': '5' });
    return;
  }
  const stateless = runtime.stateless;
  const session = ctx.newSession(stateless ? '' : newSessionId(), runtime, principalOf(req));
  // A client that gives up while the server starts takes the session (and its child) with it.
  const abandoned = (): void => void session.close();
  res.once('close', abandoned);
  const answer = await session.initialize(request, raw, req);
  res.off('close', abandoned);
  if (session.state !== 'live') return; // the client went away meanwhile: nobody to answer
  if (ctx.isClosed()) {
    await session.close();
    sendError(res, 503, ErrorCode.ServerError, 'Service Unavailable: the hub is shutting down', cors);
    return;
  }
  if (!answer.ok || stateless) void session.close();
  else ctx.register(session);
  sendJson(res, 200, answer.message, { ...cors, ...(answer.ok ? session.responseHeaders() : {}) });
}

/** Stateless servers (P19): a fresh child per request, initialized by the hub, stopped after. */
async function statelessPost(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, messages: JsonRpcMessage[], raws: Array<string | undefined>, cors: Record<string, string>): Promise<void> {
  const session = ctx.newSession('', runtime, principalOf(req));
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
  const stream = session.openRequestStream(sseSink(res), cors);
  await session.forward(messages, raws, stream, req);
}

/** A GET or DELETE that names a modern revision: those are session operations the era does not have (Q3). */
function modernNonPost(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): boolean {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined || !isModernVersion(version.trim())) return false;
  sendError(res, 405, ErrorCode.ServerError, `Method Not Allowed: protocol revision ${version.trim()} has no ${req.method} on the MCP endpoint (POST only)`, { ...cors, Allow: 'POST' });
  return true;
}

export function handleGet(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): void {
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

export async function handleDelete(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, ctx: EndpointContext, cors: Record<string, string>): Promise<void> {
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
