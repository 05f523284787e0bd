/**
 * Merging the members' lists into what a profile exposes, shared by the aggregated endpoint and
 * the inventory the UI and CLI show: tools and prompts under safe names (safe-names.ts), each
 * filtered by the member's rules and, for tools, checked against its pin; resources and
 * templates under their own URIs, the first member in profile order winning a URI that two
 * claim (the other's entry is reported as shadowed) — except MCP Apps' `ui://` URIs, which two
 * claimants each get a unique form of (ui-uris.ts).
 */
import type { PinStatus, ToolPins } from './tool-pins.js';
import { holdsChanged, type ResolvedMember, type ResolvedProfile } from './profile-config.js';
import { exposedNames, itemKey, type NamedItem } from './safe-names.js';
import { toolDigest, type ToolDefinition } from './tool-digest.js';
import { toolUiUri, withUiUri, type UiRenames } from './ui-uris.js';

export interface NamedDefinition {
  name: string;
  title?: unknown;
  [key: string]: unknown;
}

export interface MemberLists {
  member: ResolvedMember;
  tools?: readonly ToolDefinition[] | undefined;
  prompts?: readonly NamedDefinition[] | undefined;
  resources?: ReadonlyArray<Record<string, unknown>> | undefined;
  templates?: ReadonlyArray<Record<string, unknown>> | undefined;
}

export interface NamedEntry<T> {
  server: string;
  item: T;
  /** The name the client sees. */
  exposed: string;
  /** Allowed by the member's rules. */
  enabled: boolean;
}

export interface ToolEntry extends NamedEntry<ToolDefinition> {
  /** For enabled tools: how the definition compares with its pin. */
  status: PinStatus | undefined;
  /** Changed, and the profile holds changed tools of this member back. */
  held: boolean;
  /**
   * An MCP App's tool only its app may call (`_meta.ui.visibility` without "model"): left out of
   * the list the model sees, callable all the same.
   */
  appOnly: boolean;
}

export interface UriEntry {
  server: string;
  item: Record<string, unknown>;
  key: string;
  enabled: boolean;
  /** The member whose entry with the same URI wins (earlier in the profile). */
  shadowedBy: string | undefined;
  /** The member's own URI, when the profile exposes it under another (`key`): a `ui://` URI two members claim. */
  original?: string;
}

export interface Merged<E> {
  entries: E[];
  /** What the client's list carries, in order. */
  exposed: Array<Record<string, unknown>>;
  /** Exposed name (or URI) → entry, for routing. */
  byName: Map<string, E>;
  /**
   * Tools: a member's own name → its entries, for a call made with the name the server gave the
   * tool (an MCP App calls its server's tools so, and the host passes that on unchanged).
   */
  byOwnName?: Map<string, E[]>;
}

function namesFor<T extends { name: string }>(lists: readonly MemberLists[], pick: (l: MemberLists) => readonly T[] | undefined, prefix: boolean): Map<string, string> {
  const items: NamedItem[] = [];
  for (const l of lists) {
    const own = l.member.rules.prefix;
    for (const item of pick(l) ?? []) items.push(own === undefined ? { server: l.member.server, name: item.name } : { server: l.member.server, name: item.name, prefix: own });
  }
  return exposedNames(items, prefix);
}

/** The exposed copy of an item: renamed, with the original name as its title when it had none. */
function renamed<T extends NamedDefinition>(item: T, exposed: string): Record<string, unknown> {
  if (exposed === item.name) return item;
  return { ...item, name: exposed, title: typeof item.title === 'string' ? item.title : item.name };
}

