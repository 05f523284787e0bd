/**
 * The hub's one HTTP server on loopback: guards first (Host, Origin, token — the hub token, or a
 * client token on the MCP doors), then `/health`, `/.well-known/mcp-config`, `/mcp/<server>` and
 * `/mcp`, `/mcp/@<profile>` (both eras: a modern POST takes modern-endpoint.ts, the rest the
 * session path), and the legacy HTTP+SSE door `/sse/<server>` + `/messages/<server>`
 * (legacy-sse-endpoint.ts). Also the housekeeping tick: keep-alives on idle streams (P13),
 * request timeouts, and expiry of idle sessions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ErrorCode } from '../../../shared/protocol.js';
import type { Logger } from '../log/logger.js';
import { REPLICA_ID_PATTERN } from '../../../shared/config-schema.js';
import { allowedHostSet, allowedOrigins, checkHost, checkOrigin, checkToken, corsHeaders, hostHeaders, PREFLIGHT_HEADERS, type ClientTokenVerifier } from './guards.js';
import { wellKnown } from './well-known.js';
import { sendError, sendJson } from '../protocol/http-util.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { mcpDoor, type EndpointContext } from './mcp-endpoint.js';
import { Intake } from './intake.js';
import { DEFAULT_REPLY_HOLD_MS } from './http-reply.js';
import { legacySseRoutes } from './legacy-sse-endpoint.js';
import { ModernClients } from './modern-clients.js';
import type { ModernUpstream } from '../upstream/modern-upstream.js';
import type { ClientIdentity } from '../upstream/upstream.js';
import type { ModernCallRun } from './modern-call.js';
import type { SessionObserver } from './observer.js';
import { ParamHeaderIndex } from './param-headers.js';
import { notePrincipal } from './principal.js';
import type { EraBridge, EraBridgeFactory, HubReach, ServerPort } from './server-port.js';
import type { RequestTracer } from './tracing.js';
import { Session, type SessionHost } from './session.js';
import { paceLimits, type StreamLimits } from './sse-stream.js';
import { StdioDoor, type LineOutput } from './stdio-door.js';

export interface HubOptions {
  host: string;
  port: number;
  /** Undefined turns auth off (`--no-auth`). */
  token: string | undefined;
  /** Per-client tokens, accepted besides the hub token on the MCP doors only (home/client-tokens.ts). */
  clientTokens?: ClientTokenVerifier;
  extraOrigins: string[];
  maxBodyBytes: number;
  maxSessions: number;
  sessionIdleTimeoutMs: number;
  requestTimeoutMs: number;
  /** Default for servers that set no `startupTimeoutMs`: how long `initialize` may take. */
  startupTimeoutMs: number;
  keepAliveMs: number;
  tickMs: number;
  /** How long a 2025 POST's reply is held for an answer that can go as JSON (http-reply.ts; default DEFAULT_REPLY_HOLD_MS). */
  replyHoldMs?: number;
  streamLimits: StreamLimits;
  version: string;
  logger: Logger;
  /**
   * The configured servers, by id; read per request so config reloads take effect at once. The
   * id is `''` for `/mcp` and `@name` for `/mcp/@name` (profiles: profiles/profile-registry.ts).
   */
  server(id: string): ServerPort | undefined;
  routes?: HttpRoute[];
  /**
   * Extra ways a request may prove it is allowed in, besides the bearer token (the UI's cookie).
   * Called only when the bearer check failed.
   */
  authorize?(req: IncomingMessage): boolean;
  /** Who watches sessions (the inspector, server status); see observer.ts. */
  observer?: SessionObserver;
  /** Builds the bridge that serves a 2025-only server's 2026-07-28 clients (bridge/legacy-bridge.ts). */
  eraBridge: EraBridgeFactory;
  /** Telemetry's tracer when telemetry is on: every forwarded client request gets a trace context (tracing.ts). */
  tracer?: RequestTracer;
  /** Host headers accepted besides the loopback names (`hub.allowedHosts`: a load balancer's public names). */
  allowedHosts?: readonly string[];
  /** This replica's id, first in the session ids it mints (`--replica-id`; docs/deploy.md). */
  replicaId?: string;
  /** Whether the engine around the hub is ready for traffic (`GET /health/ready`); default: once listening. */
  ready?(): boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

