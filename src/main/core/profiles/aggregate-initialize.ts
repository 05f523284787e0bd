/**
 * What an aggregate says of itself, in both eras: the legacy `initialize` answer (the version the
 * client asked for when the hub serves it) and the modern `server/discover` answer (the modern
 * revisions). Capabilities are merged honestly — a kind is declared when a member has it; list
 * changes are always announced, since a user's toggle changes lists too — and the members'
 * instructions come one heading per server.
 */
import { META, MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { CacheHints } from './aggregate-lists.js';
import type { MemberInit } from './member-source.js';
import type { ResolvedProfile } from './profile-config.js';

export interface MemberAnswer {
  server: string;
  init: MemberInit | undefined;
}

/** Which list kinds the client was told may change. */
export interface DeclaredLists {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
}

export interface MergedInitialize {
  result: Record<string, unknown>;
  declared: DeclaredLists;
}

/** The capabilities of the members together, and the list kinds whose changes are announced. */
export function mergedCapabilities(members: readonly MemberAnswer[]): { capabilities: Record<string, unknown>; declared: DeclaredLists } {
  const has = (kind: string): boolean => members.some((m) => m.init?.capabilities[kind] !== undefined);
  const capabilities: Record<string, unknown> = { tools: { listChanged: true } };
  if (has('prompts')) capabilities.prompts = { listChanged: true };
  if (has('resources')) {
    const subscribe = members.some((m) => (m.init?.capabilities.resources as { subscribe?: unknown } | undefined)?.subscribe === true);
    capabilities.resources = { listChanged: true, ...(subscribe ? { subscribe: true } : {}) };
  }
  if (has('logging')) capabilities.logging = {};
  if (has('completions')) capabilities.completions = {};
  // Extensions (e.g. MCP Apps, io.modelcontextprotocol/ui): each one any member declares, with the
  // settings of the first that does — a client must not lose an extension because it is behind a profile.
  const extensions: Record<string, unknown> = {};
  for (const m of members) {
    const declared = m.init?.capabilities.extensions;
    if (typeof declared !== 'object' || declared === null) continue;
    for (const [id, settings] of Object.entries(declared)) if (!(id in extensions)) extensions[id] = settings;
  }
  if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  return { capabilities, declared: { tools: true, prompts: capabilities.prompts !== undefined, resources: capabilities.resources !== undefined } };
}

/** Who answers: Patchbay, naming the profile. */
export function profileServerInfo(profile: ResolvedProfile, version: string): Record<string, unknown> {
  return { name: 'patchbay', title: `Patchbay profile '${profile.name}'`, version };
}

export function mergedInitialize(profile: ResolvedProfile, requested: unknown, members: readonly MemberAnswer[], version: string): MergedInitialize {
  const supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  const protocolVersion = typeof requested === 'string' && supported.includes(requested) ? requested : supported[supported.length - 1]!;
  const { capabilities, declared } = mergedCapabilities(members);
  const result: Record<string, unknown> = { protocolVersion, capabilities, serverInfo: profileServerInfo(profile, version) };
  const instructions = mergedInstructions(profile, members);
  if (instructions) result.instructions = instructions;
  return { result, declared };
}

/** The aggregate's DiscoverResult (2026-07-28 server/discover). */
export function mergedDiscover(profile: ResolvedProfile, members: readonly MemberAnswer[], version: string, hints: CacheHints): Record<string, unknown> {
  const result: Record<string, unknown> = {
    resultType: 'complete',
    supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
    capabilities: mergedCapabilities(members).capabilities,
    _meta: { [META.serverInfo]: profileServerInfo(profile, version) },
  };
  const instructions = mergedInstructions(profile, members);
  if (instructions) result.instructions = instructions;
  result.ttlMs = hints.ttlMs;
  result.cacheScope = hints.cacheScope;
  return result;
}

/** Hints that promise nothing: stale at once, and private (what is said of a member not heard from). */
export const NO_HINTS: CacheHints = { ttlMs: 0, cacheScope: 'private' };

/** The most conservative of the members' cache hints (no member: nothing promised). */
export function mergedHints(hints: readonly CacheHints[]): CacheHints {
  if (hints.length === 0) return NO_HINTS;
  let ttlMs = Infinity;
  let cacheScope: CacheHints['cacheScope'] = 'public';
  for (const h of hints) {
    ttlMs = Math.min(ttlMs, h.ttlMs);
    if (h.cacheScope === 'private') cacheScope = 'private';
  }
  return { ttlMs, cacheScope };
}

export function mergedInstructions(profile: ResolvedProfile, members: readonly MemberAnswer[]): string | undefined {
  const given = members.filter((m) => typeof m.init?.instructions === 'string' && m.init.instructions.trim() !== '');
  if (!profile.prefix) return given[0]?.init?.instructions;
  if (given.length === 0) return undefined;
  const lead = `This endpoint combines several MCP servers. Their tools and prompts are named <server>__<name>; each server's own instructions follow under its name.`;
  return [lead, ...given.map((m) => `## ${m.server}\n\n${m.init!.instructions!.trim()}`)].join('\n\n');
}
