/**
 * One profile: where clients connect (URL and relay command, with copy buttons), what it costs
 * (tools and tokens against client limits), changed tools to review and approve, and each
 * member's tools with their toggles.
 */
import { lazy, Suspense } from 'react';
import type { ProfileView } from '../../../shared/api/profiles-contract.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { href, navigate } from '../../app/router.js';
import { useServices } from '../../app/services.js';
import { MemberPanel } from './member-panel.js';
import { useProfileView } from './use-profiles.js';

// The diff viewer loads with the first changed tool shown.
const ChangedTools = lazy(() => import('./changed-tools.js').then((m) => ({ default: m.ChangedTools })));

const n = (v: number): string => v.toLocaleString('en-US');

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
      <Totals view={view} />
      {view.changes.length > 0 && (
        <Suspense fallback={<p className="muted small">Loading the changes…</p>}>
          <ChangedTools profile={name} changes={view.changes} onApproved={() => void reload()} />
        </Suspense>
      )}
      {view.members.map((member) => (
        <MemberPanel key={member.server} profile={name} member={member} onChanged={() => void reload()} />
      ))}
    </div>
  );
}

function Totals({ view }: { view: ProfileView }) {
  const servers = view.members.filter((m) => m.state === 'enabled').length;
  return (
    <section className="panel" aria-labelledby="profile-totals-title" data-testid="profile-totals">
      <h2 id="profile-totals-title">In the model's context</h2>
      <div className="stat-strip">
        <Stat label="Tools exposed" value={n(view.totals.tools)} testId="profile-total-tools" />
        <Stat label="Tokens of tool definitions" value={n(view.totals.tokens)} testId="profile-total-tokens" />
        <Stat label="Servers" value={n(servers)} />
        <Stat label="Changed tools" value={n(view.changes.length)} />
      </div>
      {view.warnings.length > 0 ? (
        <ul className="banner banner-warn" data-testid="profile-warnings">
          {view.warnings.map((w) => (
            <li key={w.client}>
              <strong>{w.client}</strong>: {w.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Within the limits of the clients Patchbay knows (Cursor about 40 tools, OpenAI and VS Code 128, Claude Code 25,000 tokens).</p>
      )}
      <p className="muted small">Tokens are counted with the {view.tokenizer} tokenizer over what a client sends a model for each tool: name, title, description and schemas.</p>
    </section>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className="stat-value" data-testid={testId}>{value}</span>
    </div>
  );
}
