/**
 * A configured server at run time: how to open upstream connections to it. Per-session children
 * by default, with one warm spare child so a new session does not wait for a process to boot; one
 * shared child for `shared: true`. Commands come from the config only, never from a request (P28).
 */
import { isStdioServer, type RemoteServerConfig, type ServerConfig, type StdioServerConfig } from '../../../shared/config-schema.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { createRemoteUpstream, type RemoteConnectDeps } from '../upstream/remote-connect.js';
import { SharedUpstream } from '../upstream/shared-upstream.js';
import { StdioUpstream, type StdioUpstreamOptions } from '../upstream/stdio-upstream.js';
import type { UpstreamConnection } from '../upstream/upstream.js';

export interface ServerRuntimeDeps {
  /** Resolves `${secret:NAME}` references; runs each time a child is started. */
  resolveSecrets(server: ServerConfig, serverId: string): Promise<ServerConfig>;
  /** The environment a child gets, given its configured env. */
  childEnv(configured: Record<string, string> | undefined): Promise<Record<string, string>>;
  logger: Logger;
  stdio?: StdioUpstreamOptions;
  /** A spare child not taken within this long is stopped. */
  spareIdleMs?: number;
  /** Remote (HTTP) servers: fetch and OAuth. Without it a remote server cannot be connected. */
  remote?: Omit<RemoteConnectDeps, 'logger'>;
}

export class ServerRuntime implements ServerPort {
  /** Children started over the runtime's life, for stats and tests. */
  spawned = 0;
  private spare: StdioUpstream | undefined;
  private spareTimer: NodeJS.Timeout | undefined;
  private readonly shared: SharedUpstream | undefined;
  private readonly live = new Set<StdioUpstream>();
  private closing = false;

  constructor(
    readonly id: string,
    readonly config: ServerConfig,
    private readonly deps: ServerRuntimeDeps,
  ) {
    if (isStdioServer(config) && config.shared) this.shared = new SharedUpstream(() => this.spawn());
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

  async connect(): Promise<UpstreamConnection> {
    if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
    if (!isStdioServer(this.config)) {
      // One remote connection (one upstream session) per downstream session; nothing to pre-warm.
      if (!this.deps.remote) throw new Error(`server '${this.id}' is a remote server, and this engine was started without remote support`);
      const resolved = (await this.deps.resolveSecrets(this.config, this.id)) as RemoteServerConfig;
      if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
      return createRemoteUpstream(this.id, this.config, resolved, { ...this.deps.remote, logger: this.deps.logger.child(this.id) });
    }
    if (this.shared) return this.shared.link();
    let child = this.takeSpare();
    child ??= await this.spawn();
    if (this.config.warmSpare !== false && !this.stateless) this.refillSpare();
    return child;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.spareTimer);
    this.spare = undefined;
    await Promise.all([...this.live].map((c) => c.close()));
    await this.shared?.close();
  }

  private takeSpare(): StdioUpstream | undefined {
    const spare = this.spare;
    this.spare = undefined;
    clearTimeout(this.spareTimer);
    return spare && !spare.closed ? spare : undefined;
  }

  private refillSpare(): void {
    void this.spawn().then((child) => {
      if (this.closing || this.spare) {
        void child.close();
        return;
      }
      this.spare = child;
      this.spareTimer = setTimeout(() => {
        if (this.spare === child) this.spare = undefined;
        void child.close();
      }, this.deps.spareIdleMs ?? 60_000);
      this.spareTimer.unref();
    }).catch(() => {
      // The next connect() spawns directly and reports the failure to its session.
    });
  }

  private async spawn(): Promise<StdioUpstream> {
    const resolved = config(await this.deps.resolveSecrets(this.config, this.id));
    const env = await this.deps.childEnv(resolved.env);
    // close() may have run while we awaited: starting a child now would orphan it.
    if (this.closing) throw new Error(`server '${this.id}' is shutting down`);
    const child = new StdioUpstream(
      { serverId: this.id, command: resolved.command, args: resolved.args ?? [], env, cwd: resolved.cwd },
      { ...this.deps.stdio, logger: this.deps.logger.child(this.id) },
    );
    this.spawned++;
    this.live.add(child);
    void child.exitedPromise().then(() => this.live.delete(child));
    return child;
  }
}

function config(server: ServerConfig): StdioServerConfig {
  return server as StdioServerConfig;
}
