/**
 * Edits of the `profiles` section, as the UI and CLI make them: each one a mutation of a draft of
 * config.json that the config store then validates and writes (keeping the file's other keys and
 * formatting). Toggles keep rules readable: turning a tool off adds its name to the member's
 * `deny` list; turning it on takes it out again (or adds it to an `allow` list that excludes it).
 */
import {
  ALL_SERVERS,
  DEFAULT_PROFILE,
  type ItemRule,
  type PatchbayConfig,
  type ProfileConfig,
  type ProfileMemberConfig,
} from '../../../shared/config-schema.js';
import { ApiError } from '../api/api-registry.js';
import { matchesAny } from './item-filter.js';
import { applyOnDemand, type OnDemandChange } from './on-demand-edits.js';
import { BUILT_IN_DEFAULT, writtenMembers } from './profile-config.js';

export type ItemKind = 'tools' | 'prompts' | 'resources';

export interface ProfileOptions {
  description?: string | undefined;
  prefix?: boolean | undefined;
  holdChangedTools?: ProfileConfig['holdChangedTools'];
  /** On-demand tools: on/off, the pinned list, per client (on-demand-edits.ts). */
  onDemand?: OnDemandChange | undefined;
}

export function createProfile(draft: PatchbayConfig, name: string, servers: readonly string[] | undefined, options: ProfileOptions): void {
  const profiles = (draft.profiles ??= {});
  if (profiles[name]) throw new ApiError('profile_exists', `A profile named '${name}' already exists: choose another name, or edit that one.`);
  const entry: ProfileConfig = {};
  if (options.description !== undefined) entry.description = options.description;
  entry.servers = servers ? [...servers] : [ALL_SERVERS];
  setOptions(entry, options);
  profiles[name] = entry;
}

export function removeProfile(draft: PatchbayConfig, name: string): boolean {
  if (!draft.profiles?.[name]) return false;
  delete draft.profiles[name];
  if (Object.keys(draft.profiles).length === 0) delete draft.profiles;
  return true;
}

export function updateProfile(draft: PatchbayConfig, name: string, options: ProfileOptions): void {
  setOptions(editable(draft, name), options);
}

export function addServer(draft: PatchbayConfig, name: string, server: string): void {
  const profile = editable(draft, name);
  if (!draft.mcpServers[server]) throw new ApiError('server_not_found', `There is no server '${server}' in the config.`);
  const members = writtenMembers(profile);
  if (members.some(([id]) => id === server)) return;
  if (Array.isArray(profile.servers) || profile.servers === undefined) profile.servers = [...members.map(([id]) => id), server];
  else profile.servers[server] = {};
}

/** Removes a member; a server that is in the profile only through "*" needs "*" spelled out. */
export function removeServer(draft: PatchbayConfig, name: string, server: string): void {
  const profile = editable(draft, name);
  const members = writtenMembers(profile);
  const named = members.some(([id]) => id === server);
  const viaAll = !named && members.some(([id]) => id === ALL_SERVERS) && draft.mcpServers[server] !== undefined;
  if (!named && !viaAll) throw new ApiError('member_not_found', `Server '${server}' is not in profile '${name}'.`);
  let entries = members;
  if (viaAll) {
    // "*" means "every enabled server": to leave one out, the others are listed by name instead.
    const listed = new Set(members.map(([id]) => id));
    const rest = Object.entries(draft.mcpServers).filter(([id, s]) => !listed.has(id) && s.disabled !== true && id !== server);
    const all = members.find(([id]) => id === ALL_SERVERS)![1];
    entries = members.flatMap(([id, rules]): Array<[string, ProfileMemberConfig]> => (id === ALL_SERVERS ? rest.map(([r]) => [r, structuredClone(all)]) : [[id, rules]]));
  }
  entries = entries.filter(([id]) => id !== server);
  profile.servers = Array.isArray(profile.servers) || profile.servers === undefined ? entries.map(([id]) => id) : Object.fromEntries(entries);
}

/** Turns one tool, prompt or resource (a name or URI) of a member on or off. */
export function setItem(draft: PatchbayConfig, name: string, server: string, kind: ItemKind, item: string, enabled: boolean): void {
  const profile = editable(draft, name);
  const members = writtenMembers(profile);
  const named = members.find(([id]) => id === server);
  if (!named && !(members.some(([id]) => id === ALL_SERVERS) && draft.mcpServers[server])) {
    throw new ApiError('member_not_found', `Server '${server}' is not in profile '${name}'.`);
  }
  // Rules need the object form: {"fs": {"tools": {...}}}; a server covered by "*" gets its own entry.
  const servers = Object.fromEntries(members) as Record<string, ProfileMemberConfig>;
  const member = (servers[server] ??= structuredClone(servers[ALL_SERVERS] ?? {}));
  const rule = toggled(member[kind], item, enabled, `${kind} of '${server}' in profile '${name}'`);
  if (rule === undefined) delete member[kind];
  else member[kind] = rule;
  profile.servers = servers;
}

function toggled(rule: ItemRule | undefined, item: string, enabled: boolean, where: string): ItemRule | undefined {
  let allow = rule === undefined || rule === true ? undefined : rule === false ? [] : Array.isArray(rule) ? [...rule] : rule.allow ? [...rule.allow] : undefined;
  let deny = rule === undefined || typeof rule === 'boolean' || Array.isArray(rule) ? [] : [...(rule.deny ?? [])];
  const extra = rule !== undefined && typeof rule === 'object' && !Array.isArray(rule) ? rule : {};
  if (enabled) {
    deny = deny.filter((g) => g !== item);
    const glob = deny.find((g) => matchesAny(item, [g]));
    if (glob) throw new ApiError('denied_by_pattern', `'${item}' is turned off by the pattern "${glob}" in the ${where}; edit that pattern in config.json.`);
    if (allow !== undefined && !matchesAny(item, allow)) allow.push(item);
  } else if (allow === undefined || matchesAny(item, allow)) {
    if (allow?.includes(item) && !deny.length) allow = allow.filter((g) => g !== item);
    else if (!deny.includes(item)) deny.push(item);
  }
  const out: Record<string, unknown> = { ...extra };
  delete out.allow;
  delete out.deny;
  if (allow !== undefined) out.allow = allow;
  if (deny.length > 0) out.deny = deny;
  if (Object.keys(out).length === 0) return undefined;
  return out as ItemRule;
}

/** The profile's entry, written out first when it is the built-in default. */
function editable(draft: PatchbayConfig, name: string): ProfileConfig {
  const profiles = (draft.profiles ??= {});
  if (!profiles[name] && name === DEFAULT_PROFILE) profiles[name] = structuredClone(BUILT_IN_DEFAULT);
  const profile = profiles[name];
  if (!profile) throw new ApiError('profile_not_found', `There is no profile '${name}' (patchbay profiles list shows them).`);
  return profile;
}

function setOptions(entry: ProfileConfig, options: ProfileOptions): void {
  if (options.description !== undefined) {
    if (options.description === '') delete entry.description;
    else entry.description = options.description;
  }
  if (options.prefix === true) delete entry.prefix;
  else if (options.prefix === false) entry.prefix = false;
  if (options.holdChangedTools === 'remote') delete entry.holdChangedTools;
  else if (options.holdChangedTools !== undefined) entry.holdChangedTools = options.holdChangedTools;
  if (options.onDemand !== undefined) applyOnDemand(entry, options.onDemand);
}
