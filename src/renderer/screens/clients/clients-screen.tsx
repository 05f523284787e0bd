/**
 * MCP clients on this machine and their config files. Exporting Patchbay's entries to one opens a
 * drawer (export-drawer.tsx): pick the servers, see the change as a diff, write it, roll back.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ClientStateDto } from '../../../shared/api/clients-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { useServices } from '../../app/services.js';

// The drawer's diff viewer loads with the first export opened.
const ExportDrawer = lazy(() => import('./export-drawer.js').then((m) => ({ default: m.ExportDrawer })));

type ClientId = ClientStateDto['id'];

const STATUS_TEXT: Record<ClientStateDto['status'], string> = { ok: 'OK', missing: 'no config yet', invalid: 'invalid file', unreadable: 'unreadable', unsupported: 'unsupported' };

/** `exportClient`: a client whose export opens at once (the route `#/clients/<id>/export`). */
export function ClientsScreen({ exportClient }: { exportClient?: string | undefined } = {}) {
  const { bridge } = useServices();
  const [clients, setClients] = useState<ClientStateDto[]>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<ClientId | undefined>(exportClient as ClientId | undefined);
  useEffect(() => {
    if (exportClient) setSelected(exportClient as ClientId);
  }, [exportClient]);
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
  const client = selected ? clients?.find((c) => c.id === selected) : undefined;
  return (
    <section className="screen" aria-labelledby="clients-title">
      <header className="screen-header">
        <h1 id="clients-title">Clients</h1>
      </header>
      <p className="muted lead">
        Patchbay writes one entry per server into a client's own config: HTTP clients get the hub URL, stdio-only clients (Claude Desktop) get the relay. You see the diff first; a backup is always kept.
      </p>
      {error && <ErrorMessage>Could not list the clients: {error}</ErrorMessage>}
      {clients && (
        <div className="table-wrap">
          <table className="table clients-table" data-testid="clients-table">
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
              {installed.length === 0 && (
                <tr className="table-note" data-testid="clients-empty">
                  <td colSpan={5}>
                    <strong>No MCP client found on this machine.</strong> <span className="muted">Install one (Claude Desktop, Cursor, VS Code…), or export anyway: Patchbay creates its config file.</span>
                  </td>
                </tr>
              )}
              {[...installed, ...others].map((c, i) => (
                <tr key={c.id} data-testid={`client-row-${c.id}`} className={i === installed.length && installed.length > 0 ? 'group-start' : undefined}>
                  <th scope="row">
                    {c.name}
                    {!c.installed && !c.configExists ? <div className="muted small">not found</div> : null}
                  </th>
                  <td className="mono small path-cell">{c.configPath}</td>
                  <td>
                    <span className={c.status === 'ok' ? 'success-text' : c.status === 'missing' ? 'muted' : 'error-text'}>{STATUS_TEXT[c.status]}</span>
                    {c.problem ? <div className="error-text small">{c.problem}</div> : null}
                  </td>
                  <td className="num">{c.entries.filter((e) => e.patchbay).length}</td>
                  <td className="actions-cell">
                    <div className="row-actions">
                      <button type="button" className="button button-small" aria-haspopup="dialog" aria-label={`Export to ${c.name}`} onClick={() => setSelected(c.id)}>
                        <Icon name="external" /> Export…
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {client && (
        <Suspense fallback={null}>
          <ExportDrawer client={client} onClose={() => setSelected(undefined)} onDone={load} />
        </Suspense>
      )}
    </section>
  );
}
