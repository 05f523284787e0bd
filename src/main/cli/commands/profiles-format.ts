/** What `patchbay profiles list|show` print: plain aligned tables, then warnings and diffs. */
import type { ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import { table } from '../text-table.js';

const n = (value: number): string => value.toLocaleString('en-US');

function holdText(hold: ProfileSummary['holdChangedTools']): string {
  return hold === 'always' ? 'changed tools held until approved' : hold === 'never' ? 'changed tools marked, never held' : 'changed tools of remote servers held until approved';
}

export function formatProfiles(profiles: readonly ProfileSummary[]): string {
  const rows = profiles.map((p) => [
    p.name,
    p.members.filter((m) => m.state === 'enabled').map((m) => m.server).join(',') || '-',
    String(p.sessions),
    p.changedTools > 0 ? `${p.changedTools} changed` : '-',
    p.url,
  ]);
  return table(['PROFILE', 'SERVERS', 'SESSIONS', 'TOOLS', 'URL'], rows);
}

export function formatProfile(view: ProfileView): string {
  let out = `profile ${view.name}${view.builtIn ? ' (built in)' : ''}  ${view.url}\n`;
  if (view.description) out += `  ${view.description}\n`;
  out += `  ${view.prefix ? 'names <server>__<tool>' : 'names unprefixed'} · ${holdText(view.holdChangedTools)} · ${view.sessions} session${view.sessions === 1 ? '' : 's'}\n\n`;

  const members = view.members.map((m) => [
    m.server,
    m.state === 'enabled' ? m.reach : m.state,
    `${m.totals.tools}/${m.tools.length}`,
    n(m.totals.tokens),
    m.error ?? '',
  ]);
  out += table(['SERVER', 'STATE', 'TOOLS', 'TOKENS', 'NOTE'], members, new Set([2, 3])) + '\n';

  const tools = view.members.flatMap((m) =>
    m.tools.map((t) => [
      t.exposedName,
      m.server,
      t.exposedName === t.name ? '' : t.name,
      t.held ? 'held' : t.appOnly ? 'app only' : t.enabled ? 'on' : t.deniedBy ? `off (${t.deniedBy})` : 'off',
      t.pin ?? '-',
      n(t.tokens),
    ]),
  );
  if (tools.length > 0) out += table(['TOOL', 'SERVER', 'ORIGINAL', 'STATE', 'PIN', 'TOKENS'], tools, new Set([5])) + '\n';

  out += `totals: ${n(view.totals.tools)} tools exposed, ${n(view.totals.tokens)} tokens of tool definitions (${view.tokenizer})\n`;
  for (const w of view.warnings) out += `  ! ${w.client}: ${w.message}\n`;
  const od = view.onDemand;
  if (od) {
    // The other way to serve the same tools: what a client would carry with on-demand tools.
    const who = od.enabled ? 'on' : 'off';
    const perClient = Object.entries(od.clients).map(([client, on]) => `${client} ${on ? 'on' : 'off'}`);
    out += `on-demand tools: ${who}${perClient.length > 0 ? ` (${perClient.join(', ')})` : ''}; with them ${n(od.totals.tools)} tools (${od.pinned.length > 0 ? `pinned ${od.pinned.join(', ')} + ` : ''}3 meta-tools), ${n(od.totals.tokens)} tokens\n`;
    for (const w of od.warnings) out += `  ! ${w.client}: ${w.message}\n`;
  }
  if (view.changes.length > 0) {
    out += `\nchanged tools (approve with: patchbay profiles approve ${view.name} SERVER TOOL):\n`;
    for (const c of view.changes) out += `\n${c.server}/${c.tool}, changed ${c.seenAt}:\n${c.diff.endsWith('\n') ? c.diff : c.diff + '\n'}`;
  }
  return out;
}
