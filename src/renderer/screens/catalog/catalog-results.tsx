/**
 * The catalog's results, each with the signals a person needs to judge it before opening it: who
 * published it (a namespace the registry checked), its repository, how it runs (package registries,
 * remote), its version and last update, the registry it came from, and whether it is installed.
 */
import type { CatalogResult } from '../../../shared/api/catalog-contract.js';
import { relativeTime } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { href } from '../../app/router.js';
import { useCatalog, useServices } from '../../app/services.js';
import { namespaceText, registryLabel, runsAs } from './freshness.js';

export function CatalogResults({ selected }: { selected: string | undefined }) {
  const results = useCatalog((s) => s.results);
  const total = useCatalog((s) => s.total);
  const searched = useCatalog((s) => s.searched);
  const searching = useCatalog((s) => s.searching);
  return (
    <div className="catalog-results" data-testid="catalog-results">
      <p className="muted small catalog-count" aria-live="polite">
        {searching && <><span className="spinner small" aria-hidden="true" /> Searching… </>}
        {searched !== undefined && !searching && (searched.trim() === '' ? `Recently updated · ${total.toLocaleString('en-US')} in all` : `${total.toLocaleString('en-US')} found for “${searched.trim()}”`)}
      </p>
      {searched !== undefined && results.length === 0 && !searching && (
        <p className="muted" data-testid="catalog-empty">Nothing matches. Try fewer or other words, or Refresh the registries' copy.</p>
      )}
      <ul className="catalog-list" aria-label="Servers in the catalog">
        {results.map((r) => (
          <ResultItem key={`${r.registry} ${r.name}`} result={r} current={r.name === selected} />
        ))}
      </ul>
    </div>
  );
}

function ResultItem({ result: r, current }: { result: CatalogResult; current: boolean }) {
  const { stores } = useServices();
  const registries = useCatalog((s) => s.registries);
  const ns = namespaceText(r.namespace);
  const from = registryLabel(registries, r.registry);
  return (
    <li className={`catalog-item${current ? ' current' : ''}`} data-testid="catalog-result" data-name={r.name}>
      <div className="catalog-item-head">
        <a className="row-title" href={href('servers', 'catalog', r.name)} aria-current={current ? 'true' : undefined} onClick={() => stores.catalog.getState().resultChosen(r.name, r.registry)}>
          {r.title ?? r.name}
        </a>
        <span className="muted small">{r.version}</span>
        {r.installed.length > 0 && <span className="chip chip-accent" data-testid="catalog-installed">installed as {r.installed.join(', ')}</span>}
      </div>
      {r.title && <div className="mono small muted catalog-name">{r.name}</div>}
      <p className="clamp-2 catalog-description">{r.description}</p>
      <div className="catalog-signals small">
        <span className={`chip${ns.verified ? ' chip-ok' : ''}`} title={ns.why} data-testid="catalog-namespace">
          {ns.verified && <Icon name="check" size={12} />} {ns.text}
          {ns.verified && <span className="visually-hidden"> (verified by the registry)</span>}
        </span>
        {runsAs(r).map((t) => (
          <span key={t} className="tag">{t}</span>
        ))}
        {r.updatedAt && <span className="muted">updated {relativeTime(r.updatedAt)}</span>}
        {from && <span className="muted">from {from}</span>}
        {r.repositoryUrl && (
          <a href={r.repositoryUrl} target="_blank" rel="noopener noreferrer" className="catalog-repo">
            repository<span className="visually-hidden"> of {r.title ?? r.name} (opens outside Patchbay)</span>
          </a>
        )}
      </div>
    </li>
  );
}
