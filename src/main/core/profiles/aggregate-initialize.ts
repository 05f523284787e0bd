/**
 * The aggregated endpoint's own `initialize` answer: the version the client asked for when the
 * hub serves it, capabilities merged honestly (a kind is declared when a member has it; list
 * changes are always announced, since a user's toggle changes lists too), and the members'
 * instructions, one heading per server.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { MemberInit } from './member-link.js';
import type { ResolvedProfile } from './profile-config.js';

export interface MemberAnswer {
  server: string;
  init: MemberInit | undefined;
}

export interface MergedInitialize {
  result: Record<string, unknown>;
  /** Which list kinds the client was told may change. */
  declared: { tools: boolean; prompts: boolean; resources: boolean };
}

export function mergedInitialize(profile: ResolvedProfile, requested: unknown, members: readonly MemberAnswer[], version: string): MergedInitialize {
  const supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  const protocolVersion = typeof requested === 'string' && supported.includes(requested) ? requested : supported[supported.length - 1]!;
  const has = (kind: string): boolean => members.some((m) => m.init?.capabilities[kind] !== undefined);
  const capabilities: Record<string, unknown> = { tools: { listChanged: true } };
  if (has('prompts')) capabilities.prompts = { listChanged: true };
  if (has('resources')) {
    const subscribe = members.some((m) => (m.init?.capabilities.resources as { subscribe?: unknown } | undefined)?.subscribe === true);
    capabilities.resources = { listChanged: true, ...(subscribe ? { subscribe: true } : {}) };
  }
  if (has('logging')) capabilities.logging = {};
  if (has('completions')) capabilities.completions = {};
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities,
    serverInfo: { name: 'patchbay', title: `Patchbay profile '${profile.name}'`, version },
  };
  const instructions = mergedInstructions(profile, members);
  if (instructions) result.instructions = instructions;
  return { result, declared: { tools: true, prompts: capabilities.prompts !== undefined, resources: capabilities.resources !== undefined } };
}

function mergedInstructions(profile: ResolvedProfile, members: readonly MemberAnswer[]): string | undefined {
  const given = members.filter((m) => typeof m.init?.instructions === 'string' && m.init.instructions.trim() !== '');
  if (!profile.prefix) return given[0]?.init?.instructions;
  if (given.length === 0) return undefined;
  const lead = `This endpoint combines several MCP servers. Their tools and prompts are named <server>__<name>; each server's own instructions follow under its name.`;
  return [lead, ...given.map((m) => `## ${m.server}\n\n${m.init!.instructions!.trim()}`)].join('\n\n');
}
