/**
 * On-demand tools of a profile (issue 26; docs/profiles.md, "On-demand tools"): the profile's
 * switch, what is pinned (pinned in the members' tool lists below), and per client on, off or the
 * profile's default. Every change is one `profiles.update` with an `onDemand` change; the engine
 * writes config.json and connected clients get list_changed.
 */
import { useEffect, useState } from 'react';
import type { OnDemandChange, ProfileView } from '../../../shared/api/profiles-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useServices } from '../../app/services.js';

type OnDemand = NonNullable<ProfileView['onDemand']>;

/**
 * Saves an on-demand change of a profile and waits for the profile to be read again; the error, if
 * any, in words. Controls show the person's choice meanwhile (`usePending`), so a switch does not
 * flip back for the moment the engine takes to write config.json.
 */
export function useOnDemandUpdate(profile: string, onChanged: () => Promise<void> | void): { save(change: OnDemandChange): Promise<void>; error: string | undefined; busy: boolean } {
  const { bridge } = useServices();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = async (change: OnDemandChange): Promise<void> => {
    setBusy(true);
    try {
      const r = await bridge.call('profiles.update', { name: profile, onDemand: change });
      if (!r.ok) return setError(r.message);
      setError(undefined);
      await onChanged();
    } finally {
      setBusy(false);
    }
  };
  return { save, error, busy };
}

/** A control's value: the person's choice while it is being saved, else what the engine says. */
export function usePending<T>(actual: T): [T, (run: Promise<void>, value: T) => void] {
  const [pending, setPending] = useState<{ value: T }>();
  const start = (run: Promise<void>, value: T): void => {
    setPending({ value });
    void run.catch(() => undefined).finally(() => setPending(undefined));
  };
  return [pending ? pending.value : actual, start];
}

export function OnDemandPanel({ profile, od, onChanged }: { profile: string; od: OnDemand; onChanged(): Promise<void> | void }) {
  const { save, error, busy } = useOnDemandUpdate(profile, onChanged);
  const [enabled, setEnabled] = usePending(od.enabled);
  const perClient = Object.keys(od.clients).length;
  // The client table (and its clients.list, which reads every client's config) only once opened.
  const [open, setOpen] = useState(false);
  return (
    <section className="panel" aria-labelledby="on-demand-title" data-testid="on-demand-panel">
      <h2 id="on-demand-title">On-demand tools</h2>
      <label className="check switch-row">
        <input type="checkbox" role="switch" checked={enabled} disabled={busy} onChange={(e) => setEnabled(save({ enabled: e.target.checked }), e.target.checked)} data-testid="on-demand-switch" />
        <span>
          <strong>On-demand tools</strong> for this profile's clients
        </span>
      </label>
      <p className="muted small">
        Instead of every tool, a client gets the pinned tools and three meta-tools: <code>patchbay__find_tools</code> (search by words), <code>patchbay__describe_tool</code> and{' '}
        <code>patchbay__call_tool</code>. A tool it finds joins its list for the rest of the session. Worth it for big profiles and for Cursor's tool cap; Claude Code and Copilot CLI search tools themselves, so leave them on all tools.
      </p>
      <p data-testid="on-demand-pinned">
        {od.pinned.length > 0 ? (
          <>
            Pinned: {od.pinned.map((p, i) => (
              <span key={p}>
                {i > 0 && ', '}
                <code>{p}</code>
              </span>
            ))}
            <span className="muted small"> — pin or unpin tools in the lists below.</span>
          </>
        ) : (
          <span className="muted">No tool pinned: pin the tools every client should always see in the lists below.</span>
        )}
      </p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <details className="sub-details" data-testid="on-demand-clients" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          Per client {perClient > 0 ? `(${perClient} set)` : '(all follow the profile)'}
        </summary>
        {open && <ClientChoices od={od} busy={busy} save={save} />}
      </details>
    </section>
  );
}

function ClientChoices({ od, busy, save }: { od: OnDemand; busy: boolean; save(change: OnDemandChange): Promise<void> }) {
  const names = useClientNames();
  // The clients Patchbay knows (clients.list: every one, installed or not), then any other id config.json names.
  const ids = [...Object.keys(names), ...Object.keys(od.clients).filter((id) => !(id in names))];
  const fallback = od.enabled ? 'on' : 'off';
  return (
    <>
      <p className="muted small">
        For sessions opened with a client's own token (Clients → export writes one). Other sessions, and the 2026-07-28 era, follow the profile.
      </p>
      <div className="table-wrap">
        <table className="table client-table" data-testid="on-demand-client-table">
          <caption className="visually-hidden">On-demand tools per client</caption>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">On-demand tools</th>
            </tr>
          </thead>
          <tbody>
            {ids.map((id) => (
              <tr key={id} data-testid={`on-demand-client-${id}`}>
                <th scope="row">
                  {names[id] ?? id} {names[id] && <span className="muted small">({id})</span>}
                </th>
                <td>
                  <ClientChoice id={id} label={names[id] ?? id} value={id in od.clients ? (od.clients[id] ? 'on' : 'off') : 'default'} fallback={fallback} busy={busy} save={save} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

type Choice = 'default' | 'on' | 'off';

function ClientChoice({ id, label, value, fallback, busy, save }: { id: string; label: string; value: Choice; fallback: string; busy: boolean; save(change: OnDemandChange): Promise<void> }) {
  const [shown, setShown] = usePending<Choice>(value);
  return (
    <select
      className="input"
      value={shown}
      disabled={busy}
      aria-label={`On-demand tools for ${label}`}
      onChange={(e) => {
        const choice = e.target.value as Choice;
        setShown(save({ clients: { [id]: choice === 'default' ? null : choice === 'on' } }), choice);
      }}
      data-testid={`on-demand-client-select-${id}`}
    >
      <option value="default">Profile default ({fallback})</option>
      <option value="on">On</option>
      <option value="off">Off: all tools</option>
    </select>
  );
}

/** Client ids → the names people know (`cursor` → Cursor), from clients.list (the contract's CLIENT_IDS, in order). */
function useClientNames(): Record<string, string> {
  const { bridge } = useServices();
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    void bridge.call('clients.list', {}).then((r) => {
      if (live && r.ok) setNames(Object.fromEntries(r.value.map((c) => [c.id, c.name])));
    });
    return () => {
      live = false;
    };
  }, [bridge]);
  return names;
}
