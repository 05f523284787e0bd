/**
 * Edits of a profile's `onDemand` block (docs/profiles.md, "On-demand tools"), as the UI and the
 * CLI make them through `profiles.update`: on or off for the profile, the pinned list (set it, or
 * pin and unpin single tools), and per client on, off or back to the profile's default.
 *
 * The block is written as small as it can be: `true` when it is only on, no block at all when it
 * is off with nothing pinned and no client entries — so a switch flipped on and off again leaves
 * config.json as it was. Keys this code does not know are kept (the schema is loose).
 */
import type { ProfileConfig } from '../../../shared/config-schema.js';
import { ApiError } from '../api/api-registry.js';
import { globToRegExp } from './item-filter.js';

/** A client token's client id, as `patchbay export` mints them (`cursor`, `claude-code`). */
const CLIENT_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What `profiles.update` may change of on-demand tools; every field optional. */
export interface OnDemandChange {
  /** On or off for the profile's clients (a client's own entry still wins). */
  enabled?: boolean | undefined;
  /** The whole pinned list (exposed names or globs), replacing what is there. */
  pinned?: string[] | undefined;
  /** Exposed names (or globs) to add to the pinned list. */
  pin?: string[] | undefined;
  /** Entries to take out of the pinned list (exactly as written). */
  unpin?: string[] | undefined;
  /** Per client id: on, off, or `null` for the profile's default (the entry removed). */
  clients?: Record<string, boolean | null> | undefined;
}

export function applyOnDemand(entry: ProfileConfig, change: OnDemandChange): void {
  const written = entry.onDemand;
  const extra: Record<string, unknown> = typeof written === 'object' ? { ...written } : {};
  delete extra.enabled;
  delete extra.pinned;
  delete extra.clients;
  // As the engine reads it (profile-config.ts): an object is on unless it says `enabled: false`.
  let enabled = written === true || (typeof written === 'object' && written.enabled !== false);
  let pinned = typeof written === 'object' ? [...(written.pinned ?? [])] : [];
  const clients: Record<string, boolean> = typeof written === 'object' ? { ...(written.clients ?? {}) } : {};

  if (change.enabled !== undefined) enabled = change.enabled;
  if (change.pinned !== undefined) pinned = unique(change.pinned);
  for (const name of change.pin ?? []) if (!pinned.includes(name)) pinned.push(name);
  for (const name of change.unpin ?? []) {
    pinned = pinned.filter((p) => p !== name);
    // A pattern that still lists it would make the unpin a silent no-op: say where it comes from.
    const glob = pinned.find((p) => globToRegExp(p).test(name));
    if (glob) throw new ApiError('pinned_by_pattern', `'${name}' is pinned by the pattern "${glob}" in the profile's onDemand.pinned; unpin that pattern, or edit it in config.json.`);
  }
  for (const [client, on] of Object.entries(change.clients ?? {})) {
    if (!CLIENT_ID.test(client)) {
      throw new ApiError('invalid_client_id', `'${client.slice(0, 64)}' is not a client id: use the id of a client token (cursor, claude-code, …: lower-case letters, digits, ".", "_" and "-").`);
    }
    if (on === null) delete clients[client];
    else clients[client] = on;
  }

  const rest = Object.keys(extra).length > 0;
  if (!rest && pinned.length === 0 && Object.keys(clients).length === 0) {
    if (enabled) entry.onDemand = true;
    else delete entry.onDemand;
    return;
  }
  const out: Record<string, unknown> = { ...extra };
  if (!enabled) out.enabled = false;
  if (pinned.length > 0) out.pinned = pinned;
  if (Object.keys(clients).length > 0) out.clients = clients;
  entry.onDemand = out as ProfileConfig['onDemand'];
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
