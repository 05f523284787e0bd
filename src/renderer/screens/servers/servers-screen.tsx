/** Servers: the list with live status and call stats, and (by route) the add/edit form, the import, a server's page. */
import { lazy, useEffect, useState } from 'react';
import { Menu, MenuButton, MenuItem, MenuProvider } from '@ariakit/react';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatMs, relativeTime } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { StatusBadge } from '../../components/status-badge.js';
import { sandboxed } from './server-form-model.js';
import { loadStats, removeServerWithUndo, setServerEnabled, testServer } from '../../app/commands.js';
import { href, type Route } from '../../app/router.js';
import { useServers, useServices } from '../../app/services.js';
import { ImportPanel } from './import-panel.js';
import { ServerForm } from './server-form.js';
import { ServerPage } from './server-page.js';
import { ServerEraChip } from './server-era.js';
import { OutdatedChip, useOutdated } from '../catalog/outdated.js';

// The catalog (its search, detail pane and install form) loads when first opened.
const CatalogScreen = lazy(() => import('../catalog/catalog-screen.js').then((m) => ({ default: m.CatalogScreen })));

/** Stats are refreshed this often while a servers screen is shown. */
const STATS_REFRESH_MS = 5000;

export function ServersScreen({ route }: { route: Extract<Route, { screen: 'servers' }> }) {
  const services = useServices();
  useEffect(() => {
    const t = setInterval(() => void loadStats(services), STATS_REFRESH_MS);
    return () => clearInterval(t);
  }, [services]);
  // Here, not in the list and the page: both show the chips, and moving between them asks nothing.
  useOutdated();
  if (route.mode === 'new') return <ServerForm />;
  if (route.mode === 'edit' && route.serverId) return <ServerForm editId={route.serverId} />;
  if (route.mode === 'import') return <ImportPanel />;
  if (route.mode === 'catalog') return <CatalogScreen name={route.item} />;
  if (route.serverId) return <ServerPage id={route.serverId} tab={route.mode === 'playground' ? 'playground' : 'details'} item={route.item} />;
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
          <a className="button" href={href('servers', 'catalog')} data-testid="add-from-catalog">
            <Icon name="search" /> Add from catalog
          </a>
          <a className="button button-primary" href={href('servers', 'new')} data-testid="add-server">
            <Icon name="plus" /> Add server
          </a>
        </div>
      </header>
      {loadError && <ErrorMessage>Could not load the servers: {loadError}</ErrorMessage>}
      {loaded && order.length === 0 && !loadError && (
        <EmptyState title="No servers yet" testId="servers-empty">
          <p>
            Find one in the catalog of MCP registries, add a local (stdio) or remote server with the form, or paste the <code>mcpServers</code> JSON from a server's README.
            Clients then reach each one at <code>/mcp/&lt;name&gt;</code> on this hub.
          </p>
          <p>
            <a className="button button-primary" href={href('servers', 'catalog')}>Add from catalog</a>{' '}
            <a className="button" href={href('servers', 'new')}>Add server</a>{' '}
            <a className="button" href={href('servers', 'import')}>Paste JSON…</a>
          </p>
        </EmptyState>
      )}
      {order.length > 0 && (
        <div className="table-wrap">
          <table className="table servers-table" data-testid="servers-table">
            <caption className="visually-hidden">Configured servers, their live status and calls since the hub started</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col" className="num col-optional">Sessions</th>
                <th scope="col" className="num">Calls</th>
                <th scope="col" className="num">Errors</th>
                <th scope="col" className="num col-optional">p50 / p95</th>
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
        </div>
      )}
    </section>
  );
}

