/**
 * Profiles: several servers served as one MCP server each (`/mcp`, `/mcp/@name`). One tab per
 * profile; the selected one shows its URL, its totals against client limits, changed tools with
 * their diffs, and every member's tools with a toggle and a token cost (profile-detail.tsx).
 * `#/profiles/<name>/playground` is the profile's playground: its aggregated endpoint as a client
 * sees it.
 */
import { lazy, Suspense, useState } from 'react';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { href } from '../../app/router.js';
import { CreateProfileForm } from './create-profile-form.js';
import { ProfileDetail } from './profile-detail.js';
import { useProfileList } from './use-profiles.js';

// The playground (its form generator, markdown, content renderers) loads with the first playground opened.
const PlaygroundView = lazy(() => import('../playground/playground-view.js').then((m) => ({ default: m.PlaygroundView })));

export function ProfilesScreen({ name, mode, item }: { name?: string | undefined; mode?: 'playground' | undefined; item?: string | undefined }) {
  if (name && mode === 'playground') return <ProfilePlayground name={name} item={item} />;
  return <ProfileList name={name} />;
}

function ProfilePlayground({ name, item }: { name: string; item: string | undefined }) {
  return (
    <section className="screen wide" aria-labelledby="profile-playground-title">
      <p className="breadcrumb">
        <a href={href('profiles')}>Profiles</a> / <a href={href('profiles', name)}>{name}</a> / Playground
      </p>
      <header className="screen-header">
        <h1 id="profile-playground-title">Playground of profile {name}</h1>
      </header>
      <p className="muted lead">What a client of <code>/mcp/@{name}</code> sees: the tools, resources and prompts the profile lets through, under the names it gives them.</p>
      <Suspense fallback={<p className="muted"><span className="spinner" aria-hidden="true" /> Loading the playground…</p>}>
        <PlaygroundView server={`@${name}`} item={item} />
      </Suspense>
    </section>
  );
}

function ProfileList({ name }: { name: string | undefined }) {
  const { list, error, reload } = useProfileList();
  const [creating, setCreating] = useState(false);
  const selected = name ?? 'default';
  return (
    <section className="screen" aria-labelledby="profiles-title">
      <header className="screen-header">
        <h1 id="profiles-title">Profiles</h1>
        <div className="actions">
          <button type="button" className="button" onClick={() => setCreating(!creating)} aria-expanded={creating} data-testid="new-profile">
            <Icon name="plus" /> New profile
          </button>
        </div>
      </header>
      <p className="muted lead">
        A profile serves several servers as one: one connection for the client, only the tools you turn on, their cost in the model's context, and tools that changed since you approved them held back.
      </p>
      {creating && <CreateProfileForm onDone={() => { setCreating(false); void reload(); }} />}
      {error && <ErrorMessage>Could not list the profiles: {error}</ErrorMessage>}
      {list && list.length === 0 && (
        <EmptyState title="No profiles" testId="profiles-empty">
          <p>Add servers first; the default profile then serves all of them at /mcp.</p>
        </EmptyState>
      )}
      {list && list.length > 0 && (
        <>
          <nav className="tabs page-tabs" aria-label="Profiles" data-testid="profile-tabs">
            {list.map((p) => (
              <a key={p.name} className="tab" href={href('profiles', p.name)} aria-current={p.name === selected ? 'page' : undefined} data-testid={`profile-tab-${p.name}`}>
                {p.name}
                {p.changedTools > 0 && <span className="chip chip-warn">{p.changedTools} changed</span>}
              </a>
            ))}
          </nav>
          {list.some((p) => p.name === selected) ? <ProfileDetail key={selected} name={selected} /> : <ErrorMessage>There is no profile '{selected}'.</ErrorMessage>}
        </>
      )}
    </section>
  );
}
