/**
 * A profile as the hub sees it: a ServerPort like any server's. Its `connect()` opens an
 * aggregated legacy session (aggregate-upstream.ts); its `modernUpstream()` is the modern
 * aggregate that serves the profile's 2026-07-28 clients (modern-aggregate.ts), reaching each
 * member in the member's best era. It keeps its live aggregates so that a profile edit (a toggle,
 * a member added) or an approval reaches connected clients as list changes — legacy sessions and
 * modern listen streams alike — without ending them. What the hub lends it (HubReach: a session's
 * on `connect(hub)`, the latest on `modernUpstream(hub)`) is how its aggregates reach members in
 * the modern era and report each member's traffic to the observers (member-watch.ts).
 */
import type { HubReach, ServerPort } from '../hub/server-port.js';
import type { ModernUpstream } from '../upstream/modern-upstream.js';
import type { UpstreamConnection } from '../upstream/upstream.js';
import type { AggregateHost, ProfileDeps } from './aggregate-host.js';
import { AggregateUpstream } from './aggregate-upstream.js';
import { ModernAggregate } from './modern-aggregate.js';
import type { ResolvedProfile } from './profile-config.js';

/** How much longer than its members' own deadlines the profile's backstop deadline is. */
const BACKSTOP_GRACE_MS = 1000;

/** `@name`: the id of a profile's sessions, and the path after `/mcp/`. */
export function profileId(name: string): string {
  return `@${name}`;
}

export class ProfilePort implements ServerPort {
  readonly stateless = false;
  /** The aggregate answers `initialize` itself once its members did or its own wait ran out. */
  readonly startupTimeoutMs = undefined;
  readonly transportLabel = 'profile';
  private readonly live = new Set<AggregateUpstream>();
  private modern: ModernAggregate | undefined;
  private reach: HubReach | undefined;

  constructor(
    private resolved: ResolvedProfile,
    private readonly deps: ProfileDeps,
  ) {}

  get id(): string {
    return profileId(this.resolved.name);
  }

  get profile(): ResolvedProfile {
    return this.resolved;
  }

  /**
   * The deadline the hub puts on a client's request to the profile. Each member's own
   * `requestTimeoutMs` is applied by the aggregates themselves (with an error naming the member);
   * this one is the backstop behind them and only has to let the longest run, its members'
   * startup included: a little longer than the longest when every enabled member sets one (never
   * less than the profile's own deadline for its requests to members), else the hub's default.
   */
  get requestTimeoutMs(): number | undefined {
    let longest = 0;
    for (const member of this.resolved.members) {
      if (member.state !== 'enabled') continue;
      const own = this.deps.port(member.server)?.requestTimeoutMs;
      if (own === undefined) return undefined;
      longest = Math.max(longest, own);
    }
    return longest > 0 ? Math.max(longest + BACKSTOP_GRACE_MS, this.deps.requestTimeoutMs) : undefined;
  }

  /** Aggregated sessions open now. */
  get sessions(): ReadonlySet<AggregateUpstream> {
    return this.live;
  }

  /**
   * A new aggregated session. `hub`: what the hub lent the client's session (its members' traffic
   * is observed through it, nested under that session); none for the engine's own (the inventory).
   */
  connect(hub?: HubReach): Promise<UpstreamConnection> {
    const aggregate = new AggregateUpstream({ ...this.aggregateHost(), reach: hub, closed: (a) => this.live.delete(a) });
    this.live.add(aggregate);
    return Promise.resolve(aggregate);
  }

  /** The profile's modern aggregate: one for all its modern clients (the era has no sessions). */
  modernUpstream(hub: HubReach): Promise<ModernUpstream | undefined> {
    this.reach = hub;
    this.modern ??= new ModernAggregate({ ...this.aggregateHost(), reach: () => this.reach! });
    return Promise.resolve(this.modern);
  }

  /** What both aggregates (legacy sessions, modern requests) are given of the profile. */
  private aggregateHost(): AggregateHost {
    const { deps } = this;
    return {
      profile: () => this.resolved,
      port: (server) => deps.port(server),
      catalog: deps.catalog,
      pins: deps.pins,
      version: deps.version,
      logger: deps.logger.child(this.id),
      initWaitMs: deps.initWaitMs,
      requestTimeoutMs: deps.requestTimeoutMs,
    };
  }

  /** The profile or the servers changed: every live session and listen stream follows. */
  update(next: ResolvedProfile): void {
    this.resolved = next;
    for (const aggregate of this.live) aggregate.reconfigure();
    this.modern?.reconfigure();
  }

  pinsChanged(): void {
    for (const aggregate of this.live) aggregate.pinsChanged();
    this.modern?.pinsChanged();
  }

  async close(): Promise<void> {
    const modern = this.modern;
    this.modern = undefined;
    await Promise.all([...[...this.live].map((a) => a.close()), modern?.close()]);
  }
}
