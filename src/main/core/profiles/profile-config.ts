/**
 * Profiles as the engine uses them, resolved from config.json: members in order (`"*"` expanded
 * to every enabled server not named), each with its compiled rules; the options with their
 * defaults. The built-in default profile (every enabled server, everything on) is used unless
 * the config defines `profiles.default`.
 */
import {
  ALL_SERVERS,
  DEFAULT_PROFILE,
  isStdioServer,
  type HoldChangedTools,
  type PatchbayConfig,
  type ProfileConfig,
  type ProfileMemberConfig,
} from '../../../shared/config-schema.js';
import { compileRule, type ItemFilter } from './item-filter.js';
import { ALL_TOOLS, type OnDemandSettings } from './on-demand.js';

export interface ResolvedMember {
  server: string;
  /** Only `enabled` members are connected; the others are shown as they are. */
  state: 'enabled' | 'disabled' | 'missing';
  kind: 'stdio' | 'remote' | undefined;
  /** Listed by name (not through `"*"`). */
  explicit: boolean;
  rules: ProfileMemberConfig;
  tools: ItemFilter;
  prompts: ItemFilter;
  resources: ItemFilter;
}

export interface ResolvedProfile {
  name: string;
  /** The default profile, not written in the config. */
  builtIn: boolean;
  description: string | undefined;
  prefix: boolean;
  holdChangedTools: HoldChangedTools;
  /** On-demand tools (on-demand.ts): off unless the config turns them on. */
  onDemand: OnDemandSettings;
  members: ResolvedMember[];
  /** Compares two resolutions: equal text, same behaviour. */
  fingerprint: string;
}

export const BUILT_IN_DEFAULT: ProfileConfig = { description: 'Every enabled server, everything on', servers: [ALL_SERVERS] };

export function resolveProfiles(config: PatchbayConfig): Map<string, ResolvedProfile> {
  const out = new Map<string, ResolvedProfile>();
  const profiles = config.profiles ?? {};
  if (!(DEFAULT_PROFILE in profiles)) out.set(DEFAULT_PROFILE, resolveProfile(DEFAULT_PROFILE, BUILT_IN_DEFAULT, config, true));
  for (const [name, profile] of Object.entries(profiles)) out.set(name, resolveProfile(name, profile, config, false));
  return out;
}

/** The members of a profile entry as written: id → rules, in order (`"*"` kept as a key). */
export function writtenMembers(profile: ProfileConfig): Array<[string, ProfileMemberConfig]> {
  const servers = profile.servers ?? [ALL_SERVERS];
  return Array.isArray(servers) ? servers.map((id) => [id, {}]) : Object.entries(servers);
}

function resolveProfile(name: string, profile: ProfileConfig, config: PatchbayConfig, builtIn: boolean): ResolvedProfile {
  const written = writtenMembers(profile);
  const named = new Set(written.map(([id]) => id).filter((id) => id !== ALL_SERVERS));
  const members: ResolvedMember[] = [];
  for (const [id, rules] of written) {
    if (id !== ALL_SERVERS) {
      members.push(member(id, rules, config, true));
      continue;
    }
    for (const [server, entry] of Object.entries(config.mcpServers)) {
      if (!named.has(server) && entry.disabled !== true) members.push(member(server, rules, config, false));
    }
  }
  const resolved = {
    name,
    builtIn,
    description: profile.description,
    prefix: profile.prefix !== false,
    holdChangedTools: profile.holdChangedTools ?? 'remote',
    onDemand: onDemandSettings(profile.onDemand),
    members,
  };
  const fingerprint = JSON.stringify({ ...resolved, members: members.map(({ server, state, kind, rules }) => ({ server, state, kind, rules })) });
  return { ...resolved, fingerprint };
}

function member(server: string, rules: ProfileMemberConfig, config: PatchbayConfig, explicit: boolean): ResolvedMember {
  const entry = config.mcpServers[server];
  return {
    server,
    state: entry === undefined ? 'missing' : entry.disabled === true ? 'disabled' : 'enabled',
    kind: entry === undefined ? undefined : isStdioServer(entry) ? 'stdio' : 'remote',
    explicit,
    rules,
    tools: compileRule(rules.tools),
    prompts: compileRule(rules.prompts),
    resources: compileRule(rules.resources),
  };
}

function onDemandSettings(written: ProfileConfig['onDemand']): OnDemandSettings {
  if (written === undefined || written === false) return ALL_TOOLS;
  if (written === true) return { ...ALL_TOOLS, enabled: true };
  // An object turns it on unless it says `enabled: false` (then only its `clients` may).
  return { enabled: written.enabled !== false, pinned: written.pinned ?? [], clients: written.clients ?? {} };
}

/** Whether a changed tool of this member is held back until approved. */
export function holdsChanged(profile: ResolvedProfile, member: ResolvedMember): boolean {
  return profile.holdChangedTools === 'always' || (profile.holdChangedTools === 'remote' && member.kind === 'remote');
}
