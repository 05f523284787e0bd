/**
 * A server installed from the catalog, on its page: its tools waiting for approval in each profile
 * that serves it, with the Profiles screen's own data (`useProfileList`, `useProfileView`) and its
 * diff-and-Approve (`Change`), plus Approve all (`profiles.approve` for this server's tools).
 * A read that fails is said here, naming what could not be read, and goes once a reload works.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { plural } from '../../components/format.js';
import { href } from '../../app/router.js';
import { useServices } from '../../app/services.js';
import { useProfileList, useProfileView } from '../profiles/use-profiles.js';

// The diff view is a chunk of its own: the Servers screen's first paint does not wait for it.
const Change = lazy(() => import('../profiles/changed-tools.js').then((m) => ({ default: m.Change })));

export function PendingTools({ server }: { server: string }) {
  const { list, error } = useProfileList();
  const serving = (list ?? []).filter((p) => p.members.some((m) => m.server === server && m.state === 'enabled')).map((p) => p.name);
  // What each profile has to show (tools waiting or a failed read), told by its block below.
  const [showing, setShowing] = useState<ReadonlySet<string>>(new Set());
  const report = useCallback((profile: string, shows: boolean) => {
    setShowing((s) => {
      if (s.has(profile) === shows) return s;
      const next = new Set(s);
      if (shows) next.add(profile);
      else next.delete(profile);
      return next;
    });
  }, []);
  const visible = error !== undefined || serving.some((p) => showing.has(p));
  // The blocks stay mounted while there is nothing to show (hidden): each reads its profile and
  // follows its changes, and says when it has something.
  return (
    <section className="panel" aria-labelledby="pending-tools-title" data-testid="pending-tools" hidden={!visible}>
      <h2 id="pending-tools-title">Tools waiting for your approval</h2>
      <p className="muted small">Installed from the catalog: clients get these tools once you approve them (the Profiles screen shows the same).</p>
      {error && <ErrorMessage testId="pending-tools-error">Could not read the profiles: {error}</ErrorMessage>}
      {serving.map((p) => (
        <PendingIn key={p} profile={p} server={server} onShows={report} />
      ))}
    </section>
  );
}

/** This server's changed or held tools in one profile. */
function PendingIn({ profile, server, onShows }: { profile: string; server: string; onShows(profile: string, shows: boolean): void }) {
  const { bridge, stores } = useServices();
  const { view, error, reload } = useProfileView(profile);
  const [approveError, setApproveError] = useState<string>();
  // Held tools are in `changes` too (a catalog install's first tools as a change from nothing).
  const changes = (view?.changes ?? []).filter((c) => c.server === server);
  const shows = changes.length > 0 || error !== undefined;
  useEffect(() => {
    onShows(profile, shows);
  }, [onShows, profile, shows]);
  useEffect(() => () => onShows(profile, false), [onShows, profile]);

  const approveAll = async (): Promise<void> => {
    setApproveError(undefined);
    const r = await bridge.call('profiles.approve', { name: profile, server });
    if (!r.ok) return setApproveError(r.message);
    stores.notices.getState().noticePosted(`Approved ${plural(r.value.approved.length, 'tool')} of ${server} in @${profile}`);
    await reload();
  };

  if (!shows) return null;
  return (
    <div className="pending-profile" data-testid={`pending-${profile}`}>
      {error && <ErrorMessage testId={`pending-error-${profile}`}>Could not read @{profile}: {error}</ErrorMessage>}
      {changes.length > 0 && (
        <>
          <div className="detail-head">
            <h3>
              In <a href={href('profiles', profile)}>@{profile}</a>: <span className="badge badge-status-pending">{changes.length} waiting for approval</span>
            </h3>
            <span className="spacer" />
            <button type="button" className="button button-primary button-small" onClick={() => void approveAll()} data-testid={`approve-all-${profile}`}>
              Approve all
            </button>
          </div>
          {approveError && <ErrorMessage>Not approved: {approveError}</ErrorMessage>}
          <div className="pending-list">
            <Suspense fallback={<p className="muted small">Loading…</p>}>
              {changes.map((c) => (
                <Change key={c.tool} profile={profile} change={c} onApproved={() => void reload()} />
              ))}
            </Suspense>
          </div>
        </>
      )}
    </div>
  );
}
