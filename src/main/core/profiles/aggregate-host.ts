/**
 * What a profile's aggregates are given, in one place for both eras: the legacy aggregate that is
 * the upstream of one 2025 session (aggregate-upstream.ts) and the modern aggregate that serves
 * every 2026-07-28 client of the profile (modern-aggregate.ts). The registry hands a profile's
 * port (profile-port.ts) its ProfileDeps; the port adds the profile itself and what the hub lent
 * it, and each era's aggregate takes the one extension it needs.
 */
import type { HubReach, ServerPort } from '../hub/server-port.js';
import type { Logger } from '../log/logger.js';
import type { AggregateUpstream } from './aggregate-upstream.js';
import type { ResolvedProfile } from './profile-config.js';
import type { ServerCatalog } from './server-catalog.js';
import type { ToolPins } from './tool-pins.js';

/** What the profile registry gives every profile's port. */
export interface ProfileDeps {
  /** The runtime of a server now (config reloads replace runtimes). */
  port(server: string): ServerPort | undefined;
  /** What every member said of itself and listed, across sessions (for the inventory, and as a fallback). */
  catalog: ServerCatalog;
  pins: ToolPins | undefined;
  /** Patchbay's version, for the aggregate's own `serverInfo`. */
  version: string;
  logger: Logger;
  /** How long the aggregated `initialize` (or `server/discover`, a listen's start) waits for slow members. */
  initWaitMs: number;
  /** Deadline of the aggregate's own requests to members (lists, fan-outs) that set none of their own. */
  requestTimeoutMs: number;
}

/** What both aggregates are given: the deps, and the profile's resolution now (edits replace it). */
export interface AggregateHost extends ProfileDeps {
  profile(): ResolvedProfile;
}

/** The legacy aggregate's: what the hub lent the session it serves, and who to tell when it closes. */
export interface LegacyAggregateHost extends AggregateHost {
  /** The hub's reach for this session (its members' watches); none when the engine itself opened it (the inventory's probe). */
  reach: HubReach | undefined;
  closed(aggregate: AggregateUpstream): void;
}

/** The modern aggregate's: what the hub lent the profile on its latest modern request (it has no session of its own). */
export interface ModernAggregateHost extends AggregateHost {
  reach(): HubReach;
}
