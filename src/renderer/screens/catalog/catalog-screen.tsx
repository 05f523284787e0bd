/**
 * Servers → Add from catalog (`#/servers/catalog[/<name>]`): search the registries' cached copy as
 * you type, results with their trust signals on the left, the chosen entry's detail and install
 * form on the right. A registry failure is said here, in the engine's words; the Servers screen
 * never depends on the catalog answering.
 */
import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { SplitPanes } from '../../components/split.js';
import { refreshCatalog, searchCatalog } from '../../app/catalog-commands.js';
import { href } from '../../app/router.js';
import { useCatalog, useServices } from '../../app/services.js';
import { CatalogDetailPane } from './catalog-detail.js';
import { CatalogResults } from './catalog-results.js';
import { freshnessLine } from './freshness.js';

/** Typing pauses this long before the engine is asked (each search is local, but not free). */
const SEARCH_DEBOUNCE_MS = 200;

export function CatalogScreen({ name }: { name: string | undefined }) {
  const services = useServices();
  const query = useCatalog((s) => s.query);
  const searched = useCatalog((s) => s.searched);
  const error = useCatalog((s) => s.error);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => (name ? undefined : box.current?.focus()), [name]);

  // Search as you type; the first visit lists what was updated last (an empty query) at once, as
  // nothing was searched yet. `searched` is read, not a dependency: an answer arriving is no reason to search.
  useEffect(() => {
    const t = setTimeout(() => void searchCatalog(services, query), searched === undefined ? 0 : SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [services, query]);

  return (
    <section className="screen catalog-screen" aria-labelledby="catalog-title" data-testid="catalog">
      <p className="breadcrumb"><a href={href('servers')}>Servers</a> / Add from catalog</p>
      <header className="screen-header">
        <h1 id="catalog-title">Add from catalog</h1>
      </header>
      <div className="toolbar catalog-toolbar">
        <div className="search-field catalog-search">
          <Icon name="search" />
          <input
            ref={box}
            type="search"
            className="input"
            aria-label="Search the catalog"
            placeholder="Search servers: name, title, description…"
            value={query}
            onChange={(e) => services.stores.catalog.getState().queryTyped(e.target.value)}
            data-testid="catalog-search"
          />
        </div>
        <Freshness />
      </div>
      {error && <ErrorMessage testId="catalog-error">The catalog could not be read: {error}</ErrorMessage>}
      <RegistryErrors />
      <div className="catalog-split">
        <SplitPanes id="catalog-panes" leftLabel="the results" defaultLeft={42} minLeft={28} minRight={36} left={<CatalogResults selected={name} />} right={<CatalogDetailPane name={name} />} />
      </div>
    </section>
  );
}

function Freshness() {
  const services = useServices();
  const registries = useCatalog((s) => s.registries);
  const refreshing = useCatalog((s) => s.refreshing);
  return (
    <div className="catalog-freshness" data-testid="catalog-freshness">
      <ul className="fact-list" aria-label="Registries">
        {(registries ?? []).map((r) => (
          <li key={r.url} data-testid="catalog-registry">
            <span className={r.error ? 'error-text' : 'muted'} title={r.url}>{freshnessLine(r)}</span>
          </li>
        ))}
        {registries === undefined && <li className="muted">Reading the registries…</li>}
      </ul>
      <button type="button" className="button button-small" disabled={refreshing} onClick={() => void refreshCatalog(services)} data-testid="catalog-refresh">
        {refreshing ? 'Refreshing…' : 'Refresh'}
      </button>
    </div>
  );
}

/** A registry whose last refresh failed: the engine's words, and what is searched meanwhile. */
function RegistryErrors() {
  const registries = useCatalog((s) => s.registries);
  const failed = (registries ?? []).filter((r) => r.error);
  if (failed.length === 0) return null;
  return (
    <ErrorMessage testId="catalog-registry-error">
      {failed.map((r) => (
        <p key={r.url}>
          {/* The engine's message names the registry. */}
          <strong>Refresh failed:</strong> {r.error}.{' '}
          {r.source === 'none' ? 'Nothing from it can be searched until a refresh works.' : r.source === 'snapshot' ? 'Searching the snapshot shipped with Patchbay meanwhile.' : 'Searching the last copy meanwhile.'}
        </p>
      ))}
    </ErrorMessage>
  );
}
