/**
 * The install form of one way to run a catalog entry, generated from its inputs: required fields
 * marked, defaults filled, choices as a select, booleans as a checkbox, secrets as password fields
 * (they go to the secret store; config.json gets a `${secret:…}` reference). The exact command or
 * URL (`catalog.plan`, asked again as values change) is shown above Install. Cancel or Escape
 * leaves without writing anything: nothing is sent to the engine but plans until Install.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CatalogInput, CatalogOption, CatalogPlan } from '../../../shared/api/catalog-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { loadServers } from '../../app/commands.js';
import { navigate } from '../../app/router.js';
import { useServices } from '../../app/services.js';
import { useProfileList } from '../profiles/use-profiles.js';
import { fieldKind, initialValues, kindText, valuesToSend, type FormValues } from './install-form-model.js';

/** Values settle this long before the plan is asked for again. */
const PLAN_DEBOUNCE_MS = 250;

export function InstallForm({ name, registry, version, option }: { name: string; registry: string; version: string; option: CatalogOption }) {
  const services = useServices();
  const [values, setValues] = useState<FormValues>(() => initialValues(option.inputs));
  const [serverId, setServerId] = useState<string>();
  const [profile, setProfile] = useState('');
  /** The person's choice; undefined: the engine's default (sandboxed wherever this machine can). */
  const [sandbox, setSandbox] = useState<boolean>();
  const { list: profileList, error: profilesError } = useProfileList();
  const profiles = (profileList ?? []).filter((p) => !p.builtIn).map((p) => p.name);
  const [plan, setPlan] = useState<CatalogPlan>();
  const [planError, setPlanError] = useState<string>();
  const [installing, setInstalling] = useState(false);
  const [installError, setInstallError] = useState<string>();
  const runtimeMissing = option.runtime?.available === false;
  const select = { name, registry, version, option: option.id, values: valuesToSend(values), ...(serverId ? { serverId } : {}), ...(sandbox !== undefined ? { sandbox } : {}) };
  const selectKey = JSON.stringify(select);

  // The plan follows the values; an answer to older values than the last asked is dropped.
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    const t = setTimeout(() => {
      void services.bridge.call('catalog.plan', JSON.parse(selectKey) as typeof select).then((r) => {
        if (mine !== seq.current) return;
        if (r.ok) {
          setPlan(r.value);
          setPlanError(undefined);
        } else setPlanError(r.message);
      });
    }, PLAN_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [services, selectKey]);

  const cancel = (): void => navigate('servers', 'catalog');
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      cancel();
    }
  };
  const install = async (): Promise<void> => {
    setInstalling(true);
    setInstallError(undefined);
    const r = await services.bridge.call('catalog.install', { ...select, ...(profile ? { profile } : {}) });
    if (!r.ok) {
      setInstalling(false);
      setInstallError(r.message);
      return;
    }
    await loadServers(services);
    services.stores.notices.getState().noticePosted(`Installed ${r.value.serverId} (${name} ${version})${r.value.profile ? ` in @${r.value.profile}` : ''}: approve its tools to let clients use them`);
    navigate('servers', r.value.serverId);
  };

  // The last plan is of older values when the latest ask failed: no Install on it.
  const blocked = !plan || planError !== undefined || plan.missing.length > 0 || plan.runtimeMissing !== undefined || installing;
  return (
    <form className="catalog-install" aria-label={`Install ${name}`} onKeyDown={onKeyDown} onSubmit={(e) => { e.preventDefault(); if (!blocked) void install(); }} noValidate data-testid="catalog-install" data-version={version}>
      <h3>Install</h3>
      {runtimeMissing ? (
        <p className="banner-warn" role="status" data-testid="catalog-runtime-missing">
          {plan?.runtimeMissing ?? `This way of running it needs ${option.runtime?.command ?? 'a runtime'}, which is not installed here.`}
        </p>
      ) : (
        <>
          {option.inputs.map((input) => (
            <Field key={input.key} input={input} value={values[input.key] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [input.key]: v }))} />
          ))}
          <div className="grid-2">
            <div className="field">
              <label htmlFor="catalog-server-id">Server id</label>
              <input id="catalog-server-id" className="input" value={serverId ?? plan?.serverId ?? ''} onChange={(e) => setServerId(e.target.value === '' ? undefined : e.target.value)} spellCheck={false} data-testid="catalog-server-id" />
              <p className="hint">Clients reach it at <code>/mcp/{serverId ?? plan?.serverId ?? '…'}</code></p>
            </div>
            <div className="field">
              <label htmlFor="catalog-profile">Add to profile</label>
              <select id="catalog-profile" className="input" value={profile} onChange={(e) => setProfile(e.target.value)} data-testid="catalog-profile">
                <option value="">None (only the default profile)</option>
                {profiles.map((p) => (
                  <option key={p} value={p}>@{p}</option>
                ))}
              </select>
              {profilesError && <ErrorMessage testId="catalog-profiles-error">Could not read the profiles, so only the default one is offered: {profilesError}</ErrorMessage>}
            </div>
          </div>
          {plan?.sandbox && (
            <div className="field">
              <label className="check">
                <input type="checkbox" checked={sandbox ?? plan.sandbox.on} disabled={!plan.sandbox.available && !(sandbox ?? plan.sandbox.on)} onChange={(e) => setSandbox(e.target.checked)} data-testid="catalog-sandbox" />
                <span>Run it in a sandbox</span>
              </label>
              <p className="hint" data-testid="catalog-sandbox-hint">
                {plan.sandbox.available
                  ? 'It then sees only its own directory and the system\'s runtime — not your home folder or other servers\' keys (docs/sandbox.md).'
                  : `Not available on this machine: ${plan.sandbox.detail}`}
              </p>
            </div>
          )}
        </>
      )}
      <div className="catalog-install-foot">
        <div className="catalog-plan" aria-live="polite" data-testid="catalog-plan">
          <p className="catalog-plan-title">{option.kind === 'remote' ? 'Patchbay will connect to' : 'Patchbay will run'}</p>
          <pre className="json-pre" data-testid="catalog-preview">{plan?.preview ?? '…'}</pre>
          {plan && plan.secrets.length > 0 && (
            <p className="hint">Secrets stored in Patchbay's secret store: {plan.secrets.map((s) => <code key={s.name} className="chip">{s.name}</code>)}</p>
          )}
          {plan && plan.missing.length > 0 && !runtimeMissing && (
            <p className="hint error-text" data-testid="catalog-missing">Still needed: {plan.missing.join(', ')}</p>
          )}
          {planError && <ErrorMessage>{planError}</ErrorMessage>}
        </div>
        {installError && <ErrorMessage testId="catalog-install-error">Not installed: {installError}</ErrorMessage>}
        <div className="form-actions">
          {!runtimeMissing && (
            <button type="submit" className="button button-primary" disabled={blocked} data-testid="catalog-install-button">
              {installing ? 'Installing…' : 'Install'}
            </button>
          )}
          <button type="button" className="button" onClick={cancel} data-testid="catalog-cancel">Cancel</button>
          {!runtimeMissing && <span className="muted small">Its tools wait for your approval before clients can call them.</span>}
        </div>
      </div>
    </form>
  );
}

