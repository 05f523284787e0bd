/**
 * One server's page: its name and live state, what to do with it (test, edit, the playground),
 * and two views — the playground, where the person calls its tools, and its details (where
 * clients reach it, the entry, the last test, calls and latency over time).
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { CopyButton } from '../../components/copy-button.js';
import { Icon } from '../../components/icons.js';
import { StatusBadge } from '../../components/status-badge.js';
import { sandboxed } from './server-form-model.js';
import { testServer } from '../../app/commands.js';
import { href } from '../../app/router.js';
import { useServers, useServices } from '../../app/services.js';
import { ServerDetails } from './server-detail.js';
import { OutdatedChip, UpdateButton } from '../catalog/outdated.js';

// The playground (its form generator, markdown, content renderers) loads with the first playground opened.
const PlaygroundView = lazy(() => import('../playground/playground-view.js').then((m) => ({ default: m.PlaygroundView })));

export function ServerPage({ id, tab, item }: { id: string; tab: 'details' | 'playground'; item?: string | undefined }) {
  const services = useServices();
  const server = useServers((s) => s.byId[id]);
  const loaded = useServers((s) => s.loaded);
  const test = useServers((s) => s.tests[id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), [id]);

  if (!server) {
    return (
      <section className="screen">
        <h1 ref={heading} tabIndex={-1}>{loaded ? `No server named ${id}` : 'Loading…'}</h1>
        {loaded && <p>It may have been removed or renamed. <a href={href('servers')}>Back to servers</a></p>}
      </section>
    );
  }
  const disabled = server.status.state === 'disabled';
  return (
    <section className={`screen server-screen${tab === 'playground' ? ' wide' : ''}`} aria-labelledby="server-title">
      <p className="breadcrumb"><a href={href('servers')}>Servers</a> / {id}</p>
      <header className="screen-header">
        <h1 id="server-title" ref={heading} tabIndex={-1}>{id}</h1>
        <StatusBadge state={server.status.state} />
        {server.config.demo === true && <span className="chip chip-accent">demo</span>}
        {sandboxed(server.config) && <span className="chip" title="Runs in a sandbox (docs/sandbox.md)">sandboxed</span>}
        <OutdatedChip id={id} />
        <div className="actions">
          <UpdateButton id={id} />
          <a className="button" href={href('servers', id, 'edit')}>Edit</a>
          <button type="button" className="button" disabled={disabled || test?.state === 'running'} onClick={() => { window.location.hash = href('servers', id); void testServer(services, id); }} data-testid="test-connection">
            {test?.state === 'running' ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </header>
      <p className="server-url">
        <span className="muted">Clients connect to</span> <code data-testid="server-url">{server.url}</code> <CopyButton label="Copy URL" text={() => server.url} />
      </p>
      {/* The page opens on its first tab: details (the last test, what it offers, its numbers). */}
      <nav className="tabs page-tabs" aria-label={`${id} views`}>
        <a className="tab" href={href('servers', id)} aria-current={tab === 'details' ? 'page' : undefined} data-testid="tab-details">
          Details &amp; stats
        </a>
        <a className="tab" href={href('servers', id, 'playground')} aria-current={tab === 'playground' ? 'page' : undefined} data-testid="tab-playground">
          <Icon name="play" /> Playground
        </a>
      </nav>
      {tab === 'playground' ? (
        disabled ? (
          <p className="muted">This server is disabled: enable it on the Servers list to try it here.</p>
        ) : (
          <Suspense fallback={<p className="muted"><span className="spinner" aria-hidden="true" /> Loading the playground…</p>}>
            <PlaygroundView server={id} item={item} />
          </Suspense>
        )
      ) : (
        <ServerDetails id={id} />
      )}
    </section>
  );
}
