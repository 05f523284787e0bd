/**
 * On-demand tools (issue 26; docs/profiles.md, "On-demand tools"): a profile, or one client of it,
 * may list only a few pinned tools plus three meta-tools instead of every tool of every member —
 * a profile of a few servers easily lists 100+ tools and tens of thousands of tokens that every
 * model call pays for.
 *
 * - `patchbay__find_tools {query, limit?}`: the profile's tools ranked by words (tool-search.ts);
 * - `patchbay__describe_tool {name}`: one tool's full definition (its input schema);
 * - `patchbay__call_tool {name, arguments?}`: calls it. The call is routed exactly as a direct
 *   `tools/call` of that tool (same member, same pin and hold checks, the member's own request in
 *   the inspector and telemetry): only the client's leg names the meta-tool.
 *
 * In a 2025 session a tool described or called this way joins the session's list, and the client
 * hears `notifications/tools/list_changed` (clients that act on it call it directly from then on;
 * the others keep using call_tool). The 2026-07-28 era has no session to remember it in.
 */
import type { ResolvedProfile } from './profile-config.js';
import type { Merged, ToolEntry } from './profile-merge.js';
import { compileRule, type ItemFilter } from './item-filter.js';
import type { ToolDefinition } from './tool-digest.js';
import { ToolSearch, type FoundTool } from './tool-search.js';

export const FIND_TOOLS = 'patchbay__find_tools';
export const DESCRIBE_TOOL = 'patchbay__describe_tool';
export const CALL_TOOL = 'patchbay__call_tool';
const META_NAMES = new Set([FIND_TOOLS, DESCRIBE_TOOL, CALL_TOOL]);
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

export const META_TOOLS: readonly ToolDefinition[] = [
  {
    name: FIND_TOOLS,
    title: 'Find tools',
    description:
      'Searches the tools of this Patchbay profile by words (names, titles, descriptions, argument names) and returns the best matches with their arguments. Use it before calling a tool that is not in your list; then call it with patchbay__call_tool (or describe it first with patchbay__describe_tool).',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words describing what the tool should do, e.g. "create github issue"' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many tools to return (default ${DEFAULT_LIMIT})` },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: DESCRIBE_TOOL,
    title: 'Describe a tool',
    description: "Returns one tool's full definition (description and input schema), by the name patchbay__find_tools gave.",
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'The tool name' } }, required: ['name'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description: 'Calls a tool of this profile by the name patchbay__find_tools gave, with its arguments; returns what the tool returns.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The tool name' }, arguments: { type: 'object', description: "The tool's arguments" } },
      required: ['name'],
    },
  },
];

/** The profile's on-demand settings, resolved (config: `onDemand`). */
export interface OnDemandSettings {
  /** On for the profile's clients unless their client's entry in `clients` says otherwise. */
  enabled: boolean;
  /** Tools always listed (exposed names or globs). */
  pinned: readonly string[];
  /** Per client (a client token's client id, e.g. `cursor`): on or off, over `enabled`. */
  clients: Readonly<Record<string, boolean>>;
}

export const ALL_TOOLS: OnDemandSettings = { enabled: false, pinned: [], clients: {} };

/** Whether a client (the client id of the token that opened the session, if any) gets on-demand tools. */
export function onDemandFor(settings: OnDemandSettings, client: string | undefined): boolean {
  return client !== undefined && client in settings.clients ? settings.clients[client]! : settings.enabled;
}

export function isMetaTool(name: unknown): name is string {
  return typeof name === 'string' && META_NAMES.has(name);
}

/** What a meta-tool call comes to: an answer here, or the call of a found tool. */
export type MetaStep = { kind: 'result'; result: Record<string, unknown> } | { kind: 'call'; name: string; arguments: Record<string, unknown> };

const searches = new WeakMap<object, ToolSearch>();
const pinRules = new WeakMap<readonly string[], ItemFilter>();

