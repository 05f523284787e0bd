/**
 * MCP clients on this machine and their config files: what exporting Patchbay's entries would
 * change (a diff, secrets masked), write it (atomically, with a backup), and roll back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ClientStateDto, ExportPreviewDto } from '../../../shared/api/clients-contract.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { useServices } from '../../app/services.js';

type ClientId = ClientStateDto['id'];
interface Backup { id: string; createdAt: string; reason: string }

export function ClientsScreen() {
  const { bridge } = useServices();
  const [clients, setClients] = useState<ClientStateDto[]>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<ClientId>();
  const load = useCallback(async () => {
    const r = await bridge.call('clients.list', {});
    if (r.ok) setClients(r.value);
    else setError(r.message);
  }, [bridge]);
  useEffect(() => {
    void load();
    return bridge.subscribe((e) => {
      if (e.channel === 'clients.written' || e.channel === 'config.changed') void load();
    });
  }, [bridge, load]);
  const installed = clients?.filter((c) => c.installed || c.configExists) ?? [];
  const others = clients?.filter((c) => !(c.installed || c.configExists)) ?? [];
  return (
    <section className="screen" aria-labelledby="clients-title">
      <header className="screen-header">
        <h1 id="clients-title">Clients</h1>
      </header>
      <p className="muted">Patchbay writes one entry per server into a client's own config: HTTP clients get the hub URL, stdio-only clients (Claude Desktop) get the relay. A diff comes first, a backup is always kept.</p>
      {error && <ErrorMessage>Could not list the clients: {error}</ErrorMessage>}
      {clients && installed.length === 0 && (
        <EmptyState title="No MCP clients found" testId="clients-empty">
          <p>None of the known clients has a config file on this machine yet. Install one (Claude Desktop, Cursor, VS Code…), or export anyway to create its file.</p>
        </EmptyState>
      )}
      {clients && (
        <table className="table" data-testid="clients-table">
          <caption className="visually-hidden">MCP clients and their config files</caption>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Config file</th>
              <th scope="col">State</th>
              <th scope="col" className="num">Patchbay entries</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {[...installed, ...others].map((c) => (
              <tr key={c.id} data-testid={`client-row-${c.id}`}>
                <th scope="row">{c.name}{!c.installed && !c.configExists ? <div className="muted small">not found</div> : null}</th>
                <td className="mono small">{c.configPath}</td>
                <td>{c.status === 'ok' ? 'OK' : c.status}{c.problem ? <div className="error-text small">{c.problem}</div> : null}</td>
                <td className="num">{c.entries.filter((e) => e.patchbay).length}</td>
                <td className="row-actions">
                  <button type="button" className="button" aria-expanded={selected === c.id} aria-label={`Export to ${c.name}`} onClick={() => setSelected(selected === c.id ? undefined : c.id)}>
                    {selected === c.id ? 'Close' : 'Export…'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && clients && <ExportPanel key={selected} client={clients.find((c) => c.id === selected)!} onDone={load} />}
    </section>
  );
}

function ExportPanel({ client, onDone }: { client: ClientStateDto; onDone(): Promise<void> }) {
  const { bridge, stores } = useServices();
  const [preview, setPreview] = useState<ExportPreviewDto>();
  const [backups, setBackups] = useState<Backup[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const refresh = useCallback(async () => {
    const [p, b] = await Promise.all([bridge.call('clients.previewExport', { client: client.id }), bridge.call('clients.backups', { client: client.id })]);
    if (p.ok) setPreview(p.value);
    else setError(p.message);
    if (b.ok) setBackups(b.value);
  }, [bridge, client.id]);
  useEffect(() => void refresh(), [refresh]);

  const write = async (): Promise<void> => {
    if (!preview) return;
    setBusy(true);
    const r = await bridge.call('clients.export', { client: client.id, baseHash: preview.baseHash });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    stores.notices.getState().noticePosted(r.value.written ? `Wrote ${client.name}'s config. ${r.value.restartHint}` : `${client.name} was already up to date`);
    await Promise.all([refresh(), onDone()]);
  };
  const rollback = async (backupId: string): Promise<void> => {
    const r = await bridge.call('clients.rollback', { client: client.id, backupId });
    if (!r.ok) return setError(r.message);
    stores.notices.getState().noticePosted(`Restored ${client.name}'s config from the backup`);
    await Promise.all([refresh(), onDone()]);
  };

  return (
    <section className="panel" aria-labelledby="export-title" data-testid="export-panel">
      <h2 id="export-title">Export to {client.name}</h2>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {!preview && !error && <p className="muted">Working out the changes…</p>}
      {preview && (
        <>
          <p>
            File: <code>{preview.file}</code>{preview.exists ? '' : ' (will be created)'}
          </p>
          <ul>
            {preview.changes.map((c) => (
              <li key={c.entryName}><strong>{c.action}</strong> <code>{c.entryName}</code>{c.message ? ` — ${c.message}` : ''}</li>
            ))}
          </ul>
          {preview.changed ? (
            <pre className="error-pre diff" role="region" tabIndex={0} aria-label="What exporting would change" data-testid="export-diff">{preview.diff}</pre>
          ) : (
            <p className="muted">Nothing to change: the file already has Patchbay's entries.</p>
          )}
          <div className="form-actions">
            <button type="button" className="button button-primary" disabled={busy || !preview.changed} onClick={() => void write()} data-testid="export-write">Write</button>
          </div>
          <p className="muted small">{preview.restartHint}</p>
        </>
      )}
      <h3>Backups</h3>
      {backups.length === 0 ? (
        <p className="muted">No backups yet: one is made each time Patchbay writes this file.</p>
      ) : (
        <ul>
          {backups.map((b) => (
            <li key={b.id}>
              {formatDateTime(b.createdAt)} ({b.reason}){' '}
              <button type="button" className="button button-small" onClick={() => void rollback(b.id)} aria-label={`Roll back to the backup of ${formatDateTime(b.createdAt)}`}>Roll back</button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
