/**
 * The profiles at run time, beside the server registry: one ProfilePort per profile (the
 * built-in default included), kept in step with the config. The hub's id lookup goes through
 * `resolve`: `''` (`/mcp`) is the default profile, `@name` a named one, anything else a server.
 * A profile edit updates its port in place (connected clients get list changes); a profile that
 * is removed ends its sessions.
 */
import { DEFAULT_PROFILE, type PatchbayConfig } from '../../../shared/config-schema.js';
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import { resolveProfiles, type ResolvedProfile } from './profile-config.js';
import { ProfilePort, profileId } from './profile-port.js';
import { ServerCatalog } from './server-catalog.js';
import type { ToolPins } from './tool-pins.js';

export interface ProfileRegistryDeps {
  /** The server registry's lookup. */
  server(id: string): ServerPort | undefined;
  pins: ToolPins | undefined;
  version: string;
  logger: Logger;
  /** How long an aggregated `initialize` waits for slow members (default 30 s). */
  initWaitMs?: number;
  /** Deadline of the aggregate's own requests to members (default 60 s). */
  requestTimeoutMs?: number;
}

export class ProfileRegistry {
  readonly catalog = new ServerCatalog();
  private ports = new Map<string, ProfilePort>();
  private readonly offPins: (() => void) | undefined;

  constructor(
    config: PatchbayConfig,
    private readonly deps: ProfileRegistryDeps,
  ) {
    for (const [name, resolved] of resolveProfiles(config)) this.ports.set(name, this.newPort(resolved));
    this.offPins = deps.pins?.onChange((profile) => this.ports.get(profile)?.pinsChanged());
  }

  /** What the hub serves at `/mcp/<id>`: a profile for `''` and `@name`, else a server. */
  resolve(id: string): ServerPort | undefined {
    if (id === '') return this.ports.get(DEFAULT_PROFILE);
    if (id.startsWith('@')) return this.ports.get(id.slice(1));
    return this.deps.server(id);
  }

  get(name: string): ProfilePort | undefined {
    return this.ports.get(name);
  }

  names(): string[] {
    return [...this.ports.keys()];
  }

  /**
   * Follows a new config (after the server registry did). `retire` ends the sessions of a
   * profile that was removed. `changedServers` are the servers whose entries changed: what they
   * said before no longer describes them.
   */
  apply(next: PatchbayConfig, retire: (id: string) => Promise<void>, changedServers: readonly string[] = []): void {
    for (const server of changedServers) this.catalog.forget(server);
    const resolved = resolveProfiles(next);
    const ports = new Map<string, ProfilePort>();
    for (const [name, profile] of resolved) {
      const port = this.ports.get(name);
      if (port) {
        // Also when the profile itself is unchanged: its members' runtimes may have been replaced.
        port.update(profile);
        ports.set(name, port);
      } else ports.set(name, this.newPort(profile));
    }
    for (const [name, port] of this.ports) {
      if (ports.has(name)) continue;
      this.deps.logger.info(`profile '${name}' was removed: closing its sessions`);
      void retire(profileId(name)).then(() => port.close());
    }
    this.ports = ports;
  }

  async close(): Promise<void> {
    this.offPins?.();
    await Promise.all([...this.ports.values()].map((p) => p.close()));
  }

  private newPort(resolved: ResolvedProfile): ProfilePort {
    return new ProfilePort(resolved, {
      port: (server) => this.deps.server(server),
      catalog: this.catalog,
      pins: this.deps.pins,
      version: this.deps.version,
      logger: this.deps.logger.child('profiles'),
      initWaitMs: this.deps.initWaitMs ?? 30_000,
      requestTimeoutMs: this.deps.requestTimeoutMs ?? 60_000,
    });
  }
}
