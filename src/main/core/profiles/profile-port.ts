/**
 * A profile as the hub sees it: a ServerPort like any server's, whose `connect()` opens an
 * aggregated upstream (aggregate-upstream.ts). It keeps its live aggregates so that a profile
 * edit (a toggle, a member added) or an approval reaches connected clients as list changes,
 * without ending their sessions.
 */
import type { ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import type { UpstreamConnection } from '../upstream/upstream.js';
import { AggregateUpstream } from './aggregate-upstream.js';
import type { ResolvedProfile } from './profile-config.js';
import type { ServerCatalog } from './server-catalog.js';
import type { ToolPins } from './tool-pins.js';

export interface ProfilePortDeps {
  port(server: string): ServerPort | undefined;
  catalog: ServerCatalog;
  pins: ToolPins | undefined;
  version: string;
  logger: Logger;
  initWaitMs: number;
  requestTimeoutMs: number;
}

/** `@name`: the id of a profile's sessions, and the path after `/mcp/`. */
export function profileId(name: string): string {
  return `@${name}`;
}

export class ProfilePort implements ServerPort {
  readonly stateless = false;
  readonly requestTimeoutMs = undefined;
  /** The aggregate answers `initialize` itself once its members did or its own wait ran out. */
  readonly startupTimeoutMs = undefined;
  readonly transportLabel = 'profile';
  private readonly live = new Set<AggregateUpstream>();

  constructor(
    private resolved: ResolvedProfile,
    private readonly deps: ProfilePortDeps,
  ) {}

  get id(): string {
    return profileId(this.resolved.name);
  }

  get profile(): ResolvedProfile {
    return this.resolved;
  }

  /** Aggregated sessions open now. */
  get sessions(): ReadonlySet<AggregateUpstream> {
    return this.live;
  }

  connect(): Promise<UpstreamConnection> {
    const aggregate = new AggregateUpstream({
      profile: () => this.resolved,
      port: (server) => this.deps.port(server),
      catalog: this.deps.catalog,
      pins: this.deps.pins,
      version: this.deps.version,
      logger: this.deps.logger.child(this.id),
      initWaitMs: this.deps.initWaitMs,
      requestTimeoutMs: this.deps.requestTimeoutMs,
      closed: (a) => this.live.delete(a),
    });
    this.live.add(aggregate);
    return Promise.resolve(aggregate);
  }

  /** The profile or the servers changed: every live session follows. */
  update(next: ResolvedProfile): void {
    this.resolved = next;
    for (const aggregate of this.live) aggregate.reconfigure();
  }

  pinsChanged(): void {
    for (const aggregate of this.live) aggregate.pinsChanged();
  }

  async close(): Promise<void> {
    await Promise.all([...this.live].map((a) => a.close()));
  }
}
