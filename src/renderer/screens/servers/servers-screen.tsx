/** Servers: the list with live status, and (by route) the add/edit form, the import, a server's details. */
import { useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { relativeTime } from '../../components/format.js';
import { StatusBadge } from '../../components/status-badge.js';
import { removeServer, setServerEnabled, testServer } from '../../app/commands.js';
import { href, type Route } from '../../app/router.js';
import { useServers, useServices } from '../../app/services.js';
import { ImportPanel } from './import-panel.js';
import { ServerDetailView } from './server-detail.js';
import { ServerForm } from './server-form.js';

export function ServersScreen({ route }: { route: Extract<Route, { screen: 'servers' }> }) {
  if (route.mode === 'new') return <ServerForm />;
  if (route.mode === 'edit' && route.serverId) return <ServerForm editId={route.serverId} />;
  if (route.mode === 'import') return <ImportPanel />;
  if (route.serverId) return <ServerDetailView id={route.serverId} />;
  return <ServerList />;
}

function ServerList() {
  const order = useServers((s) => s.order);
  const loaded = useServers((s) => s.loaded);
  const loadError = useServers((s) => s.loadError);
  return (
    <section aria-labelledby="servers-title" className="screen">
      <header className="screen-header">
        <h1 id="servers-title">Servers</h1>
        <div className="actions">
          <a className="button" href={href('servers', 'import')} data-testid="import-servers">
            Paste JSON…
          </a>
          <a className="button button-primary" href={href('servers', 'new')} data-testid="add-server">
            Add server
          </a>
        </div>
      </header>
      {loadError && <ErrorMessage>Could not load the servers: {loadError}</ErrorMessage>}
      {loaded && order.length === 0 && !loadError && (
        <EmptyState title="No servers yet" testId="servers-empty">
          <p>
            Add a local (stdio) or remote server with the form, or paste the <code>mcpServers</code> JSON from a server's README.
            Clients then reach each one at <code>/mcp/&lt;name&gt;</code> on this hub.
          </p>
          <p>
            <a className="button button-primary" href={href('servers', 'new')}>Add server</a>{' '}
            <a className="button" href={href('servers', 'import')}>Paste JSON…</a>
          </p>
        </EmptyState>
      )}
      {order.length > 0 && (
        <table className="table servers-table" data-testid="servers-table">
          <caption className="visually-hidden">Configured servers and their live status</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Sessions</th>
              <th scope="col">Last error</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {order.map((id) => (
              <ServerRow key={id} id={id} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ServerRow({ id }: { id: string }) {
  const services = useServices();
  const server = useServers((s) => s.byId[id]);
  const testing = useServers((s) => s.tests[id]?.state === 'running');
  const [error, setError] = useState<string>();
  if (!server) return null;
  const { status } = server;
  const enabled = status.state !== 'disabled';
  const run = (p: Promise<void>): void => {
    setError(undefined);
    p.catch((e: Error) => setError(e.message));
  };
  return (
    <tr data-testid={`server-row-${id}`}>
      <th scope="row">
        <a href={href('servers', id)} className="row-title">{id}</a>
        <div className="muted small">{server.kind === 'stdio' ? 'stdio' : 'remote'}</div>
      </th>
      <td>
        <StatusBadge state={status.state} />
      </td>
      <td className="num">{status.sessions}</td>
      <td className="last-error">
        {status.lastError && status.state === 'error' ? (
          <span className="error-text" data-testid="server-last-error">
            {status.lastError.message} <span className="muted small">({relativeTime(status.lastError.at)})</span>
          </span>
        ) : (
          <span className="muted">—</span>
        )}
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </td>
      <td className="row-actions">
        <button type="button" className="button" disabled={!enabled || testing} aria-label={`Test ${id}`} onClick={() => { window.location.hash = href('servers', id); void testServer(services, id); }} data-testid={`test-${id}`}>
          {testing ? 'Testing…' : 'Test'}
        </button>
        <button type="button" className="button" aria-label={`${enabled ? 'Disable' : 'Enable'} ${id}`} onClick={() => run(setServerEnabled(services, id, !enabled))} data-testid={`toggle-${id}`}>
          {enabled ? 'Disable' : 'Enable'}
        </button>
        <a className="button" href={href('servers', id, 'edit')} aria-label={`Edit ${id}`}>
          Edit
        </a>
        <ConfirmButton label="Remove" confirmLabel={`Remove ${id}`} accessibleName={`Remove ${id}`} onConfirm={() => run(removeServer(services, id))} testId={`remove-${id}`} />
      </td>
    </tr>
  );
}
