/**
 * Export to one client, in a drawer that stays in view: which servers (or profiles) go in —
 * enabled servers that work are checked, a server in error or the demo is not — what the file
 * would become (a coloured side-by-side diff, secrets masked), Write, and then the outcome where
 * the person is looking: the backup kept, and Roll back.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ClientStateDto, ExportPreviewDto } from '../../../shared/api/clients-contract.js';
import { DiffView } from '../../components/diff-view.js';
import { Drawer } from '../../components/drawer.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { useAppState, useServers, useServices } from '../../app/services.js';

interface Backup { id: string; createdAt: string; reason: string }
interface Outcome { written: boolean; backupId?: string | undefined; restartHint: string }

export function ExportDrawer({ client, onClose, onDone }: { client: ClientStateDto | undefined; onClose(): void; onDone(): Promise<void> }) {
  return (
    <Drawer open={client !== undefined} onClose={onClose} title={client ? `Export to ${client.name}` : 'Export'} testId="export-drawer" wide>
      {client && <ExportBody key={client.id} client={client} onDone={onDone} />}
    </Drawer>
  );
}

function ExportBody({ client, onDone }: { client: ClientStateDto; onDone(): Promise<void> }) {
  const { bridge, stores } = useServices();
  const order = useServers((s) => s.order);
  const byId = useServers((s) => s.byId);
  const tokenFile = useAppState((s) => s.settings?.tokenFile);
  const [profiles, setProfiles] = useState<string[]>([]);
  const [mode, setMode] = useState<'servers' | 'profiles'>('servers');
  // Checked by default: enabled servers that are not failing, and not the demo.
  const [checked, setChecked] = useState<Set<string>>(() => new Set(order.filter((id) => byId[id] && byId[id]!.status.state !== 'disabled' && byId[id]!.status.state !== 'error' && byId[id]!.config.demo !== true)));
  const [checkedProfiles, setCheckedProfiles] = useState<Set<string>>(new Set());
  const [preview, setPreview] = useState<ExportPreviewDto>();
  const [backups, setBackups] = useState<Backup[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  const selection = useMemo(() => (mode === 'profiles' ? { profiles: [...checkedProfiles] } : { servers: order.filter((id) => checked.has(id)) }), [mode, checked, checkedProfiles, order]);
  const refresh = useCallback(async () => {
    const [p, b] = await Promise.all([bridge.call('clients.previewExport', { client: client.id, ...selection }), bridge.call('clients.backups', { client: client.id })]);
    if (p.ok) {
      setPreview(p.value);
      setError(undefined);
    } else setError(p.message);
    if (b.ok) setBackups(b.value);
  }, [bridge, client.id, selection]);
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    void bridge.call('profiles.list', {}).then((r) => {
      if (r.ok) setProfiles(r.value.map((p) => p.name));
    });
  }, [bridge]);

  const write = async (): Promise<void> => {
    if (!preview) return;
    setBusy(true);
    const r = await bridge.call('clients.export', { client: client.id, baseHash: preview.baseHash, ...selection });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setOutcome({ written: r.value.written, backupId: r.value.backupId, restartHint: r.value.restartHint });
    stores.notices.getState().noticePosted(r.value.written ? `Wrote ${client.name}'s config` : `${client.name} was already up to date`);
    await Promise.all([refresh(), onDone()]);
  };
  const rollback = async (backupId: string): Promise<void> => {
    const r = await bridge.call('clients.rollback', { client: client.id, backupId });
    if (!r.ok) return setError(r.message);
    setOutcome(undefined);
    stores.notices.getState().noticePosted(`Restored ${client.name}'s config from the backup`);
    await Promise.all([refresh(), onDone()]);
  };
  const toggle = (set: Set<string>, id: string, on: boolean): Set<string> => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };
  const backupDir = tokenFile ? `${tokenFile.replace(/[\\/][^\\/]*$/, '')}/client-backups/${client.id}` : `client-backups/${client.id} in the data dir`;
  const nothingChosen = mode === 'servers' ? checked.size === 0 : checkedProfiles.size === 0;

  return (
    <div className="export-body">
      <p className="small">
        File: <code>{client.configPath}</code>
        {preview && !preview.exists ? ' (will be created)' : ''}
      </p>
      {profiles.length > 0 && (
        <div className="segmented" role="group" aria-label="Export">
          <button type="button" aria-pressed={mode === 'servers'} onClick={() => setMode('servers')}>Servers</button>
          <button type="button" aria-pressed={mode === 'profiles'} onClick={() => setMode('profiles')} data-testid="export-mode-profiles">Profiles</button>
        </div>
      )}
      <fieldset className="fieldset export-choice" data-testid="export-servers">
        <legend>{mode === 'servers' ? 'Servers to export' : 'Profiles to export (one entry each)'}</legend>
        {mode === 'servers' ? (
          order.length === 0 ? (
            <p className="muted">No servers configured yet.</p>
          ) : (
            order.map((id) => {
              const s = byId[id]!;
              const note = s.status.state === 'error' ? 'in error' : s.status.state === 'disabled' ? 'disabled' : s.config.demo === true ? 'demo' : undefined;
              return (
                <label key={id} className="check check-row">
                  <input type="checkbox" checked={checked.has(id)} onChange={(e) => setChecked(toggle(checked, id, e.target.checked))} data-testid={`export-server-${id}`} />
                  <span>{id}</span>
                  {note && <span className={`chip${note === 'in error' ? ' chip-warn' : ''}`}>{note}</span>}
                </label>
              );
            })
          )
        ) : (
          profiles.map((name) => (
            <label key={name} className="check check-row">
              <input type="checkbox" checked={checkedProfiles.has(name)} onChange={(e) => setCheckedProfiles(toggle(checkedProfiles, name, e.target.checked))} data-testid={`export-profile-${name}`} />
              <span>{name}</span>
            </label>
          ))
        )}
      </fieldset>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {!preview && !error && <p className="muted">Working out the changes…</p>}
      {preview && (
        <>
          <ul className="change-list">
            {preview.changes.map((c) => (
              <li key={c.entryName}>
                <span className={`change change-${c.action}`}>{c.action}</span> <code>{c.entryName}</code>
                {c.message ? <span className="muted"> — {c.message}</span> : ''}
              </li>
            ))}
          </ul>
          {preview.changed ? (
            <DiffView diff={preview.diff} name={client.configPath.split(/[\\/]/).pop() ?? 'config'} labels={['now', 'after the export']} testId="export-diff" />
          ) : (
            <p className="muted" data-testid="export-diff">Nothing to change: the file already has these entries.</p>
          )}
        </>
      )}
      <div className="form-actions sticky-actions">
        <button type="button" className="button button-primary" disabled={busy || !preview?.changed || nothingChosen} onClick={() => void write()} data-testid="export-write">
          {busy ? 'Writing…' : 'Write'}
        </button>
        {preview && <span className="muted small">{preview.restartHint}</span>}
      </div>
      {outcome && (
        <div className="outcome" role="status" data-testid="export-outcome">
          {outcome.written ? (
            <>
              <p className="success-text"><strong>Written.</strong> {outcome.restartHint}</p>
              {outcome.backupId && (
                <p className="small">
                  The previous file is kept as backup <code>{outcome.backupId}</code> in <code>{backupDir}</code>.{' '}
                  <button type="button" className="button button-small" onClick={() => void rollback(outcome.backupId!)} data-testid="export-rollback">Roll back</button>
                </p>
              )}
            </>
          ) : (
            <p>Already up to date; nothing was written.</p>
          )}
        </div>
      )}
      <h3>Backups</h3>
      {backups.length === 0 ? (
        <p className="muted">No backups yet: one is made each time Patchbay writes this file.</p>
      ) : (
        <ul className="backup-list">
          {backups.map((b) => (
            <li key={b.id}>
              {formatDateTime(b.createdAt)} <span className="muted">({b.reason})</span>{' '}
              <button type="button" className="button button-small" onClick={() => void rollback(b.id)} aria-label={`Roll back to the backup of ${formatDateTime(b.createdAt)}`}>Roll back</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
