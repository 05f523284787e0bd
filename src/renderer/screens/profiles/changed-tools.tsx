/** Tools whose definitions changed since they were approved: each with its diff and an Approve button. */
import { useState } from 'react';
import type { ToolChange } from '../../../shared/api/profiles-contract.js';
import { DiffView } from '../../components/diff-view.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useServices } from '../../app/services.js';

export function ChangedTools({ profile, changes, onApproved }: { profile: string; changes: ToolChange[]; onApproved(): void }) {
  return (
    <section className="panel" aria-labelledby="changed-tools-title" data-testid="changed-tools">
      <h2 id="changed-tools-title">Changed tools</h2>
      <p className="muted small">These tools describe themselves differently from when they were approved. Held tools stay out of the profile until you approve them.</p>
      {changes.map((c) => (
        <Change key={`${c.server}/${c.tool}`} profile={profile} change={c} onApproved={onApproved} />
      ))}
    </section>
  );
}

/** One changed tool: its diff and Approve (also each held tool of a catalog install, on the server's page). */
export function Change({ profile, change, onApproved }: { profile: string; change: ToolChange; onApproved(): void }) {
  const { bridge, stores } = useServices();
  const [error, setError] = useState<string>();
  const approve = async (): Promise<void> => {
    const r = await bridge.call('profiles.approve', { name: profile, server: change.server, tool: change.tool });
    if (!r.ok) return setError(r.message);
    stores.notices.getState().noticePosted(`Approved ${change.server}/${change.tool}`);
    onApproved();
  };
  return (
    <div className="detail" data-testid={`change-${change.server}-${change.tool}`}>
      <div className="detail-head">
        <h3>
          <code>{change.server}</code> / <code>{change.tool}</code>
        </h3>
        <span className="muted small">changed {new Date(change.seenAt).toLocaleString()}</span>
        <span className="spacer" />
        <button type="button" className="button button-primary button-small" onClick={() => void approve()} data-testid={`approve-${change.server}-${change.tool}`}>
          Approve
        </button>
      </div>
      <DiffView diff={change.diff} name={`${change.server}-${change.tool}`} viewType="unified" labels={['approved', 'now']} />
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </div>
  );
}
