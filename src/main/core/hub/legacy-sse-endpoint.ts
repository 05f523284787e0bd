/**
 * The 2024-11-05 HTTP+SSE transport, for clients that speak nothing newer (PROTOCOL P33):
 * `GET /sse/<server>` opens a session and its event stream, whose first event (`endpoint`) names
 * where the client POSTs: `/messages/<server>?sessionId=<id>`, a relative URI as the transport
 * says. Each POST carries one message (or a batch) and is answered `202 Accepted`; whatever it
 * asked is answered on the event stream as `event: message`. `/sse` is the default profile's
 * endpoint and `/sse/@name` a named profile's, as `/mcp` and `/mcp/@name` are.
 *
 * Not a second spine: behind the door is the hub's own Session (session.ts), in the hub's session
 * table, so it is ticked (keep-alives, request deadlines), counted, observed, and closed with its
 * server like any other. Its streams — the standalone one and one per POST that carries requests —
 * all write to the one GET response (LegacyConnection below). The transport cannot resume a
 * stream, so the stream's closing ends the session and its upstream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../../shared/protocol.js';
import type { Logger } from '../log/logger.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { accepts, sendError } from '../protocol/http-util.js';
import { isRequest } from '../protocol/json-rpc.js';
import { SseWriter } from '../protocol/sse-writer.js';
import type { Intake } from './intake.js';
import { principalClientOf, principalOf } from './principal.js';
import type { ServerPort } from './server-port.js';
import type { Session } from './session.js';
import type { StreamSink } from './stream-sink.js';

/** What the door needs of the hub (hub-server.ts builds it). */
export interface LegacySseContext {
  /** The checks every door shares: server lookup (as `/mcp`), body, batch rules, ids, room for a session. */
  intake: Intake;
  /** A new session whose observers see the client transport `sse` (and the client token's label: principal.ts). */
  newSession(id: string, runtime: ServerPort, principal?: string, client?: string): Session;
  logger: Logger;
}

/** The two routes of the door, token-protected like `/mcp` (P25). */
export function legacySseRoutes(ctx: LegacySseContext): HttpRoute[] {
  const door = new LegacySseEndpoint(ctx);
  return [
    { prefix: '/sse', auth: 'mcp', handle: (req, res, path, cors) => door.open(req, res, path.slice('/sse'.length), cors) },
    { prefix: '/messages', auth: 'mcp', handle: (req, res, path, cors) => door.post(req, res, path.slice('/messages'.length), cors) },
  ];
}

/**
 * One client's event stream: the HTTP response every stream of its session writes to, through one
 * SSE writer (protocol/sse-writer.ts). Events carry no `id:` (the transport has no resumption) and
 * no priming events (an event with empty data would reach a 2024-11-05 client as a message it
 * cannot parse).
 *
 * Flow control (as http-sink.ts, for streams that share one response): every sink's `message`
 * returns the write's result and its pace is the response's, so whichever stream writes while the
 * client is not keeping up is told to wait, and a stalled client is judged by what the whole
 * connection leaves in the hub. One `drain` of the response releases every stream that waits on
 * it: a request stream and the standalone one, or several request streams, each counted blocked
 * by the session (session-streams.ts) and each unblocked here. A stream that ends while blocked
 * takes its waiter with it, so nothing is left behind on a response that may outlive many POSTs.
 */
class LegacyConnection {
  initializing = false;
  initialized = false;
  private readonly writer: SseWriter;
  private readonly closeListeners = new Set<() => void>();

  constructor(
    readonly session: Session,
    res: ServerResponse,
  ) {
    this.writer = new SseWriter(res);
    res.once('close', () => {
      for (const listener of [...this.closeListeners]) listener();
      this.closeListeners.clear();
    });
  }

  /**
   * One JSON-RPC message (its JSON text, one line) as a `message` event. False: the response is
   * past its high-water mark (the client is not reading); a `drain` follows. A response that has
   * ended takes nothing, and nothing waits on it (its `close` releases its streams).
   */
  send(json: string): boolean {
    return this.writer.event(json);
  }

  /** The session's standalone stream: opening it sends the status, the headers and the `endpoint` event. */
  mainSink(endpoint: string, cors: Record<string, string>): StreamSink {
    const writer = this.writer;
    return this.sink({
      // The session's own headers (Mcp-Session-Id, Mcp-Protocol-Version) are Streamable HTTP's: not sent here.
      open: () => {
        writer.open(cors);
        writer.event(endpoint, undefined, 'endpoint');
      },
      keepAlive: () => writer.comment('keepalive'),
      end: () => writer.end(),
    });
  }

  /** A POST's stream: its messages go out on the same response, which outlives it. */
  requestSink(): StreamSink {
    return this.sink({
      open: () => {},
      // The standalone stream keeps the connection alive.
      keepAlive: () => {},
      end: () => {},
    });
  }

  /**
   * A sink on the shared response: what differs between the two kinds is how they open, keep
   * alive and end; the rest (writes, flow control, close) is the response's. Ending a sink forgets
   * its listeners.
   */
  private sink(own: Pick<StreamSink, 'open' | 'keepAlive' | 'end'>): StreamSink {
    const writer = this.writer;
    let forgetDrain: (() => void) | undefined;
    let onClose: (() => void) | undefined;
    return {
      // The transport has no event ids, so nothing is kept for a replay.
      resumable: false,
      open: own.open,
      message: (_eventId, json) => this.send(json),
      onDrain: (listener) => {
        forgetDrain?.();
        forgetDrain = writer.onDrain(listener);
      },
      get backlog() {
        return writer.backlog;
      },
      stalled: (limits, now) => writer.stalled(limits, now),
      prime: () => {},
      keepAlive: own.keepAlive,
      end: () => {
        forgetDrain?.();
        if (onClose) this.closeListeners.delete(onClose);
        own.end();
      },
      onClose: (listener) => {
        onClose = listener;
        this.closeListeners.add(listener);
      },
    };
  }
}

