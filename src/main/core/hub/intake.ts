/**
 * What every door does with a request before anything is its own (issue 22: one intake): which
 * server or profile the path names, the body read within its cap and drained before a 413 (P8),
 * its nesting depth, the parse (P7), the JSON-RPC shape and batch rules (P4), request ids that
 * would collide, room for one more session, and the session id a new one gets (P14). The doors —
 * `/mcp` in both eras (mcp-endpoint.ts, modern-endpoint.ts) and the legacy `/sse` + `/messages`
 * (legacy-sse-endpoint.ts) — each answer with these same checks and words, in the order their
 * transport asks for.
 *
 * Each check answers the HTTP request itself when it fails and returns undefined (or false); the
 * door goes on only with what passed.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../../shared/protocol.js';
import { readBody } from '../protocol/body.js';
import { sendError } from '../protocol/http-util.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';
import { classify, idKey, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import type { ServerPort } from './server-port.js';
import type { Session } from './session.js';

/** A POST body that passed: its messages (one, or a batch), and its text. */
export interface Posted {
  messages: JsonRpcMessage[];
  batch: boolean;
  text: string;
}

export interface IntakeOptions {
  maxBodyBytes: number;
  maxSessions: number;
  /** The hub's session table (every door's sessions live there). */
  sessions: Map<string, Session>;
  /** `''` the default profile, `@name` a named one, else a server id; read per request (config reloads). */
  server(id: string): ServerPort | undefined;
  /** True once the hub is shutting down: no session may be added then. */
  isClosed(): boolean;
  /** This replica's id, put first in the session ids it mints (newSessionId); none: plain ids. */
  replicaId?: string;
}

export class Intake {
  constructor(private readonly opts: IntakeOptions) {}

  get maxBodyBytes(): number {
    return this.opts.maxBodyBytes;
  }

  get sessions(): Map<string, Session> {
    return this.opts.sessions;
  }

  /**
   * The server (or profile) a door's path names: `rest` is what follows the door's prefix (`''`
   * or `/<id>`, URL-encoded). Answers 404 itself when there is none.
   */
  serverAt(rest: string, res: ServerResponse, cors: Record<string, string>, door: string): ServerPort | undefined {
    if (rest !== '' && !rest.startsWith('/')) {
      sendError(res, 404, ErrorCode.InvalidRequest, `Not Found: the endpoint is ${door}/<server>`, cors);
      return undefined;
    }
    let id: string;
    try {
      id = decodeURIComponent(rest.slice(1));
    } catch {
      sendError(res, 404, ErrorCode.InvalidRequest, 'Not Found: malformed server id', cors);
      return undefined;
    }
    // `''` is the default profile's aggregated endpoint, `@name` a named profile's.
    const server = id.includes('/') ? undefined : this.opts.server(id);
    if (!server) {
      const what = id === '' || id.startsWith('@') ? `no profile '${id.slice(1) || 'default'}' is configured` : `no server '${id}' is configured (or it is disabled)`;
      sendError(res, 404, ErrorCode.InvalidRequest, `Not Found: ${what}`, cors);
    }
    return server;
  }

  /**
   * A POST's body as JSON-RPC messages: `Content-Type: application/json` (415), within the body
   * cap (413, after draining), not nested past MAX_JSON_DEPTH (400), JSON (400/-32700), and one
   * JSON-RPC message or a non-empty batch of them (400/-32600).
   */
  async body(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): Promise<Posted | undefined> {
    const contentType = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType !== 'application/json') {
      sendError(res, 415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json', cors);
      return undefined;
    }
    const limit = this.opts.maxBodyBytes;
    const body = await readBody(req, limit);
    if (!body.ok) {
      if (body.reason === 'aborted') return undefined;
      sendError(res, 413, ErrorCode.InvalidRequest, tooLarge(limit), { ...cors, Connection: 'close' });
      if (!body.drained) res.once('finish', () => req.socket.destroy());
      return undefined;
    }
    const read = messagesOf(body.text);
    if ('problem' in read) {
      sendError(res, 400, read.code, read.problem, cors);
      return undefined;
    }
    return read;
  }

