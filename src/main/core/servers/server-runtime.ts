/**
 * A configured server at run time: how to open upstream connections to it. Per-session children
 * by default, with a pool of warm spares sized to demand (upstream/warm-pool.ts) so a new session
 * does not wait for a process to boot; one shared child for `shared: true`. Commands come from the
 * config only, never from a request (P28).
 */
import { isStdioServer, type RemoteServerConfig, type ServerConfig, type StdioServerConfig } from '../../../shared/config-schema.js';
import { PATCHBAY_VERSION } from '../home/version.js';
import type { HubReach, ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { EraSniffer } from '../upstream/era-sniffer.js';
import { ModernBridgeUpstream } from '../bridge/modern-bridge-upstream.js';
import { ModernRemoteChannel } from '../upstream/modern-remote.js';
import { ModernStdioChannel } from '../upstream/modern-stdio.js';
import type { ModernUpstream } from '../upstream/modern-upstream.js';
import { createRemoteUpstream, transportOf, type RemoteConnectDeps } from '../upstream/remote-connect.js';
import { SharedUpstream } from '../upstream/shared-upstream.js';
import { StdioUpstream, type StdioSpawnSpec, type StdioUpstreamOptions } from '../upstream/stdio-upstream.js';
import type { ClientIdentity, UpstreamConnection } from '../upstream/upstream.js';
import { WarmPool } from '../upstream/warm-pool.js';
import { configuredFacts, probeEra, type EraFacts } from './server-era.js';

export interface ServerRuntimeDeps {
  /** Resolves `${secret:NAME}` references; runs each time a child is started. */
  resolveSecrets(server: ServerConfig, serverId: string): Promise<ServerConfig>;
  /** The environment a child gets, given its configured env. */
  childEnv(configured: Record<string, string> | undefined): Promise<Record<string, string>>;
  logger: Logger;
  stdio?: StdioUpstreamOptions;
  /** Spare children not taken from within this long are stopped. */
  spareIdleMs?: number;
  /** Remote (HTTP) servers: fetch and OAuth. Without it a remote server cannot be connected. */
  remote?: Omit<RemoteConnectDeps, 'logger'>;
  /** How long the era probe waits for `server/discover` (default 15 s). */
  probeTimeoutMs?: number;
  /**
   * The command line of a server whose entry asks for a sandbox (the engine passes
   * sandbox/sandbox-spawn.ts's); absent, such a server is refused, never run unsandboxed.
   */
  sandbox?: (server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec) => Promise<StdioSpawnSpec>;
  /**
   * Wraps each upstream this runtime hands out, in both eras (the engine passes the secret
   * checks', guard/secret-guard.ts); each may return what it was given (a server with checks off).
   */
  guard?: {
    /** `who`: the session's client, for what a check reports. */
    connection(connection: UpstreamConnection, serverId: string, server: ServerConfig, who?: () => ClientIdentity): UpstreamConnection;
    modern(upstream: ModernUpstream, serverId: string, server: ServerConfig): ModernUpstream;
  };
}

export class ServerRuntime implements ServerPort {
  /** Children started over the runtime's life, for stats and tests. */
  spawned = 0;
  /** Warm spares (per-session children only; undefined when `warmSpare` is off). */
  private readonly pool: WarmPool | undefined;
  private readonly shared: SharedUpstream | undefined;
  private readonly live = new Set<StdioUpstream>();
  private closing = false;
  /** Which eras the server speaks: from the config, else learned, each on its own (server-era.ts). */
  private readonly facts: EraFacts;
  private probing: Promise<boolean> | undefined;
  /** Modern requests to a modern server, passed through: one per runtime. */
  private passThrough: Promise<ModernUpstream> | undefined;
  /** That channel as the guard wraps it (made once per channel). */
  private guarded: { channel: ModernUpstream; upstream: ModernUpstream } | undefined;

  constructor(
    readonly id: string,
    readonly config: ServerConfig,
    private readonly deps: ServerRuntimeDeps,
  ) {
    if (isStdioServer(config) && config.shared) this.shared = new SharedUpstream(() => this.spawn());
    const spares = isStdioServer(config) && !config.shared && !config.stateless ? config.warmSpare ?? true : false;
    const max = spares === true ? DEFAULT_MAX_SPARES : spares === false ? 0 : spares;
    if (max > 0) this.pool = new WarmPool({ spawn: () => this.spawn(), max, idleMs: deps.spareIdleMs ?? 60_000 });
    this.facts = configuredFacts(config.protocol);
    // The legacy HTTP+SSE transport exists only in the legacy era: pinning it pins the era.
    if (!this.facts.legacy && !isStdioServer(config) && transportOf(config) === 'sse') {
      this.facts.legacy = { speaks: true, how: 'config' };
      this.facts.modern = { speaks: false, how: 'config' };
    }
  }

  /** What is known of the eras the server speaks (each fact absent until learned). */
  get era(): EraFacts {
    return this.facts;
  }

  /**
   * Where a modern client's requests go: straight to the server when it speaks the modern era;
   * undefined when it does not (the hub then bridges, over `connect()`). Asks the server first
   * when nobody knows yet, whatever is known of its legacy side (PROTOCOL Q11).
   */
  async modernUpstream(): Promise<ModernUpstream | undefined> {
    const speaks = this.facts.modern?.speaks ?? (await this.probe());
    if (!speaks) return undefined;
    const channel = await this.modernChannel();
    const guard = this.deps.guard;
    if (!guard) return channel;
    if (this.guarded?.channel !== channel) this.guarded = { channel, upstream: guard.modern(channel, this.id, this.config) };
    return this.guarded.upstream;
  }

  private probe(): Promise<boolean> {
    this.probing ??= (async () => {
      const channel = await this.modernChannel();
      const stdio = isStdioServer(this.config);
      const found = await probeEra(channel, {
        serverId: this.id,
        version: PATCHBAY_VERSION,
        // The same for stdio: the wait includes the child's start (several seconds for an npx
        // server on a busy machine), and only a legacy server that ignores unknown requests
        // before initialize (most answer -32601 at once) costs the first modern client this wait.
        timeoutMs: this.deps.probeTimeoutMs ?? 15_000,
        silenceIsLegacy: stdio,
      });
      // Debug: `relay --url` prints nothing on a normal start (its stderr lands in the client's log).
      this.deps.logger.debug(`server '${this.id}' ${found.modern ? 'speaks' : 'does not speak'} the 2026-07-28 protocol era (server/discover)${found.versions ? `: ${found.versions.join(', ')}` : ''}`);
      if (!found.modern) {
        // A legacy child that got a request before initialize may be in any state: not reused.
        const stale = this.passThrough;
        this.passThrough = undefined;
        void stale?.then((c) => c.close());
      }
      this.facts.modern ??= { speaks: found.modern, how: 'probe' };
      if (found.discover) this.facts.discover = found.discover;
      if (found.versions) this.facts.versions = found.versions;
      return this.facts.modern.speaks;
    })().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private modernChannel(): Promise<ModernUpstream> {
    this.passThrough ??= (async (): Promise<ModernUpstream> => {
      if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
      const logger = this.deps.logger.child(this.id);
      if (isStdioServer(this.config)) return new ModernStdioChannel(this.id, () => this.spawn(), logger);
      if (!this.deps.remote) throw new Error(`server '${this.id}' is a remote server, and this engine was started without remote support`);
      const resolved = (await this.deps.resolveSecrets(this.config, this.id)) as RemoteServerConfig;
      const auth = this.deps.remote.oauth?.remoteAuth(this.id, this.config);
      return new ModernRemoteChannel({ serverId: this.id, url: resolved.url, headers: { ...(resolved.headers ?? {}) }, fetch: this.deps.remote.fetch, ...(auth ? { auth } : {}), logger });
    })();
    // A failure to create it (a missing secret) is not kept: the next request tries again.
    this.passThrough.catch(() => {
      this.passThrough = undefined;
    });
    return this.passThrough;
  }

  get kind(): 'stdio' | 'remote' {
    return isStdioServer(this.config) ? 'stdio' : 'remote';
  }

  get stateless(): boolean {
    return isStdioServer(this.config) && config(this.config).stateless === true;
  }

  get requestTimeoutMs(): number | undefined {
    return this.config.requestTimeoutMs;
  }

  get startupTimeoutMs(): number | undefined {
    return this.config.startupTimeoutMs;
  }

  /** How the hub reaches the server as configured (a remote on `auto` may still fall back to SSE). */
  get transportLabel(): string {
    if (isStdioServer(this.config)) return this.stateless ? 'stdio-stateless' : this.config.shared === true ? 'stdio-shared' : 'stdio';
    const c = this.config as Record<string, unknown>;
    const t = c.transport ?? c.type;
    return t === 'sse' ? 'sse' : t === 'streamable-http' || t === 'http' || t === 'streamableHttp' ? 'streamable-http' : 'http';
  }

  /** Children running now (spare and shared child included). */
  get childCount(): number {
    return this.live.size;
  }

  /**
   * A connection for a legacy (2025) client's session: to the server itself unless it is known
   * not to speak the legacy era, and then through the bridge (modern-bridge-upstream.ts). While
   * that is unknown the client's own initialize asks (era-sniffer.ts): nothing is probed first,
   * since a silent legacy server would hold every first session up for a probe's timeout, and
   * what a `server/discover` says tells nothing of the legacy side (PROTOCOL Q11).
   */
  async connect(hub?: HubReach): Promise<UpstreamConnection> {
    const connection = await this.openConnection();
    return this.deps.guard ? this.deps.guard.connection(connection, this.id, this.config, hub?.who) : connection;
  }

  private async openConnection(): Promise<UpstreamConnection> {
    if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
    if (this.facts.legacy?.speaks === false) return new ModernBridgeUpstream(this.id, await this.modernChannel());
    const connection = await this.legacyConnection();
    if (this.facts.legacy) return connection;
    return new EraSniffer(
      connection,
      (found) => {
        if (this.facts.legacy) return;
        this.facts.legacy = { speaks: found.era === 'legacy', how: 'initialize' };
        if (found.era === 'modern') {
          // Its refusal named the modern revisions it speaks.
          this.facts.modern ??= { speaks: true, how: 'initialize' };
          this.facts.versions ??= found.versions;
        }
        this.deps.logger.debug(`server '${this.id}' ${found.era === 'legacy' ? 'speaks' : 'does not speak'} the 2025 protocol era (its answer to initialize)`);
      },
      async () => new ModernBridgeUpstream(this.id, await this.modernChannel()),
    );
  }

  private async legacyConnection(): Promise<UpstreamConnection> {
    if (!isStdioServer(this.config)) {
      // One remote connection (one upstream session) per downstream session; nothing to pre-warm.
      if (!this.deps.remote) throw new Error(`server '${this.id}' is a remote server, and this engine was started without remote support`);
      const resolved = (await this.deps.resolveSecrets(this.config, this.id)) as RemoteServerConfig;
      if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
      return createRemoteUpstream(this.id, this.config, resolved, { ...this.deps.remote, logger: this.deps.logger.child(this.id) });
    }
    if (this.shared) return this.shared.link();
    const child = this.pool?.take() ?? (await this.spawn());
    this.pool?.refill();
    return child;
  }

  async close(): Promise<void> {
    this.closing = true;
    void this.passThrough?.then((c) => c.close(), () => undefined);
    await this.pool?.close();
    await Promise.all([...this.live].map((c) => c.close()));
    await this.shared?.close();
  }

  private async spawn(): Promise<StdioUpstream> {
    const resolved = config(await this.deps.resolveSecrets(this.config, this.id));
    const env = await this.deps.childEnv(resolved.env);
    // close() may have run while we awaited: starting a child now would orphan it.
    if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
    let spec: StdioSpawnSpec = { serverId: this.id, command: resolved.command, args: resolved.args ?? [], env, cwd: resolved.cwd };
    if (resolved.sandbox) {
      if (!this.deps.sandbox) throw new Error(`server '${this.id}' is set to run in a sandbox, and this engine has none`);
      spec = await this.deps.sandbox(resolved, this.id, spec);
      if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
    }
    const child = new StdioUpstream(spec, { ...this.deps.stdio, logger: this.deps.logger.child(this.id) });
    this.spawned++;
    this.live.add(child);
    void child.exitedPromise().then(() => this.live.delete(child));
    return child;
  }
}

/** `warmSpare: true` (the default): the pool grows with demand up to this many spares. */
const DEFAULT_MAX_SPARES = 4;

function config(server: ServerConfig): StdioServerConfig {
  return server as StdioServerConfig;
}