class LegacySseEndpoint {
  /** This door's live sessions, by id: a `/mcp` session id is unknown here, and the reverse (Session.door). */
  private readonly connections = new Map<string, LegacyConnection>();

  constructor(private readonly ctx: LegacySseContext) {}

  /** `GET /sse[/<server>]`: a new session whose one stream is this response. */
  open(req: IncomingMessage, res: ServerResponse, rest: string, cors: Record<string, string>): void {
    if (req.method !== 'GET') {
      sendError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: ${req.method}. Open the event stream with GET; its endpoint event names where to POST`, { ...cors, Allow: 'GET' });
      return;
    }
    const accept = req.headers.accept;
    if (accept !== undefined && !accepts(accept, 'text/event-stream')) {
      sendError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must include text/event-stream', cors);
      return;
    }
    const { ctx } = this;
    const runtime = ctx.intake.serverAt(rest, res, cors, '/sse');
    if (!runtime || !ctx.intake.roomForSession(res, cors)) return;
    const id = ctx.intake.mintSessionId();
    const session = ctx.newSession(id, runtime, principalOf(req), principalClientOf(req));
    session.door = 'sse';
    const connection = new LegacyConnection(session, res);
    ctx.intake.sessions.set(id, session);
    this.connections.set(id, connection);
    // The stream is the session: when it closes (the client went, or the session ended and ended
    // it), the session goes, with its upstream.
    res.once('close', () => {
      this.connections.delete(id);
      void session.close();
    });
    ctx.logger.debug(`legacy HTTP+SSE session of '${runtime.id}' opened`);
    // The path the client used, so `/sse/@work` posts to `/messages/@work` as it spelled it.
    session.attachGetStream(connection.mainSink(`/messages${rest}?sessionId=${id}`, cors), cors);
  }

  /** `POST /messages[/<server>]?sessionId=<id>`: one message or a batch, answered on the session's stream. */
  async post(req: IncomingMessage, res: ServerResponse, rest: string, cors: Record<string, string>): Promise<void> {
    if (req.method !== 'POST') {
      sendError(res, 405, ErrorCode.InvalidRequest, `Method Not Allowed: ${req.method}`, { ...cors, Allow: 'POST' });
      return;
    }
    const runtime = this.ctx.intake.serverAt(rest, res, cors, '/messages');
    if (!runtime) return;
    const connection = this.connectionOf(req, res, runtime, cors);
    if (!connection) return;
    const posted = await this.ctx.intake.body(req, res, cors);
    if (!posted) return;
    const { messages, batch, text } = posted;
    const session = connection.session;
    if (session.state !== 'live') {
      sendError(res, 404, ErrorCode.SessionNotFound, 'Session not found: it ended while the message was read', cors);
      return;
    }
    const init = this.ctx.intake.initializeOf(posted, res, cors);
    if (init === undefined) return;
    if (init) {
      if (connection.initializing || connection.initialized) return sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized', cors);
      connection.initializing = true;
      accepted(res, cors);
      const answer = await session.initialize(init, text, req);
      connection.initializing = false;
      if (session.state !== 'live') return; // the stream closed meanwhile: nobody to answer
      connection.initialized = answer.ok;
      connection.send(JSON.stringify(answer.message));
      // As on /mcp, a session whose initialize failed is over; here that ends its stream too.
      if (!answer.ok) void session.close();
      return;
    }
    if (!connection.initialized) {
      sendError(res, 400, ErrorCode.InvalidRequest, `Bad Request: the session is not initialized${connection.initializing ? ' yet' : ''}: send initialize first`, cors);
      return;
    }
    if (!this.ctx.intake.freshIds(messages, session, res, cors)) return;
    // Each message's own text goes upstream only when the body is that one message.
    const raws = batch ? messages.map(() => undefined) : [text];
    const stream = messages.some(isRequest) ? session.openRequestStream(connection.requestSink(), cors) : undefined;
    accepted(res, cors);
    await session.forward(messages, raws, stream, req);
  }

  /** The live session a POST names (`?sessionId=`); answers 404 itself when there is none. */
  private connectionOf(req: IncomingMessage, res: ServerResponse, runtime: ServerPort, cors: Record<string, string>): LegacyConnection | undefined {
    const id = new URL(req.url ?? '/', 'http://patchbay').searchParams.get('sessionId');
    const connection = id ? this.connections.get(id) : undefined;
    if (connection && connection.session.state === 'live' && connection.session.serverId === runtime.id) return connection;
    const why = !id
      ? 'the sessionId query parameter is missing (POST to the URL the endpoint event named)'
      : connection && connection.session.state === 'live'
        ? `session '${id}' is not a session of this endpoint`
        : `no session '${id}': it never existed, or it ended when its event stream closed (open a new one with GET /sse/<server>)`;
    sendError(res, 404, ErrorCode.SessionNotFound, `Session not found: ${why}`, cors);
    return undefined;
  }
}

function accepted(res: ServerResponse, cors: Record<string, string>): void {
  res.writeHead(202, { ...cors, 'Content-Type': 'text/plain' });
  res.end('Accepted');
}