export function mergeTools(profile: ResolvedProfile, lists: readonly MemberLists[], pins: Pick<ToolPins, 'check'> | undefined, ui?: UiRenames): Merged<ToolEntry> {
  const names = namesFor(lists, (l) => l.tools, profile.prefix);
  const out: Merged<ToolEntry> = { entries: [], exposed: [], byName: new Map(), byOwnName: new Map() };
  for (const l of lists) {
    for (const tool of l.tools ?? []) {
      const exposed = names.get(itemKey(l.member.server, tool.name))!;
      const enabled = l.member.tools.allows(tool.name);
      const status = enabled && pins ? pins.check(profile.name, l.member.server, tool, toolDigest(tool)) : undefined;
      // A pending tool (its server just installed from the catalog) is held whatever the profile's setting.
      const held = status === 'pending' || (status === 'changed' && holdsChanged(profile, l.member));
      const appOnly = isAppOnly(tool);
      const entry: ToolEntry = { server: l.member.server, item: tool, exposed, enabled, status, held, appOnly };
      out.entries.push(entry);
      out.byName.set(exposed, entry);
      const own = out.byOwnName!.get(tool.name);
      if (own) own.push(entry);
      else out.byOwnName!.set(tool.name, [entry]);
      if (enabled && !held && !appOnly) out.exposed.push(uiRenamed(renamed(tool, exposed), tool, ui?.get(l.member.server)));
    }
  }
  return out;
}

function uiRenamed(copy: Record<string, unknown>, tool: ToolDefinition, renames: ReadonlyMap<string, string> | undefined): Record<string, unknown> {
  const uri = renames && toolUiUri(tool);
  const unique = uri ? renames.get(uri) : undefined;
  return unique ? withUiUri(copy, unique) : copy;
}

/** MCP Apps (io.modelcontextprotocol/ui): `visibility` defaults to ["model", "app"]. */
export function isAppOnly(tool: ToolDefinition): boolean {
  const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}

export function mergePrompts(profile: ResolvedProfile, lists: readonly MemberLists[]): Merged<NamedEntry<NamedDefinition>> {
  const names = namesFor(lists, (l) => l.prompts, profile.prefix);
  const out: Merged<NamedEntry<NamedDefinition>> = { entries: [], exposed: [], byName: new Map() };
  for (const l of lists) {
    for (const prompt of l.prompts ?? []) {
      const exposed = names.get(itemKey(l.member.server, prompt.name))!;
      const entry = { server: l.member.server, item: prompt, exposed, enabled: l.member.prompts.allows(prompt.name) };
      out.entries.push(entry);
      out.byName.set(exposed, entry);
      if (entry.enabled) out.exposed.push(renamed(prompt, exposed));
    }
  }
  return out;
}

/** Resources (`uri`) or templates (`uriTemplate`): both are filtered by the member's resource rules. */
export function mergeUris(lists: readonly MemberLists[], kind: 'resources' | 'templates', ui?: UiRenames): Merged<UriEntry> {
  const field = kind === 'resources' ? 'uri' : 'uriTemplate';
  const out: Merged<UriEntry> = { entries: [], exposed: [], byName: new Map() };
  for (const l of lists) {
    const renames = kind === 'resources' ? ui?.get(l.member.server) : undefined;
    for (const item of l[kind] ?? []) {
      const own = item[field];
      if (typeof own !== 'string') continue;
      // Rules match the member's own URIs; the client sees the unique one.
      const enabled = l.member.resources.allows(own);
      const unique = renames?.get(own);
      const key = unique ?? own;
      const winner = out.byName.get(key);
      const entry: UriEntry = { server: l.member.server, item, key, enabled, shadowedBy: enabled ? winner?.server : undefined, ...(unique ? { original: own } : {}) };
      out.entries.push(entry);
      if (!enabled || winner) continue;
      out.byName.set(key, entry);
      out.exposed.push(unique ? { ...item, uri: unique } : item);
    }
  }
  return out;
}

/**
 * A matcher for an RFC 6570 URI template, enough to route a read: `{var}` matches one path
 * segment, `{+var}` and `{#var}` anything, `{?a,b}` / `{&a}` an optional query.
 */
export function templateMatcher(template: string): RegExp {
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/\{([+#./;?&]?)[^}]*\}/g)) {
    source += template.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const op = m[1];
    source += op === '+' || op === '#' ? '.*' : op === '?' || op === '&' ? '(?:[?&].*)?' : op === '/' ? '(?:/[^?#]*)?' : '[^/?#]*';
    last = m.index + m[0].length;
  }
  source += template.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 's');
}