/** One client's view: the pinned tools, those it found and used (2025 sessions), the meta-tools. */
export class OnDemandView {
  private readonly promoted = new Set<string>();

  constructor(
    private readonly profile: () => ResolvedProfile,
    /** Called when a found tool joined the list (absent: nothing joins, as in the 2026-07-28 era). */
    private readonly joined?: () => void,
  ) {}

  /** The list the client gets: pinned and joined tools (as the full list has them), then the meta-tools. */
  list(merged: Merged<ToolEntry>): Array<Record<string, unknown>> {
    const pinned = this.pinned();
    const out = merged.exposed.filter((t) => pinned.allows(String(t.name)) || this.promoted.has(String(t.name)));
    return [...out, ...META_TOOLS];
  }

  step(name: string, args: Record<string, unknown>, merged: Merged<ToolEntry>): MetaStep {
    if (name === FIND_TOOLS) {
      const query = typeof args.query === 'string' ? args.query : '';
      const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(Math.max(args.limit, 1), MAX_LIMIT) : DEFAULT_LIMIT;
      const found = searchOf(merged).search(query, limit);
      return { kind: 'result', result: foundResult(query, found) };
    }
    const target = typeof args.name === 'string' ? args.name : '';
    const entry = entryOf(merged, target);
    if (!entry) return { kind: 'result', result: toolError(`No tool named '${target}' in this profile. Search with ${FIND_TOOLS} and use a name it returns.`) };
    this.join(entry.exposed);
    if (name === DESCRIBE_TOOL) {
      const tool = merged.exposed.find((t) => t.name === entry.exposed) ?? { ...entry.item, name: entry.exposed };
      return { kind: 'result', result: { content: [{ type: 'text', text: JSON.stringify(tool, null, 2) }], structuredContent: { tool } } };
    }
    const callArgs = typeof args.arguments === 'object' && args.arguments !== null && !Array.isArray(args.arguments) ? (args.arguments as Record<string, unknown>) : {};
    return { kind: 'call', name: entry.exposed, arguments: callArgs };
  }

  private join(name: string): void {
    if (!this.joined || this.promoted.has(name) || this.pinned().allows(name)) return;
    this.promoted.add(name);
    this.joined();
  }

  private pinned(): ItemFilter {
    const list = this.profile().onDemand.pinned;
    let rule = pinRules.get(list);
    if (!rule) pinRules.set(list, (rule = compileRule(list.length > 0 ? [...list] : false)));
    return rule;
  }
}

/** The index of a merged list's tools, built on first use and kept as long as the list is. */
function searchOf(merged: Merged<ToolEntry>): ToolSearch {
  let search = searches.get(merged);
  if (!search) searches.set(merged, (search = new ToolSearch(merged.exposed as unknown as ToolDefinition[])));
  return search;
}

/** A tool the model may see (enabled, not held, not app-only), by its profile name or its member's own (when unique). */
function entryOf(merged: Merged<ToolEntry>, name: string): ToolEntry | undefined {
  const usable = (e: ToolEntry | undefined): e is ToolEntry => e !== undefined && e.enabled && !e.held && !e.appOnly;
  const exact = merged.byName.get(name);
  if (usable(exact)) return exact;
  const own = (merged.byOwnName?.get(name) ?? []).filter(usable);
  return own.length === 1 ? own[0] : undefined;
}

function foundResult(query: string, found: FoundTool[]): Record<string, unknown> {
  const lines = found.map((t) => `- ${t.name}${t.title ? ` (${t.title})` : ''}: ${t.description ?? ''}${t.arguments.length > 0 ? ` [arguments: ${t.arguments.join(', ')}]` : ''}`);
  const text = found.length === 0 ? `No tool matches "${query}".` : `${found.length} tool${found.length === 1 ? '' : 's'} for "${query}":\n${lines.join('\n')}`;
  return { content: [{ type: 'text', text }], structuredContent: { tools: found } };
}

function toolError(text: string): Record<string, unknown> {
  return { content: [{ type: 'text', text }], isError: true };
}
