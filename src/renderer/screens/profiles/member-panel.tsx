/**
 * One member of a profile: its state, its totals, and every tool with a toggle, the name clients
 * see (and the server's own when they differ), its pin state and its token cost; with on-demand
 * tools in use, whether it is pinned (listed for on-demand clients too); an MCP App's own tools
 * marked "app only" (not in the model's list, not counted); prompts and resources below, with
 * their toggles too.
 */
import { useState } from 'react';
import type { OnDemandChange, ProfileMemberView, ProfileTool, ProfileView } from '../../../shared/api/profiles-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useServices } from '../../app/services.js';
import { useOnDemandUpdate, usePending } from './on-demand-panel.js';

type Kind = 'tools' | 'prompts' | 'resources';

const STATE: Record<string, string> = { up: 'up', down: 'down', unknown: 'not reached yet', disabled: 'disabled', missing: 'not configured' };

export function MemberPanel({ profile, member, onDemand, onChanged }: { profile: string; member: ProfileMemberView; onDemand: ProfileView['onDemand']; onChanged(): Promise<void> | void }) {
  const { bridge } = useServices();
  const [error, setError] = useState<string>();
  const pins = useOnDemandUpdate(profile, onChanged);
  // The pin column only matters once on-demand tools are in use (for the profile or a client) or something is pinned.
  const showPins = onDemand !== undefined && (onDemand.enabled || onDemand.pinned.length > 0 || Object.values(onDemand.clients).some(Boolean));
  const state = member.state === 'enabled' ? member.reach : member.state;
  const toggle = async (kind: Kind, item: string, enabled: boolean): Promise<void> => {
    const r = await bridge.call('profiles.setItem', { name: profile, server: member.server, kind, item, enabled });
    if (!r.ok) return setError(r.message);
    setError(undefined);
    onChanged();
  };
  const id = `member-${member.server}`;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`}>
        {member.server} <span className={`chip${state === 'down' || state === 'missing' ? ' chip-warn' : ''}`}>{STATE[state] ?? state}</span>
        {member.kind && <span className="chip">{member.kind}</span>}
        <span className="muted small">
          {' '}
          {member.totals.tools} of {member.tools.length} tools on · {member.totals.tokens.toLocaleString('en-US')} tokens
        </span>
      </h2>
      {member.error && <ErrorMessage>{member.error}</ErrorMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {pins.error && <ErrorMessage>{pins.error}</ErrorMessage>}
      {member.tools.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid={`${id}-tools`}>
            <caption className="visually-hidden">Tools of {member.server}</caption>
            <thead>
              <tr>
                <th scope="col">On</th>
                <th scope="col">Tool</th>
                <th scope="col">State</th>
                {showPins && <th scope="col" title="Listed for on-demand clients too">Pinned</th>}
                <th scope="col" className="num">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {member.tools.map((t) => (
                <tr key={t.name} data-testid={`tool-${member.server}-${t.name}`}>
                  <td>
                    <input
                      type="checkbox"
                      className="checkbox"
                      checked={t.enabled}
                      disabled={t.deniedBy !== undefined}
                      title={t.deniedBy ? `Turned off by the pattern "${t.deniedBy}" in config.json` : undefined}
                      aria-label={`${t.enabled ? 'Turn off' : 'Turn on'} ${t.name}`}
                      onChange={(e) => void toggle('tools', t.name, e.target.checked)}
                      data-testid={`toggle-${member.server}-${t.name}`}
                    />
                  </td>
                  <td>
                    <code>{t.exposedName}</code>
                    {t.exposedName !== `${member.server}__${t.name}` && t.exposedName !== t.name && <span className="muted small"> ({t.name})</span>}
                    {t.description && <div className="muted small">{t.description.length > 140 ? `${t.description.slice(0, 140)}…` : t.description}</div>}
                  </td>
                  <td>
                    <ToolState tool={t} />
                  </td>
                  {showPins && (
                    <td>
                      {t.appOnly ? <span className="muted small">—</span> : <PinToggle server={member.server} tool={t} busy={pins.busy} save={pins.save} />}
                    </td>
                  )}
                  <td className="num" data-testid={`tokens-${member.server}-${t.name}`}>
                    {t.appOnly ? <span className="muted" title="Not counted: the model does not see it">({t.tokens.toLocaleString('en-US')})</span> : t.tokens.toLocaleString('en-US')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(member.prompts.length > 0 || member.resources.length > 0) && (
        <details className="sub-details">
          <summary>
            {member.prompts.length} prompt{member.prompts.length === 1 ? '' : 's'}, {member.resources.length} resource{member.resources.length === 1 ? '' : 's'}
          </summary>
          <ul className="content-list">
            {member.prompts.map((p) => (
              <li key={`p-${p.name}`}>
                <label className="check check-row">
                  <input type="checkbox" checked={p.enabled} onChange={(e) => void toggle('prompts', p.name, e.target.checked)} />
                  <span>
                    prompt <code>{p.exposedName}</code>
                  </span>
                </label>
              </li>
            ))}
            {member.resources.map((r) => (
              <li key={`r-${r.uri}`}>
                <label className="check check-row">
                  <input type="checkbox" checked={r.enabled} onChange={(e) => void toggle('resources', r.uri, e.target.checked)} />
                  <span>
                    {r.template ? 'template' : 'resource'} <code>{r.uri}</code>
                    {r.shadowedBy && <span className="muted small"> (served by {r.shadowedBy}, earlier in the profile)</span>}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function ToolState({ tool: t }: { tool: ProfileTool }) {
  if (t.held) return <span className="chip chip-warn">held: changed</span>;
  if (t.pin === 'changed') return <span className="chip chip-warn">changed</span>;
  if (!t.enabled) return <span className="chip">off</span>;
  // Only its MCP App calls it: callable, but not in the model's list (nor the token totals).
  if (t.appOnly) return <span className="chip chip-accent" title="Only its MCP App calls it: not in the model's list, not counted">app only</span>;
  return <span className="chip">on</span>;
}

/** Pinned: listed for on-demand clients too. A tool a pattern pins cannot be unpinned alone. */
function PinToggle({ server, tool: t, busy, save }: { server: string; tool: ProfileTool; busy: boolean; save(change: OnDemandChange): Promise<void> }) {
  const [pinned, setPinned] = usePending(t.onDemandPinned === true);
  return (
    <input
      type="checkbox"
      className="checkbox"
      checked={pinned}
      disabled={busy || t.onDemandPinnedBy !== undefined}
      title={t.onDemandPinnedBy ? `Pinned by the pattern "${t.onDemandPinnedBy}"` : undefined}
      aria-label={`${pinned ? 'Unpin' : 'Pin'} ${t.exposedName}${t.onDemandPinnedBy ? ` (pinned by the pattern ${t.onDemandPinnedBy})` : ''}`}
      onChange={(e) => setPinned(save(e.target.checked ? { pin: [t.exposedName] } : { unpin: [t.exposedName] }), e.target.checked)}
      data-testid={`pin-${server}-${t.name}`}
    />
  );
}