  /**
   * The `initialize` a body carries, if any; undefined after answering 400 when it comes in a
   * batch (P4: checked before the session). `null`: the body has none.
   */
  initializeOf(posted: Posted, res: ServerResponse, cors: Record<string, string>): JsonRpcRequest | null | undefined {
    const init = posted.messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === 'initialize');
    if (!init) return null;
    if (posted.batch) {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be part of a batch', cors);
      return undefined;
    }
    return init;
  }

  /**
   * False after answering 400 when a request id would be answered only once: the same id twice in
   * one batch, or an id a request of the session still waits under (it would steal that answer).
   */
  freshIds(messages: JsonRpcMessage[], session: Session, res: ServerResponse, cors: Record<string, string>): boolean {
    const why = collidingId(messages, session);
    if (why !== undefined) sendError(res, 400, ErrorCode.InvalidRequest, why, cors);
    return why === undefined;
  }

  /** False after answering 503 when the hub is shutting down or holds `maxSessions` already. */
  roomForSession(res: ServerResponse, cors: Record<string, string>): boolean {
    if (this.opts.isClosed()) {
      sendError(res, 503, ErrorCode.ServerError, 'Service Unavailable: the hub is shutting down', cors);
      return false;
    }
    if (this.opts.sessions.size >= this.opts.maxSessions) {
      sendError(res, 503, ErrorCode.ServerError, `Service Unavailable: the hub already holds ${this.opts.maxSessions} sessions`, { ...cors, 'Retry-After': '5' });
      return false;
    }
    return true;
  }

  get isClosed(): boolean {
    return this.opts.isClosed();
  }

  /** The id of a new session (P14), tagged with this replica's id when it has one. */
  mintSessionId(): string {
    return newSessionId(this.opts.replicaId);
  }
}

/** The words of a body over the cap (413 at an HTTP door). */
export function tooLarge(limit: number): string {
  return `Payload Too Large: the body is over the ${limit}-byte limit`;
}

/**
 * A body's text as JSON-RPC messages, or why it is not (every door answers with these words; an
 * HTTP door with 400): JSON (-32700), not nested past MAX_JSON_DEPTH, and one JSON-RPC message or a
 * non-empty batch of them (-32600).
 */
export function messagesOf(text: string): Posted | { problem: string; code: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problem: `Parse error: ${(err as Error).message}`, code: ErrorCode.ParseError };
  }
  // Before anything walks it: a body this deep would overflow whatever walks it later (P7's
  // "never a hang": without this, a deep message on a re-serialized path got no answer at all).
  // JSON.parse itself takes any depth.
  if (exceedsDepth(parsed, text.length)) return { problem: `Invalid Request: the body nests JSON deeper than ${MAX_JSON_DEPTH} levels`, code: ErrorCode.InvalidRequest };
  const batch = Array.isArray(parsed);
  const messages = (batch ? parsed : [parsed]) as unknown[];
  if (messages.length === 0 || messages.some((m) => classify(m) === undefined)) {
    return { problem: batch && messages.length === 0 ? 'Invalid Request: empty batch' : 'Invalid Request: the body is not a JSON-RPC 2.0 message', code: ErrorCode.InvalidRequest };
  }
  return { messages: messages as JsonRpcMessage[], batch, text };
}

/**
 * Why a body's requests would not each be answered once, or undefined: the same id twice in one
 * batch, or an id a request of the session still waits under (it would steal that answer).
 */
export function collidingId(messages: JsonRpcMessage[], session: Session): string | undefined {
  const seen = new Set<string>();
  for (const m of messages) {
    if (!isRequest(m)) continue;
    const key = idKey(m.id);
    const why = seen.has(key) ? 'appears twice in the batch' : session.hasPending(m.id) ? 'is already in use in this session' : undefined;
    if (why) return `Invalid Request: request id ${JSON.stringify(m.id as JsonRpcId)} ${why}`;
    seen.add(key);
  }
  return undefined;
}

/**
 * ≥ 128 bits of cryptographic randomness (144), visible ASCII and URL-safe (P14). A replica
 * (`patchbay serve --replica-id r1`) puts its id first, `r1.<random>`: the tag always ends at the
 * first `.`, which base64url never holds, so a load balancer can send a 2025 session's later
 * requests to the replica that minted it (an nginx `map` on `~^r1\.`; docs/deploy.md).
 */
export function newSessionId(replicaId?: string): string {
  const random = randomBytes(18).toString('base64url');
  return replicaId === undefined ? random : `${replicaId}.${random}`;
}

/** A request header's first value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
