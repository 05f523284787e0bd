/**
 * A profile in full, for the UI's Profiles screen and `patchbay profiles show`: every member with
 * every tool (exposed or not) under the name clients see, its toggle, pin state and token cost;
 * totals against client limits; changed tools with their diffs. It reads what the servers last
 * said (server-catalog.ts); members never heard from — or all of them, on `refresh` — are asked
 * through a short-lived aggregated session of the profile itself.
 */
import { DEFAULT_PROFILE } from '../../../shared/config-schema.js';
import type { ProfileMemberView, ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { AggregateUpstream } from './aggregate-upstream.js';
import { limitWarnings } from './client-limits.js';
import { compileRule } from './item-filter.js';
import { META_TOOLS } from './on-demand.js';
import type { ResolvedProfile } from './profile-config.js';
import { mergePrompts, mergeTools, mergeUris, type MemberLists } from './profile-merge.js';
import type { ProfilePort } from './profile-port.js';
import type { ServerCatalog } from './server-catalog.js';
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
  if (refresh || enabled.some((m) => deps.catalog.get(m.server)?.tools === undefined)) await probe(port, deps);
  const profile = port.profile;
  const meter = await deps.meter();
  const lists: MemberLists[] = profile.members
    .filter((m) => m.state === 'enabled')
    .map((member) => {
      const entry = deps.catalog.get(member.server);
      return { member, tools: entry?.tools, prompts: entry?.prompts, resources: entry?.resources, templates: entry?.templates };
    });
  const tools = mergeTools(profile, lists, deps.pins);
  const prompts = mergePrompts(profile, lists);
  const resources = mergeUris(lists, 'resources');
  const templates = mergeUris(lists, 'templates');
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
          ...(e.status ? { pin: e.status } : {}),
          held: e.held,
          ...(e.appOnly ? { appOnly: true } : {}),
          tokens: meter.tokens(toolCostText(e.item, e.exposed)),
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
  // With on-demand tools a client carries the pinned tools it sees and the three meta-tools.
  const pinned = compileRule(profile.onDemand.pinned.length > 0 ? [...profile.onDemand.pinned] : false);
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

/** Opens the profile once, as a client would, so every member's lists land in the catalog. */
async function probe(port: ProfilePort, deps: InventoryDeps): Promise<void> {
  const aggregate = (await port.connect()) as AggregateUpstream;
  try {
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      aggregate.onmessage = (message) => {
        if ('id' in message && message.id === 'patchbay-inventory') resolve(message);
      };
    });
    aggregate.send({
      jsonrpc: '2.0',
      id: 'patchbay-inventory',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'patchbay-inventory', version: deps.version } },
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
