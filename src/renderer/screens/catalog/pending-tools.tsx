/**
 * A server installed from the catalog, on its page: its tools waiting for approval in each profile
 * that serves it, with the Profiles screen's approve action (`profiles.approve`, one tool or all of
 * this server's). A tool that changed since approval shows its diff, as on the Profiles screen.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ProfileView, ToolChange } from '../../../shared/api/profiles-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { href } from '../../app/router.js';
import { useServices } from '../../app/services.js';

const DiffView = lazy(() => import('../../components/diff-view.js').then((m) => ({ default: m.DiffView })));

interface Pending {
  profile: string;
  tools: Array<{ tool: string; change: ToolChange | undefined }>;
}

/** Held tools of this server in a profile: changed ones with their diffs, new ones by name. */
function pendingIn(view: ProfileView, server: string): Pending {
  const member = view.members.find((m) => m.server === server);
  const changes = view.changes.filter((c) => c.server === server);
  const tools = new Map<string, ToolChange | undefined>(changes.map((c) => [c.tool, c]));
  for (const t of member?.tools ?? []) if (t.held && !tools.has(t.name)) tools.set(t.name, undefined);
  return { profile: view.name, tools: [...tools].map(([tool, change]) => ({ tool, change })) };
}

export function PendingTools({ server }: { server: string }) {
  const { bridge, stores } = useServices();
  const [pending, setPending] = useState<Pending[]>();
  const [error, setError] = useState<string>();
  const reload = useCallback(async () => {
    const list = await bridge.call('profiles.list', {});
    if (!list.ok) return setError(list.message);
    const serving = list.value.filter((p) => p.members.some((m) => m.server === server && m.state === 'enabled'));
    const views = await Promise.all(serving.map((p) => bridge.call('profiles.show', { name: p.name })));
    const failed = views.find((v) => !v.ok);
    if (failed && !failed.ok) setError(failed.message);
    setPending(views.flatMap((v) => (v.ok ? [pendingIn(v.value, server)] : [])).filter((p) => p.tools.length > 0));
  }, [bridge, server]);
  useEffect(() => {
    void reload();
    return bridge.subscribe((e) => {
      if (e.channel === 'profiles.changed' || e.channel === 'config.changed') void reload();
    });
  }, [bridge, reload]);

  const approve = async (profile: string, tool?: string): Promise<void> => {
    const r = await bridge.call('profiles.approve', { name: profile, server, ...(tool ? { tool } : {}) });
    if (!r.ok) return setError(r.message);
    stores.notices.getState().noticePosted(tool ? `Approved ${server}/${tool}` : `Approved ${r.value.approved.length} tool${r.value.approved.length === 1 ? '' : 's'} of ${server} in @${profile}`);
    await reload();
  };

  if (!pending || (pending.length === 0 && !error)) return null;
  return (
    <section className="panel" aria-labelledby="pending-tools-title" data-testid="pending-tools">
      <h2 id="pending-tools-title">Tools waiting for your approval</h2>
      <p className="muted small">Installed from the catalog: clients get these tools once you approve them (the Profiles screen shows the same).</p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {pending.map((p) => (
        <div key={p.profile} className="pending-profile" data-testid={`pending-${p.profile}`}>
          <div className="detail-head">
            <h3>
              In <a href={href('profiles', p.profile)}>@{p.profile}</a>: <span className="badge badge-status-pending">{p.tools.length} waiting for approval</span>
            </h3>
            <span className="spacer" />
            <button type="button" className="button button-primary button-small" onClick={() => void approve(p.profile)} data-testid={`approve-all-${p.profile}`}>
              Approve all
            </button>
          </div>
          <ul className="pending-list">
            {p.tools.map(({ tool, change }) => (
              <li key={tool} className="pending-row" data-testid={`pending-tool-${tool}`}>
                <div className="pending-main">
                  <code>{tool}</code>
                  {/* What it declares: a change from nothing after an install, from the approved definition after an update. */}
                  {change && (
                    <details className="pending-def">
                      <summary>definition<span className="visually-hidden"> of {tool}</span></summary>
                      <Suspense fallback={<p className="muted small">Loading…</p>}>
                        <DiffView diff={change.diff} name={`${server}-${tool}`} viewType="unified" labels={['approved', 'now']} />
                      </Suspense>
                    </details>
                  )}
                </div>
                <button type="button" className="button button-small" onClick={() => void approve(p.profile, tool)} aria-label={`Approve ${tool} in @${p.profile}`} data-testid={`approve-${server}-${tool}`}>
                  Approve
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