function ServerRow({ id }: { id: string }) {
  const services = useServices();
  const server = useServers((s) => s.byId[id]);
  const stats = useServers((s) => s.stats[id]);
  const testing = useServers((s) => s.tests[id]?.state === 'running');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  if (!server) return null;
  const { status } = server;
  const enabled = status.state !== 'disabled';
  const demo = server.config.demo === true;
  const run = (p: Promise<void>): void => {
    setError(undefined);
    p.catch((e: Error) => setError(e.message));
  };
  return (
    <tr data-testid={`server-row-${id}`}>
      <th scope="row">
        <a href={href('servers', id)} className="row-title">{id}</a>
        {demo && <span className="chip chip-accent" title="Patchbay's demo server, added on the first run">demo</span>}
        {status.era && <ServerEraChip era={status.era} testId="server-era" />}
        <OutdatedChip id={id} />
        {sandboxed(server.config) && <span className="chip" title="Runs in a sandbox: only the system's runtime, its own code and a directory of its own (docs/sandbox.md)" data-testid="server-sandboxed">sandboxed</span>}
        <div className="muted small">{server.kind === 'stdio' ? 'stdio' : 'remote'}</div>
      </th>
      <td>
        <StatusBadge state={status.state} />
      </td>
      <td className="num col-optional">{status.sessions}</td>
      <td className="num" data-testid="server-calls">{stats?.calls ?? 0}</td>
      <td className={`num${stats && stats.errors > 0 ? ' error-text' : ''}`} data-testid="server-errors">{stats?.errors ?? 0}</td>
      <td className="num muted col-optional">{stats?.p50Ms !== undefined ? `${formatMs(stats.p50Ms)} / ${formatMs(stats.p95Ms)}` : '—'}</td>
      <td className="last-error">
        {status.lastError && status.state === 'error' ? (
          <span className="error-text clamp-2" data-testid="server-last-error" title={status.lastError.message}>
            {status.lastError.message} <span className="muted small">({relativeTime(status.lastError.at)})</span>
          </span>
        ) : (
          <span className="muted">—</span>
        )}
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </td>
      <td className="actions-cell">
        <div className="row-actions">
          <a className={`button button-small${enabled ? '' : ' disabled-link'}`} href={enabled ? href('servers', id, 'playground') : undefined} aria-disabled={!enabled} aria-label={`Playground of ${id}`} data-testid={`playground-${id}`}>
            <Icon name="play" /> Playground
          </a>
          <button type="button" className="button button-small" disabled={!enabled || testing} aria-label={`Test ${id}`} onClick={() => { window.location.hash = href('servers', id); void testServer(services, id); }} data-testid={`test-${id}`}>
            {testing ? 'Testing…' : 'Test'}
          </button>
          {demo && !confirming && (
            <button type="button" className="button button-small button-danger-quiet" aria-label={`Remove the demo server ${id}`} onClick={() => run(removeServerWithUndo(services, id))} data-testid={`remove-demo-${id}`}>
              Remove demo
            </button>
          )}
          {confirming ? (
            <span className="confirm" role="group" aria-label={`Remove ${id}?`}>
              <button type="button" className="button button-small button-danger" data-testid={`remove-${id}-confirm`} onClick={() => { setConfirming(false); run(removeServerWithUndo(services, id)); }}>
                Remove {id}
              </button>
              <button type="button" className="button button-small" ref={(el) => el?.focus()} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <MenuProvider>
              <MenuButton className="button button-small icon-only" aria-label={`More actions for ${id}`} data-testid={`more-${id}`}>
                <Icon name="more" />
              </MenuButton>
              <Menu gutter={4} className="menu" portal>
                <MenuItem className="menu-item" render={<a href={href('servers', id, 'edit')} />}>Edit</MenuItem>
                <MenuItem className="menu-item" onClick={() => run(setServerEnabled(services, id, !enabled))} data-testid={`toggle-${id}`}>
                  {enabled ? 'Disable' : 'Enable'}
                </MenuItem>
                <MenuItem className="menu-item menu-item-danger" onClick={() => setConfirming(true)} data-testid={`remove-${id}`}>
                  Remove…
                </MenuItem>
              </Menu>
            </MenuProvider>
          )}
        </div>
      </td>
    </tr>
  );
}
