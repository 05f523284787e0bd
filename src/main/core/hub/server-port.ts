/**
 * What the hub needs of a configured server: its id, how to open an upstream connection to it,
 * and the few settings that change how the endpoint treats it. servers/server-runtime.ts
 * implements it; the hub never sees the config itself.
 */
import type { ModernUpstream } from '../upstream/modern-upstream.js';
import type { SessionWatch } from './observer.js';
import type { RequestTracer } from './tracing.js';
import type { Session } from './session.js';
import type { ClientIdentity, UpstreamConnection } from '../upstream/upstream.js';

export interface ServerPort {
  readonly id: string;
  /** A fresh upstream per request, no sessions (P19). */
  readonly stateless: boolean;
  /** The server's own request timeout (`requestTimeoutMs`), if it sets one. */
  readonly requestTimeoutMs: number | undefined;
  /** How long it may take to answer `initialize` (`startupTimeoutMs`), if it sets one. */
  readonly startupTimeoutMs: number | undefined;
  /** How the hub reaches it, for observers: `stdio`, `stdio-shared`, `stdio-stateless`, `streamable-http`, `sse`, `http`. */
  readonly transportLabel: string;
  /**
   * Opens an upstream connection (spawning a child, linking to a shared one, or a remote session).
   * `hub`: what the hub lends a port made of other ports (a profile) for this session.
   */
  connect(hub?: HubReach): Promise<UpstreamConnection>;
  /**
   * Where modern-era (2026-07-28) requests go when the server speaks that era itself; undefined
   * when it does not (or the port cannot tell), and the hub then serves them over `connect()`
   * through its bridge. A port made of other ports (a profile) reaches them in the modern era
   * through `hub.modernFor`, which gives each one's own modern upstream or the hub's bridge to it.
   */
  modernUpstream?(hub: HubReach): Promise<ModernUpstream | undefined>;
}

/** What the hub lends a port made of other ports (a profile) to reach and observe its members. */
export interface HubReach {
  /** The client id of the client token the session was opened with (`cursor`), if one was. */
  readonly client?: string;
  /** Who the session's client is, asked when needed (its name comes with its initialize). */
  readonly who?: () => ClientIdentity;
  /** A port's modern upstream: its own when it speaks the modern era, else the hub's bridge to it. */
  modernFor(port: ServerPort): Promise<ModernUpstream>;
  /**
   * The observers' watch of one member's traffic on behalf of a profile: an observed session of
   * its own (ObservedSession.profile), nested under the client's session that caused it when
   * there is one (a 2025 session; 2026-07-28 calls have none). Undefined when nobody listens.
   * Whoever takes a watch ends it (`ended`) when the member's connection ends.
   */
  watchMember(member: ServerPort, era: 'legacy' | 'modern'): SessionWatch | undefined;
  /**
   * Telemetry's tracer when telemetry is on: a profile traces each request it forwards to a
   * member as the hub's CLIENT span, parented on the span named in the request's `_meta`
   * (hub/tracing.ts), and tells the member's watch (`traced`).
   */
  readonly tracer?: RequestTracer;
}

/**
 * Serves a server's 2026-07-28 clients over 2025 sessions of the hub when the server does not
 * speak that era (PROTOCOL Q8). The era bridges live in their own folder (bridge/legacy-bridge.ts
 * is this one); the engine hands the hub a factory, so the spine knows the bridge only by this port.
 */
export interface EraBridge extends ModernUpstream {
  /** The hub's housekeeping tick: legacy sessions unused for `idleMs` are closed. */
  tick(now: number): void;
}

export interface EraBridgeOptions {
  server: ServerPort;
  /** A new legacy session on the server, outside the hub's table (its deadlines ticked by the hub). */
  openSession(): Session;
  /** How long a client may take to retry an `input_required` call before the server's requests are refused. */
  inputWaitMs: number;
  /** Sessions unused this long are closed. */
  idleMs: number;
}

export type EraBridgeFactory = (options: EraBridgeOptions) => EraBridge;