export class Hub {
  readonly sessions = new Map<string, Session>();
  /**
   * Sessions not (or not yet) in the table: those opened inside the engine (openLocalSession), a
   * stateless server's per-request ones, and any still initializing. Ticked for their deadlines
   * and closed with the hub like the others.
   */
  private readonly outsideTable = new Set<Session>();
  /** The stdio door's sessions (also outside the table): ended with their server's, as HTTP clients' are. */
  private readonly doorSessions = new Set<Session>();
  /** Modern clients of legacy servers, by server id (legacy-bridge.ts). */
  private readonly bridges = new Map<string, EraBridge>();
  private readonly modernClients: ModernClients;
  /** 2026-07-28 calls in flight (modern-call.ts), ticked for deadlines, stalled clients and keep-alives. */
  private readonly modernCalls = new Set<ModernCallRun>();
  private server: Server | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;
  private closed = false;
  private origins = new Set<string>();
  private readonly hosts: ReadonlySet<string>;
  private readonly routes: HttpRoute[];

  constructor(private readonly options: HubOptions) {
    if (!LOOPBACK.has(options.host) && options.token === undefined) {
      throw new Error(`refusing to listen on ${options.host} without auth: a non-loopback address needs the hub token`);
    }
    if (options.replicaId !== undefined && !REPLICA_ID_PATTERN.test(options.replicaId)) throw new Error(`replica id '${options.replicaId}' must be 1-63 letters, digits, '_' or '-'`);
    this.hosts = allowedHostSet(options.allowedHosts ?? []);
    // What every door checks first (server lookup, body, batch rules, ids, room for a session).
    const intake = new Intake({ sessions: this.sessions, maxBodyBytes: options.maxBodyBytes, maxSessions: options.maxSessions, server: (id) => this.options.server(id), isClosed: () => this.closed, ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}) });
    const mcp: EndpointContext = {
      intake,
      version: options.version,
      replyHoldMs: options.replyHoldMs ?? DEFAULT_REPLY_HOLD_MS,
      newSession: (id, runtime, principal, client, via) => {
        const session = new Session(id, runtime.id, this.sessionHost(runtime, 'streamable-http', principal, client, via));
        this.outsideTable.add(session);
        return session;
      },
      register: (session) => {
        this.outsideTable.delete(session);
        this.sessions.set(session.id, session);
      },
      modern: {
        clients: (this.modernClients = new ModernClients(options.observer, 60_000)),
        ...(options.tracer ? { tracer: options.tracer } : {}),
        paramHeaders: new ParamHeaderIndex(),
        requestTimeoutMs: options.requestTimeoutMs,
        pace: paceLimits(options.streamLimits),
        calls: this.modernCalls,
        upstreamFor: (server) => this.modernFor(server),
      },
    };
    // The doors, mounted as every route is (each token-protected as an MCP door, P25): /mcp in
    // both eras, and GET /sse/<server> + POST /messages/<server>, the 2024-11-05 door for old
    // clients (P33), onto the same sessions. Then the features' routes (/api, /ui, …).
    this.routes = [
      mcpDoor(mcp),
      ...legacySseRoutes({ intake, newSession: (id, runtime, principal, client) => new Session(id, runtime.id, this.sessionHost(runtime, 'sse', principal, client)), logger: options.logger }),
      ...(options.routes ?? []),
    ];
  }

  /** Mounts a feature under a path prefix (see HttpRoute). */
  addRoute(route: HttpRoute): void {
    this.routes.push(route);
  }

  /**
   * Replaces the token (after `rotateHubToken`): from now on the old one is refused on every
   * request, including further requests of sessions opened with it.
   */
  setToken(token: string): void {
    if (this.options.token === undefined) throw new Error('the hub runs without auth (--no-auth); there is no token to replace');
    this.options.token = token;
  }

  get port(): number {
    return this.boundPort;
  }

  async listen(): Promise<number> {
    const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => {
        reject(
          err.code === 'EADDRINUSE'
            ? new Error(`port ${this.options.port} on ${this.options.host} is already in use (another Patchbay hub? choose one with --port)`)
            : err.code === 'EACCES'
              ? new Error(`not allowed to listen on ${this.options.host}:${this.options.port}: ${err.message}`)
              : err,
        );
      };
      server.once('error', onError);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    this.origins = allowedOrigins({ port: this.boundPort, extraOrigins: this.options.extraOrigins, token: this.options.token });
    this.timer = setInterval(() => this.tick(), this.options.tickMs);
    this.timer.unref();
    return this.boundPort;
  }

  /** Closes every session (and so every child), then the server. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // Modern requests still open end first, a listen stream with its graceful response.
    for (const call of [...this.modernCalls]) call.shutdown();
    await Promise.all([...this.sessions.values(), ...this.outsideTable].map((s) => s.close()));
    await Promise.all([...this.bridges.values()].map((b) => b.close()));
    this.bridges.clear();
    this.modernClients.closeAll();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // SSE and keep-alive connections would hold close() open forever.
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /**
   * A session opened inside the engine rather than by an HTTP client: the inspector's `replay`
   * (the hub is the client: observers see its requests as the hub's) or the UI's `playground`
   * (a person is the client, through the API). Never in the session table, so no HTTP client can
   * reach it; its owner closes it. Request deadlines apply as to any session. Undefined when the
   * server is not configured (or disabled): commands come from the config only (P28).
   */
  openLocalSession(serverId: string, purpose: 'replay' | 'playground'): Session | undefined {
    const server = this.closed ? undefined : this.options.server(serverId);
    if (!server) return undefined;
    const session = new Session('', server.id, this.sessionHost(server, purpose === 'replay' ? 'hub' : 'playground'));
    this.outsideTable.add(session);
    return session;
  }

  /**
   * The stdio door to a server (stdio-door.ts): one client served in this process, a JSON-RPC
   * message per line each way — `patchbay relay --url`'s way into the engine it embeds. Its
   * sessions are outside the table (no HTTP client can reach them), ticked and closed with the
   * hub like the others, and observed as the `stdio` transport by way of the relay. Undefined
   * when the server is not configured (or disabled), or is stateless (a fresh child per request
   * is the `/mcp` door's).
   */
  openStdioDoor(serverId: string, output: LineOutput, onWarning?: (message: string) => void): StdioDoor | undefined {
    const server = this.closed ? undefined : this.options.server(serverId);
    if (!server || server.stateless) return undefined;
    return new StdioDoor(
      output,
      {
        server: () => (this.closed ? undefined : this.options.server(serverId)),
        newSession: (runtime) => {
          const session = new Session('', runtime.id, this.sessionHost(runtime, 'stdio', undefined, undefined, 'relay'));
          this.outsideTable.add(session);
          this.doorSessions.add(session);
          return session;
        },
        isClosed: () => this.closed,
        maxBodyBytes: this.options.maxBodyBytes,
      },
      onWarning,
    );
  }

  /** Live sessions per server id (the one place they are counted). */
  sessionCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const s of this.sessions.values()) counts.set(s.serverId, (counts.get(s.serverId) ?? 0) + 1);
    return counts;
  }

  /**
   * Ends the sessions of one server (it was removed or changed in the config), its bridge's and its
   * stdio door's included (the door re-creates its session on the client's next line, as the relay
   * does on the 404 an HTTP client then gets).
   */
  async closeSessionsOf(serverId: string): Promise<void> {
    const bridge = this.bridges.get(serverId);
    this.bridges.delete(serverId);
    const ending = [...this.sessions.values(), ...this.doorSessions].filter((s) => s.serverId === serverId);
    await Promise.all([...ending.map((s) => s.close()), bridge?.close()]);
  }

  /** A server's modern upstream: its own when it speaks the modern era, else the hub's bridge to it. */
  private async modernFor(server: ServerPort): Promise<ModernUpstream> {
    return (await server.modernUpstream?.(this.reach(server, undefined))) ?? this.bridgeFor(server);
  }

  /**
   * What the hub lends a port made of other ports (a profile): its members' modern upstreams, and
   * the observers' watch of each member's traffic — a session of its own, marked as the profile's
   * and nested under `parent`, the client's session it serves (none for 2026-07-28 calls).
   */
  private reach(profile: ServerPort, parent: object | undefined, client?: string): HubReach {
    return {
      ...(client !== undefined ? { client } : {}),
      modernFor: (port) => this.modernFor(port),
      ...(this.options.tracer ? { tracer: this.options.tracer } : {}),
      watchMember: (member, era) =>
        this.options.observer?.sessionOpened({ key: {}, serverId: member.id, clientTransport: 'profile', upstreamTransport: member.transportLabel, debug: false, era, profile: { id: profile.id, parent } }),
    };
  }

  /** The bridge that serves a server's modern clients over legacy sessions (one per server). */
  private bridgeFor(server: ServerPort): EraBridge {
    let bridge = this.bridges.get(server.id);
    if (!bridge) {
      bridge = this.options.eraBridge({
        server,
        openSession: () => {
          const session = new Session('', server.id, this.sessionHost(server, 'bridge'));
          this.outsideTable.add(session);
          return session;
        },
        inputWaitMs: server.requestTimeoutMs ?? this.options.requestTimeoutMs,
        idleMs: this.options.sessionIdleTimeoutMs,
      });
      this.bridges.set(server.id, bridge);
    }
    return bridge;
  }

  /**
   * `clientTransport`: `streamable-http` or `sse` (legacy HTTP+SSE) for HTTP clients, `stdio` for
   * the stdio door's, `hub` or
   * `playground` for local sessions. `principal`: the client token's label, when one opened it;
   * `client`: that token's client id (a profile lends it to its on-demand tools through the reach);
   * `via`: `relay` when `patchbay relay` opened it (principal.ts `viaOf`).
   */
  private sessionHost(server: ServerPort, clientTransport: 'streamable-http' | 'sse' | 'stdio' | 'hub' | 'playground' | 'bridge' = 'streamable-http', principal?: string, client?: string, via?: 'relay'): SessionHost {
    const observer = this.options.observer;
    // Who the client is, for what a check reports; its name comes with its initialize.
    const identity: ClientIdentity = { transport: clientTransport, ...(principal !== undefined ? { principal } : {}), ...(via !== undefined ? { via } : {}) };
    return {
      watch: (session) =>
        observer?.sessionOpened({
          key: session,
          serverId: server.id,
          clientTransport,
          upstreamTransport: server.transportLabel,
          debug: clientTransport === 'hub',
          ...(principal !== undefined ? { principal } : {}),
          ...(via !== undefined ? { via } : {}),
          ...(session.id !== '' ? { mcpSessionId: session.id } : {}),
        }),
      connect: (session) => server.connect({ ...this.reach(server, session, client), who: () => (session.clientName === undefined ? identity : { ...identity, name: session.clientName }) }),
      // A profile's aggregate makes the CLIENT spans itself, one per member reached.
      ...(this.options.tracer ? { tracing: { tracer: this.options.tracer, clientSpan: server.transportLabel !== 'profile' } } : {}),
      requestTimeoutMs: server.requestTimeoutMs ?? this.options.requestTimeoutMs,
      startupTimeoutMs: server.startupTimeoutMs ?? this.options.startupTimeoutMs,
      streamLimits: this.options.streamLimits,
      maxRestarts: 3,
      restartWindowMs: 60_000,
      ended: (session) => {
        if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
        this.outsideTable.delete(session);
        this.doorSessions.delete(session);
      },
    };
  }

  private tick(): void {
    const now = Date.now();
    for (const call of [...this.modernCalls]) call.tick(now, this.options.keepAliveMs);
    this.modernClients.tick(now);
    for (const bridge of this.bridges.values()) bridge.tick(now);
    for (const session of this.outsideTable) session.expireRequests(now);
    for (const session of this.sessions.values()) {
      session.keepAlive(now, this.options.keepAliveMs);
      session.expireRequests(now);
      if (session.isIdle(now, this.options.sessionIdleTimeoutMs)) {
        this.options.logger.info(`session of '${session.serverId}' expired after ${Math.round(this.options.sessionIdleTimeoutMs / 1000)}s idle`);
        void session.close();
      }
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    // Node keeps the first of several Host headers; which one a proxy in front would honour is
    // anybody's guess, so a request with more than one is refused outright (RFC 9110 §7.2: 400).
    if (hostHeaders(req.rawHeaders) > 1) return sendError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: more than one Host header');
    const host = checkHost(req.headers.host, this.boundPort, this.hosts);
    if (!host.ok) return sendError(res, host.status, ErrorCode.InvalidRequest, host.message);
    const origin = req.headers.origin;
    const originCheck = checkOrigin(origin, this.origins);
    if (!originCheck.ok) return sendError(res, originCheck.status, ErrorCode.InvalidRequest, originCheck.message);
    const cors = corsHeaders(origin);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, ...PREFLIGHT_HEADERS });
      res.end();
      return;
    }
    if (path === '/health') return sendJson(res, 200, { status: 'ok' }, cors);
    // Readiness for a load balancer or an orchestrator: no auth, and it tells nothing else (P25).
    if (path === '/health/ready') return this.closed || this.options.ready?.() === false ? sendJson(res, 503, { status: 'unavailable' }, cors) : sendJson(res, 200, { status: 'ready' }, cors);
    if (path === '/.well-known/mcp-config' || path === '/mcp/.well-known/mcp-config') return sendJson(res, 200, wellKnown(this.options.version, this.options.token !== undefined), cors);
    if (isUnder(path, '/api')) {
      // The API says nothing, not even "not found", to a caller without the token (P25).
      const denied = this.checkAuth(req);
      if (denied) return sendError(res, denied.status, ErrorCode.Unauthorized, denied.message, { ...cors, ...denied.headers });
    }
    for (const route of this.routes) {
      if (!isUnder(path, route.prefix)) continue;
      if (route.auth !== 'none') {
        const denied = this.checkAuth(req, route.auth === 'mcp');
        if (denied) return sendError(res, denied.status, ErrorCode.Unauthorized, denied.message, { ...cors, ...denied.headers });
      }
      // A route that throws (at once or later) answers 500, or ends a response already started.
      const failed = (err: Error): void => {
        this.options.logger.error(`${path} failed: ${err.message}`);
        if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, `Internal error: ${err.message}`, cors);
        else res.end();
      };
      try {
        void Promise.resolve(route.handle(req, res, path, cors)).catch(failed);
      } catch (err) {
        failed(err as Error);
      }
      return;
    }
    sendError(res, 404, ErrorCode.InvalidRequest, `Not Found: ${path}. MCP servers are at /mcp/<server>`, cors);
  }

  /**
   * Undefined when the request may go on; else why not (P25). `mcp`: an MCP door, where a client
   * token is accepted too (and noted on the request for the session it opens).
   */
  private checkAuth(req: IncomingMessage, mcp = false): { status: number; message: string; headers?: Record<string, string> } | undefined {
    const auth = checkToken(req.headers.authorization, this.options.token, mcp ? this.options.clientTokens : undefined);
    if (auth.ok) {
      if (auth.principal !== undefined) notePrincipal(req, auth.principal, auth.client);
      return undefined;
    }
    if (this.options.authorize?.(req)) return undefined;
    return auth;
  }
}
