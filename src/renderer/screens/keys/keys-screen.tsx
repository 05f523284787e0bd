/** Keys & logins: API keys (write-only values) and, per remote server, its OAuth login. */
import { useRef, useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/confirm-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { loadSecrets } from '../../app/commands.js';
import { href } from '../../app/router.js';
import { useSecrets, useServices } from '../../app/services.js';
import { OAuthSection } from './oauth-section.js';

export function KeysScreen() {
  const list = useSecrets((s) => s.list);
  const loaded = useSecrets((s) => s.loaded);
  const loadError = useSecrets((s) => s.loadError);
  const [prefill, setPrefill] = useState('');
  const form = useRef<HTMLInputElement>(null);
  return (
    <section className="screen" aria-labelledby="keys-title">
      <header className="screen-header">
        <h1 id="keys-title">Keys &amp; logins</h1>
      </header>
      <section aria-labelledby="api-keys-title" className="panel">
        <h2 id="api-keys-title">API keys</h2>
        <p className="muted">
          Stored by the engine, never in config files. A server uses one as <code>{'${secret:NAME}'}</code> in its env or headers. Once saved, a value is never shown again.
        </p>
        <AddKeyForm key={prefill} initialName={prefill} nameRef={form} />
        {loadError && <ErrorMessage>Could not load the keys: {loadError}</ErrorMessage>}
        {list.missing.length > 0 && (
          <ErrorMessage testId="missing-keys">
            Servers refer to keys that are not stored, so they cannot start:
            <ul>
              {list.missing.map((m) => (
                <li key={m.name}>
                  <code>{m.name}</code>, used by {m.usedBy.map((u) => u.serverId).join(', ')}{' '}
                  <button type="button" className="button button-small" onClick={() => { setPrefill(m.name); setTimeout(() => document.getElementById('key-value')?.focus()); }}>
                    Add {m.name}
                  </button>
                </li>
              ))}
            </ul>
          </ErrorMessage>
        )}
        {loaded && list.secrets.length === 0 && !loadError && (
          <EmptyState title="No keys stored" testId="keys-empty">
            <p>Add a key above, then pick it in a server's environment variables or headers (Servers → Edit).</p>
          </EmptyState>
        )}
        {list.secrets.length > 0 && (
          <table className="table" data-testid="keys-table">
            <caption className="visually-hidden">Stored keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Used by</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {list.secrets.map((s) => (
                <KeyRow key={s.name} name={s.name} hint={s.hint} usedBy={s.usedBy} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <OAuthSection />
    </section>
  );
}

function AddKeyForm({ initialName, nameRef }: { initialName: string; nameRef: React.RefObject<HTMLInputElement | null> }) {
  const services = useServices();
  const [name, setName] = useState(initialName);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) return setError('Name: use letters, digits, "_", "-" and "." (no spaces).');
    if (value === '') return setError('Value: paste the key.');
    setBusy(true);
    const r = await services.bridge.call('secrets.set', { name, value });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setError(undefined);
    setValue('');
    setName('');
    services.stores.notices.getState().noticePosted(r.value.created ? `Stored ${name}` : `Replaced ${name}`);
    await loadSecrets(services);
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} noValidate data-testid="add-key-form">
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" ref={nameRef} className="input mono" value={name} onChange={(e) => setName(e.target.value)} placeholder="GITHUB_TOKEN" autoComplete="off" spellCheck={false} />
      </div>
      <div className="field grow">
        <label htmlFor="key-value">Value</label>
        <input id="key-value" className="input mono" type="password" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" spellCheck={false} />
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>Save key</button>
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </form>
  );
}

function KeyRow({ name, hint, usedBy }: { name: string; hint?: string | undefined; usedBy: Array<{ serverId: string; path: string }> }) {
  const services = useServices();
  const [rotating, setRotating] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const rotate = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (value === '') return setError('Paste the new value.');
    const r = await services.bridge.call('secrets.set', { name, value });
    if (!r.ok) return setError(r.message);
    setRotating(false);
    setValue('');
    setError(undefined);
    services.stores.notices.getState().noticePosted(`Replaced ${name}; new sessions use the new value`);
    await loadSecrets(services);
  };
  const remove = async (): Promise<void> => {
    const r = await services.bridge.call('secrets.delete', { name });
    if (!r.ok) return setError(r.message);
    services.stores.notices.getState().noticePosted(`Deleted ${name}`);
    await loadSecrets(services);
  };
  return (
    <tr data-testid={`key-row-${name}`}>
      <th scope="row"><code>{name}</code></th>
      <td><span className="mono muted" aria-label={hint ? `ends in ${hint.slice(1)}` : 'hidden'}>{hint ? `••••${hint.slice(1)}` : '••••••••'}</span></td>
      <td>
        {usedBy.length === 0 ? <span className="muted">not used</span> : usedBy.map((u) => (
          <a key={u.serverId + u.path} className="chip" href={href('servers', u.serverId)}>{u.serverId}</a>
        ))}
      </td>
      <td className="row-actions">
        {rotating ? (
          <form className="inline-form" onSubmit={(e) => void rotate(e)} noValidate>
            <label className="visually-hidden" htmlFor={`rotate-${name}`}>New value for {name}</label>
            <input id={`rotate-${name}`} className="input mono" type="password" autoFocus value={value} onChange={(e) => setValue(e.target.value)} autoComplete="new-password" />
            <button type="submit" className="button button-primary">Save</button>
            <button type="button" className="button" onClick={() => { setRotating(false); setValue(''); setError(undefined); }}>Cancel</button>
          </form>
        ) : (
          <>
            <button type="button" className="button" onClick={() => setRotating(true)} aria-label={`Replace ${name}`}>Replace</button>
            <ConfirmButton label="Delete" confirmLabel={`Delete ${name}`} accessibleName={`Delete ${name}`} onConfirm={remove} />
          </>
        )}
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </td>
    </tr>
  );
}