function Field({ input, value, onChange }: { input: CatalogInput; value: string; onChange(v: string): void }) {
  const id = useId();
  const hint = `${id}-hint`;
  const kind = fieldKind(input);
  const label = (
    <>
      <code>{input.name}</code> <span className="muted small">{kindText(input)}</span>
      {input.required && <span className="required" aria-hidden="true">*</span>}
      {input.required && <span className="visually-hidden"> (required)</span>}
    </>
  );
  const hints = (
    <>
      {input.description && <p className="hint" id={hint}>{input.description}</p>}
      {input.secret && <p className="hint">Stored in Patchbay's secret store, never in config.json.</p>}
    </>
  );
  if (kind === 'checkbox') {
    return (
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={value === 'true'} onChange={(e) => onChange(e.target.checked ? 'true' : 'false')} aria-describedby={input.description ? hint : undefined} data-testid={`catalog-input-${input.name}`} />
          <span>{label}</span>
        </label>
        {hints}
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {kind === 'select' ? (
        <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={input.description ? hint : undefined} data-testid={`catalog-input-${input.name}`}>
          {!input.required && <option value="">(not set)</option>}
          {(input.choices ?? []).map((c) => (
            <option key={c} value={c}>{c}{c === input.default ? ' (default)' : ''}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className="input"
          type={kind === 'password' ? 'password' : 'text'}
          inputMode={kind === 'number' ? 'numeric' : undefined}
          autoComplete={kind === 'password' ? 'new-password' : 'off'}
          spellCheck={false}
          value={value}
          placeholder={input.placeholder ?? input.default}
          aria-required={input.required}
          aria-describedby={input.description ? hint : undefined}
          onChange={(e) => onChange(e.target.value)}
          data-testid={`catalog-input-${input.name}`}
        />
      )}
      {hints}
    </div>
  );
}
