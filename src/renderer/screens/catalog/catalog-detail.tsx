/**
 * One catalog entry (`catalog.detail`): what it is, who published it, its links, its versions (the
 * one chosen is the one installed, pinned), and the ways to run it — the person chooses where there
 * are several; a runtime this machine lacks is said first, an option Patchbay cannot install is
 * shown disabled with the reason — then the install form.
 */
import { useEffect, useState } from 'react';
import type { CatalogDetail, CatalogOption } from '../../../shared/api/catalog-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { href } from '../../app/router.js';
import { useCatalog, useServices } from '../../app/services.js';
import { namespaceText, registryLabel } from './freshness.js';
import { InstallForm } from './install-form.js';

export function CatalogDetailPane({ name }: { name: string | undefined }) {
  if (!name) {
    return (
      <div className="detail detail-empty" data-testid="catalog-detail-empty">
        <p>Choose a server to see who publishes it, how it runs, and to install it.</p>
        <p className="small">Nothing is written until you press Install, after seeing the exact command or URL.</p>
      </div>
    );
  }
  // Keyed by name: another entry starts with a fresh form (nothing carried over, secrets included).
  return <Detail key={name} name={name} />;
}

function Detail({ name }: { name: string }) {
  const { bridge } = useServices();
  const registry = useCatalog((s) => s.chosenRegistry[name]);
  const registries = useCatalog((s) => s.registries);
  const [version, setVersion] = useState<string>();
  const [detail, setDetail] = useState<CatalogDetail>();
  /** The last read's failure, and the version it asked for (undefined: the entry's latest). */
  const [error, setError] = useState<{ version: string | undefined; message: string }>();
  const [optionId, setOptionId] = useState<string>();

  useEffect(() => {
    let live = true;
    setError(undefined);
    void bridge.call('catalog.detail', { name, ...(registry ? { registry } : {}), ...(version ? { version } : {}) }).then((r) => {
      if (!live) return;
      if (!r.ok) return setError({ version, message: r.message });
      setDetail(r.value);
      // Keep the way chosen when it still exists in this version; else the first one that can be installed.
      setOptionId((current) => (current && r.value.options.some((o) => o.id === current && !o.unsupported) ? current : firstInstallable(r.value.options)?.id));
    });
    return () => {
      live = false;
    };
  }, [bridge, name, registry, version]);

  if (error && !detail) return <div className="detail"><ErrorMessage testId="catalog-detail-error">Could not read {name}: {error.message}</ErrorMessage></div>;
  if (!detail) return <div className="detail"><p className="muted"><span className="spinner" aria-hidden="true" /> Reading {name}…</p></div>;
  const r = detail.result;
  const ns = namespaceText(r.namespace);
  const option = detail.options.find((o) => o.id === optionId);
  const from = registryLabel(registries, r.registry);
  return (
    <div className="detail catalog-detail" data-testid="catalog-detail" aria-labelledby="catalog-detail-title">
      <div className="detail-head">
        <h2 id="catalog-detail-title" className="detail-target">{r.title ?? r.name}</h2>
        <a className="icon-button" href={href('servers', 'catalog')} aria-label="Close the details">
          <Icon name="close" />
        </a>
      </div>
      <p className="mono small muted catalog-name">{r.name}</p>
      <p data-testid="catalog-detail-description">{r.description}</p>
      <dl className="facts compact">
        <dt>Published by</dt>
        <dd>
          {ns.text} {ns.verified && <span className="chip chip-ok" title={ns.why}>verified by the registry</span>}
        </dd>
        {r.repositoryUrl && (<><dt>Repository</dt><dd><ExternalLink url={r.repositoryUrl} testId="catalog-repository" /></dd></>)}
        {r.websiteUrl && (<><dt>Website</dt><dd><ExternalLink url={r.websiteUrl} /></dd></>)}
        {r.updatedAt && (<><dt>Updated</dt><dd>{formatDateTime(r.updatedAt)}</dd></>)}
        {from && (<><dt>Registry</dt><dd>{from}</dd></>)}
        {r.installed.length > 0 && (<><dt>Installed as</dt><dd>{r.installed.map((id) => <a key={id} className="chip" href={href('servers', id)}>{id}</a>)}</dd></>)}
        <dt><label htmlFor="catalog-version">Version</label></dt>
        <dd>
          <select id="catalog-version" className="input" value={version ?? r.version} onChange={(e) => setVersion(e.target.value)} data-testid="catalog-version">
            {detail.versions.map((v) => (
              <option key={v.version} value={v.version}>{v.version}{v.isLatest ? ' (latest)' : ''}</option>
            ))}
          </select>
          <p className="hint">Installed exactly as chosen (pinned); newer versions show on the Servers list.</p>
        </dd>
      </dl>
      {version !== undefined && version !== r.version ? (
        // The form of the version chosen, not the one shown before: nothing typed into a form about to be replaced.
        // A failed read says so where the form would be, and offers the version still shown above.
        error?.version === version ? (
          <ErrorMessage testId="catalog-version-error">
            <p>Could not read version {version}: {error.message}</p>
            <p>
              <button type="button" className="button button-small" onClick={() => setVersion(r.version)} data-testid="catalog-version-back">
                Back to version {r.version}
              </button>
            </p>
          </ErrorMessage>
        ) : (
          <p className="muted"><span className="spinner" aria-hidden="true" /> Reading version {version}…</p>
        )
      ) : (
        <>
          <Options options={detail.options} chosen={optionId} onChoose={setOptionId} />
          {option && !option.unsupported && <InstallForm key={`${r.version} ${option.id}`} name={r.name} registry={r.registry} version={r.version} option={option} />}
        </>
      )}
    </div>
  );
}

function firstInstallable(options: readonly CatalogOption[]): CatalogOption | undefined {
  return options.find((o) => !o.unsupported && o.runtime?.available !== false) ?? options.find((o) => !o.unsupported);
}

function ExternalLink({ url, testId }: { url: string; testId?: string }) {
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {url.replace(/^https?:\/\//, '')} <Icon name="external" size={12} /><span className="visually-hidden"> (opens outside Patchbay)</span>
    </a>
  );
}

/** The ways to run it: a choice when there are several; what each needs said beside it. */
function Options({ options, chosen, onChoose }: { options: CatalogOption[]; chosen: string | undefined; onChoose(id: string): void }) {
  if (options.length === 0) return <p className="muted">This entry names no package or remote: there is nothing to install.</p>;
  return (
    <fieldset className="fieldset catalog-options" data-testid="catalog-options">
      <legend>How to run it</legend>
      {options.map((o) => (
        <div key={o.id} className="catalog-option">
          {options.length > 1 ? (
            <label className="check">
              <input type="radio" name="catalog-option" value={o.id} checked={chosen === o.id} disabled={o.unsupported !== undefined} onChange={() => onChoose(o.id)} />
              <span>{o.label}</span>
            </label>
          ) : (
            <p className="catalog-option-label">{o.label}</p>
          )}
          {o.unsupported && <p className="hint" data-testid="catalog-unsupported">Cannot be installed: {o.unsupported}</p>}
          {!o.unsupported && o.runtime && !o.runtime.available && (
            <p className="hint error-text" data-testid="catalog-runtime">
              Cannot run here: {o.runtime.hint ?? <>needs <code>{o.runtime.command}</code>, which is not installed.</>}
            </p>
          )}
        </div>
      ))}
    </fieldset>
  );
}
