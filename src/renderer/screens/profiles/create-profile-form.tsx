/** A new profile: a name and its servers (written to config.json by the engine). */
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { navigate } from '../../app/router.js';
import { useServers, useServices } from '../../app/services.js';

export function CreateProfileForm({ onDone }: { onDone(): void }) {
  const { bridge } = useServices();
  const order = useServers((s) => s.order);
  const [name, setName] = useState('');
  const [servers, setServers] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) return setError('Name: letters, digits, ".", "_" and "-", starting with a letter or digit.');
    if (servers.size === 0) return setError('Choose at least one server.');
    setBusy(true);
    const r = await bridge.call('profiles.create', { name, servers: order.filter((id) => servers.has(id)) });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    onDone();
    navigate('profiles', name);
  };
  return (
    <form className="panel form" onSubmit={(e) => void submit(e)} noValidate data-testid="create-profile-form">
      <h2>New profile</h2>
      <div className="field">
        <label htmlFor="profile-name">Name</label>
        <input id="profile-name" className="input mono" value={name} onChange={(e) => setName(e.target.value)} placeholder="work" autoComplete="off" spellCheck={false} />
      </div>
      <fieldset className="fieldset">
        <legend>Servers</legend>
        {order.length === 0 && <p className="muted">No servers configured yet.</p>}
        {order.map((id) => (
          <label key={id} className="check check-row">
            <input
              type="checkbox"
              checked={servers.has(id)}
              onChange={(e) => {
                const next = new Set(servers);
                if (e.target.checked) next.add(id);
                else next.delete(id);
                setServers(next);
              }}
              data-testid={`create-profile-server-${id}`}
            />
            <span>{id}</span>
          </label>
        ))}
      </fieldset>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>Create profile</button>
      </div>
    </form>
  );
}
