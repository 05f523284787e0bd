/**
 * One profile: where clients connect (URL and relay command, with copy buttons), what it costs
 * both ways (every tool, or on-demand tools; against client limits), its on-demand settings,
 * changed tools to review and approve, and each member's tools with their toggles and pins.
 */
import { lazy, Suspense } from 'react';
import { ConfirmButton } from '../../components/confirm-button.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { href, navigate } from '../../app/router.js';
import { useServices } from '../../app/services.js';
import { ContextCost } from './context-cost.js';
import { MemberPanel } from './member-panel.js';
import { OnDemandPanel } from './on-demand-panel.js';
import { useProfileView } from './use-profiles.js';

// The diff viewer loads with the first changed tool shown.
const ChangedTools = lazy(() => import('./changed-tools.js').then((m) => ({ default: m.ChangedTools })));

export function ProfileDetail({ name }: { name: string }) {
  const { bridge } = useServices();
  const { view, error, loading, reload } = useProfileView(name);
  if (error && !view) return <ErrorMessage>Could not read profile '{name}': {error}</ErrorMessage>;
  if (!view) return <p className="muted"><span className="spinner" aria-hidden="true" /> Asking the servers of '{name}' for their tools…</p>;
  const relay = name === 'default' ? 'patchbay relay' : `patchbay relay @${name}`;
  return (
    <div data-testid="profile-detail">
      <p className="server-url">
        <span className="muted">Clients connect to</span> <code data-testid="profile-url">{view.url}</code> <CopyButton label="Copy URL" text={() => view.url} testId="copy-profile-url" />
      </p>
      <p className="server-url">
        <span className="muted">Stdio clients run</span> <code>{relay}</code> <CopyButton label="Copy command" text={() => relay} />
      </p>
      {view.description && <p>{view.description}</p>}
      <div className="toolbar">
        <span className="muted small">
          {view.prefix ? 'Names: server__tool' : 'Names: unprefixed'} · Changed tools held back: {view.holdChangedTools === 'remote' ? 'for remote servers' : view.holdChangedTools} · {view.sessions} session{view.sessions === 1 ? '' : 's'}
        </span>
        <span className="spacer" />
        <a className="button button-small" href={href('profiles', name, 'playground')} data-testid="profile-playground">
          <Icon name="play" /> Open in playground
        </a>
        <button type="button" className="button button-small" disabled={loading} onClick={() => void reload(true)} data-testid="profile-refresh">
          {loading ? 'Asking…' : 'Ask the servers again'}
        </button>
        {!view.builtIn && (
          <ConfirmButton
            label="Delete profile"
            confirmLabel={`Delete ${name}`}
            testId="delete-profile"
            small
            onConfirm={async () => {
              const r = await bridge.call('profiles.remove', { name });
              if (r.ok) navigate('profiles');
            }}
          />
        )}
      </div>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <ContextCost view={view} />
      {view.onDemand && <OnDemandPanel profile={name} od={view.onDemand} onChanged={() => reload()} />}
      {view.changes.length > 0 && (
        <Suspense fallback={<p className="muted small">Loading the changes…</p>}>
          <ChangedTools profile={name} changes={view.changes} onApproved={() => void reload()} />
        </Suspense>
      )}
      {view.members.map((member) => (
        <MemberPanel key={member.server} profile={name} member={member} onDemand={view.onDemand} onChanged={() => reload()} />
      ))}
    </div>
  );
}
