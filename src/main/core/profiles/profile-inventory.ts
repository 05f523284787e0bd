/**
 * A profile in full, for the UI's Profiles screen and `patchbay profiles show`: every member with
 * every tool (exposed or not) under the name clients see, its toggle, pin state and token cost;
 * totals against client limits; changed tools with their diffs. It reads what the servers last
 * said (server-catalog.ts), completed with what only a client with every capability is offered —
 * the lists its playground shows. Members not heard from by such a client — or all of them, on
 * `refresh` — are asked through a short-lived aggregated session of the profile itself, which
 * declares those capabilities.
 * A member whose last attempt failed is not asked again on every visit (only on `refresh`, or
 * once its config changes): a broken member must not cost every look at the profile a startup.
 */
import { DEFAULT_PROFILE } from '../../../shared/config-schema.js';
import { FULL_CLIENT_CAPABILITIES } from '../../../shared/protocol.js';
import type { ProfileMemberView, ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { AggregateUpstream } from './aggregate-upstream.js';
import { limitWarnings } from './client-limits.js';
import { compileRule, matchesAny } from './item-filter.js';
import { META_TOOLS } from './on-demand.js';
import type { ResolvedProfile } from './profile-config.js';
import { mergePrompts, mergeTools, mergeUris, type MemberLists } from './profile-merge.js';
import { uiRenames } from './ui-uris.js';
import type { ProfilePort } from './profile-port.js';
import type { CatalogEntry, ListKind, ServerCatalog } from './server-catalog.js';
import { toolCostText, type TokenMeter } from './token-cost.js';
import type { ToolPins } from './tool-pins.js';

export interface InventoryDeps {
  catalog: ServerCatalog;
  pins: ToolPins | undefined;
  meter(): Promise<TokenMeter>;
  version: string;
  /** Deadline of the whole probe. */
  probeTimeoutMs: number;
}

/** Whether a tool is pinned for on-demand clients, and by which pattern when not by its own name. */
function pinnedFields(exposed: string, list: readonly string[], allowed: boolean): { onDemandPinned?: true; onDemandPinnedBy?: string } {
  if (!allowed) return {};
  const glob = list.includes(exposed) ? undefined : list.find((g) => matchesAny(exposed, [g]));
  return { onDemandPinned: true, ...(glob !== undefined ? { onDemandPinnedBy: glob } : {}) };
}

/** The endpoint of a profile: `/mcp` for the default one, `/mcp/@name` for the others. */
export function profileUrl(baseUrl: string, name: string): string {
  return name === DEFAULT_PROFILE ? `${baseUrl}/mcp` : `${baseUrl}/mcp/@${encodeURIComponent(name)}`;
}

export function profileSummary(profile: ResolvedProfile, baseUrl: string, sessions: number, pins: ToolPins | undefined): ProfileSummary {
  const summary: ProfileSummary = {
    name: profile.name,
    url: profileUrl(baseUrl, profile.name),
    builtIn: profile.builtIn,
    prefix: profile.prefix,
    holdChangedTools: profile.holdChangedTools,
    members: profile.members.map((m) => ({ server: m.server, state: m.state, explicit: m.explicit, ...(m.kind ? { kind: m.kind } : {}) })),
    sessions,
    changedTools: pins?.changes(profile.name).length ?? 0,
  };
  if (profile.description !== undefined) summary.description = profile.description;
  return summary;
}

export async function profileView(port: ProfilePort, summary: ProfileSummary, refresh: boolean, deps: InventoryDeps): Promise<ProfileView> {
  const enabled = port.profile.members.filter((m) => m.state === 'enabled');
  if (refresh || enabled.some((m) => unheard(deps.catalog.get(m.server)))) await probe(port, deps, refresh);
  const profile = port.profile;
  const meter = await deps.meter();
  const lists: MemberLists[] = profile.members
    .filter((m) => m.state === 'enabled')
    .map((member) => {
      const entry = deps.catalog.get(member.server);
      const pick = <T,>(kind: ListKind): T | undefined => fullest(entry, kind) as T | undefined;
      return { member, tools: pick('tools'), prompts: pick('prompts'), resources: pick('resources'), templates: pick('templates') };
    });
  const ui = uiRenames(lists.map((l) => ({ server: l.member.server, tools: l.tools, resources: l.resources })));
  const tools = mergeTools(profile, lists, deps.pins, ui);
  const prompts = mergePrompts(profile, lists);
  const resources = mergeUris(lists, 'resources', ui);
  const templates = mergeUris(lists, 'templates');
  // With on-demand tools a client carries the pinned tools it sees and the three meta-tools.
  const pinnedList = profile.onDemand.pinned;
  const pinned = compileRule(pinnedList.length > 0 ? [...pinnedList] : false);
  const members = profile.members.map((member): ProfileMemberView => {
    const entry = member.state === 'enabled' ? deps.catalog.get(member.server) : undefined;
    const down = entry?.error !== undefined && (entry.updatedAt === undefined || entry.error.at >= entry.updatedAt);
    const view: ProfileMemberView = {
      server: member.server,
      state: member.state,
      explicit: member.explicit,
      ...(member.kind ? { kind: member.kind } : {}),
      reach: entry === undefined ? 'unknown' : down ? 'down' : 'up',
      ...(down ? { error: entry.error!.message } : {}),
      ...(entry?.updatedAt ? { updatedAt: entry.updatedAt } : {}),
      tools: tools.entries
        .filter((e) => e.server === member.server)
        .map((e) => ({
          name: e.item.name,
          exposedName: e.exposed,
          ...(typeof e.item.title === 'string' ? { title: e.item.title } : {}),
          ...(typeof e.item.description === 'string' ? { description: e.item.description } : {}),
          enabled: e.enabled,
          ...(member.tools.deniedBy(e.item.name) ? { deniedBy: member.tools.deniedBy(e.item.name)! } : {}),
          // A pending tool shows as changed (a change from nothing), approved the same way.
          ...(e.status ? { pin: e.status === 'pending' ? 'changed' : e.status } : {}),
          held: e.held,
          ...(e.appOnly ? { appOnly: true } : {}),
          tokens: meter.tokens(toolCostText(e.item, e.exposed)),
          ...pinnedFields(e.exposed, pinnedList, pinned.allows(e.exposed)),
        })),
      prompts: prompts.entries
        .filter((e) => e.server === member.server)
        .map((e) => ({ name: e.item.name, exposedName: e.exposed, enabled: e.enabled, ...(typeof e.item.title === 'string' ? { title: e.item.title } : {}) })),
      resources: [...resources.entries, ...templates.entries]
        .filter((e) => e.server === member.server)
        .map((e) => ({
          uri: e.key,
          template: 'uriTemplate' in e.item,
          enabled: e.enabled,
          ...(typeof e.item.name === 'string' ? { name: e.item.name } : {}),
          ...(e.shadowedBy ? { shadowedBy: e.shadowedBy } : {}),
        })),
      totals: { tools: 0, tokens: 0 },
    };
    for (const t of view.tools) {
      // What the model sees: an app-only tool is not in its list.
      if (!t.enabled || t.held || t.appOnly === true) continue;
      view.totals.tools++;
      view.totals.tokens += t.tokens;
    }
    return view;
  });
  const totals = members.reduce((sum, m) => ({ tools: sum.tools + m.totals.tools, tokens: sum.tokens + m.totals.tokens }), { tools: 0, tokens: 0 });
  const onDemandTotals = { tools: META_TOOLS.length, tokens: META_TOOLS.reduce((n, t) => n + meter.tokens(toolCostText(t, t.name)), 0) };
  for (const t of members.flatMap((m) => m.tools)) {
    if (!t.enabled || t.held || t.appOnly === true || !pinned.allows(t.exposedName)) continue;
    onDemandTotals.tools++;
    onDemandTotals.tokens += t.tokens;
  }
  const warningsFor = (t: { tools: number; tokens: number }): ProfileView['warnings'] => limitWarnings(t.tools, t.tokens).map(({ client, kind, limit, value, message }) => ({ client, kind, limit, value, message }));
  return {
    ...summary,
    members,
    totals,
    warnings: warningsFor(totals),
    onDemand: { enabled: profile.onDemand.enabled, pinned: [...profile.onDemand.pinned], clients: { ...profile.onDemand.clients }, totals: onDemandTotals, warnings: warningsFor(onDemandTotals) },
    changes: deps.pins?.changes(profile.name) ?? [],
    tokenizer: 'o200k_base',
  };
}

const KEY: Record<ListKind, string> = { tools: 'name', prompts: 'name', resources: 'uri', templates: 'uriTemplate' };

/**
 * A member's list as the fullest client sees it: the latest a client heard (its definitions are
 * current), plus what only a client with every capability is offered (the `full` list's items the
 * latest lacks, when a plainer client heard it last).
 */
function fullest(entry: CatalogEntry | undefined, kind: ListKind): unknown[] | undefined {
  const latest = entry?.[kind] as unknown[] | undefined;
  const full = entry?.full?.[kind];
  if (!latest || !full) return latest ?? full;
  const key = (item: unknown): unknown => (item as Record<string, unknown>)[KEY[kind]];
  const seen = new Set(latest.map(key));
  return [...latest, ...full.filter((item) => !seen.has(key(item)))];
}

/** Not yet heard by a client with every capability, and not failing the last time it was asked. */
function unheard(entry: CatalogEntry | undefined): boolean {
  if (entry?.full?.tools !== undefined) return false;
  const failed = entry?.error !== undefined && (entry.updatedAt === undefined || entry.error.at >= entry.updatedAt);
  return !failed;
}

/**
 * Opens the profile once, as the fullest client would (the playground's capabilities), so every
 * member's lists land in the catalog. A member's request to it (server-everything asks for roots
 * as soon as a session starts) is answered at once — no roots, nothing else — so no member waits
 * on a client that is only listing.
 */
async function probe(port: ProfilePort, deps: InventoryDeps, refresh: boolean): Promise<void> {
  const aggregate = (await port.connect()) as AggregateUpstream;
  // A fresh session's lists replace what clients heard only when the person asked the servers again.
  aggregate.lists.catalogMode = refresh ? 'heard' : 'fill';
  try {
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      aggregate.onmessage = (message) => {
        if ('method' in message && 'id' in message && message.id !== undefined) {
          aggregate.send(
            message.method === 'roots/list'
              ? { jsonrpc: '2.0', id: message.id, result: { roots: [] } }
              : message.method === 'ping'
                ? { jsonrpc: '2.0', id: message.id, result: {} }
                : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Patchbay's inventory only lists; it answers no '${message.method}'` } },
          );
        } else if ('id' in message && message.id === 'patchbay-inventory') resolve(message);
      };
    });
    aggregate.send({
      jsonrpc: '2.0',
      id: 'patchbay-inventory',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: FULL_CLIENT_CAPABILITIES, clientInfo: { name: 'patchbay-inventory', version: deps.version } },
    });
    await withTimeout(
      (async () => {
        await answered;
        await Promise.all((['tools', 'prompts', 'resources', 'templates'] as const).map((kind) => aggregate.lists.get(kind)));
      })(),
      deps.probeTimeoutMs,
      () => undefined,
    );
  } finally {
    await aggregate.close();
  }
}
