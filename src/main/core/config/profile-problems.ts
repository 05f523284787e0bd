/**
 * The `profiles` section of config.json, checked by hand where zod's union errors ("Invalid
 * input") would not say which part is wrong: the member list, each member's tool / prompt /
 * resource rules and its `prefix`. Messages name keys and
 * types, never values (docs/profiles.md has the shape).
 */
import { ALL_SERVERS, profileSchema, SERVER_ID_PATTERN } from '../../../shared/config-schema.js';

export interface ProfileProblem {
  path: PropertyKey[];
  message: string;
}

const RULE_KINDS = ['tools', 'prompts', 'resources'] as const;
const RULE_EXAMPLE = 'true, false, a list of names or globs such as ["read_*"], or {"allow": [...], "deny": [...]}';
const SERVERS_EXAMPLE = '["fs", "github"] or {"fs": {}, "github": {"tools": ["get_*"]}}';

/** Every problem of one profile entry, with paths relative to the config root. */
export function profileProblems(name: string, entry: unknown): ProfileProblem[] {
  const base: PropertyKey[] = ['profiles', name];
  if (!isObject(entry)) return [{ path: base, message: `a profile must be an object such as {"servers": ["fs", "github"]}, got ${typeName(entry)}` }];
  const problems: ProfileProblem[] = [];
  // Everything but the member list, through the schema (its messages are clear enough there).
  const { servers, ...rest } = entry;
  const parsed = profileSchema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: [...base, ...issue.path], message: issue.message });
  }
  if (servers !== undefined) memberProblems(servers, [...base, 'servers'], problems);
  return problems;
}

/** Checks `servers`. */
function memberProblems(servers: unknown, path: PropertyKey[], out: ProfileProblem[]): void {
  if (Array.isArray(servers)) {
    const seen = new Set<string>();
    servers.forEach((id, i) => {
      if (typeof id !== 'string' || !isMemberKey(id)) out.push({ path: [...path, i], message: memberKeyMessage(id) });
      else if (seen.has(id)) out.push({ path: [...path, i], message: `"${id}" is listed twice` });
      else seen.add(id);
    });
    return;
  }
  if (!isObject(servers)) {
    out.push({ path, message: `must be a list of server ids or an object of server id → what it exposes, e.g. ${SERVERS_EXAMPLE}; got ${typeName(servers)}` });
    return;
  }
  for (const [id, member] of Object.entries(servers)) {
    const at = [...path, id];
    if (!isMemberKey(id)) out.push({ path: at, message: memberKeyMessage(id) });
    if (!isObject(member)) {
      out.push({ path: at, message: `a member must be an object such as {} (everything) or {"tools": ["read_*"]}, got ${typeName(member)}` });
      continue;
    }
    for (const kind of RULE_KINDS) if (kind in member) ruleProblems(member[kind], [...at, kind], out);
    if ('prefix' in member && typeof member.prefix !== 'boolean') out.push({ path: [...at, 'prefix'], message: `must be true or false, got ${typeName(member.prefix)}` });
  }
}

function ruleProblems(rule: unknown, path: PropertyKey[], out: ProfileProblem[]): void {
  if (typeof rule === 'boolean') return;
  if (Array.isArray(rule)) return globListProblems(rule, path, out);
  if (isObject(rule)) {
    for (const key of ['allow', 'deny'] as const) {
      if (!(key in rule)) continue;
      if (!Array.isArray(rule[key])) out.push({ path: [...path, key], message: `must be a list of names or globs, got ${typeName(rule[key])}` });
      else globListProblems(rule[key] as unknown[], [...path, key], out);
    }
    return;
  }
  out.push({ path, message: `must be ${RULE_EXAMPLE}; got ${typeName(rule)}` });
}

function globListProblems(list: unknown[], path: PropertyKey[], out: ProfileProblem[]): void {
  list.forEach((glob, i) => {
    if (typeof glob !== 'string') out.push({ path: [...path, i], message: `a name or glob must be a string, got ${typeName(glob)}` });
    else if (glob === '') out.push({ path: [...path, i], message: 'a name or glob must not be empty' });
  });
}

function isMemberKey(id: string): boolean {
  return id === ALL_SERVERS || SERVER_ID_PATTERN.test(id);
}

function memberKeyMessage(id: unknown): string {
  if (typeof id !== 'string') return `a member must be a server id (a string), got ${typeName(id)}`;
  if (id.startsWith('@')) return 'a member is a server id, not a profile (profiles do not nest)';
  return 'not a server id: server ids use letters, digits, ".", "_" and "-" (max 64), or "*" for every enabled server';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}
