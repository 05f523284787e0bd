/** Add or edit a server: stdio (command, args, env, cwd) or remote (URL, transport, headers, OAuth). */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CallError, unwrap } from '../../bridge/bridge.js';
import { ErrorMessage } from '../../components/error-message.js';
import { testServer } from '../../app/commands.js';
import { href, navigate } from '../../app/router.js';
import { useAppState, useSecrets, useServers, useServices } from '../../app/services.js';
import { KeyValueEditor } from './key-value-editor.js';
import { emptyModel, errorsFromDetails, modelFrom, toEntry, validate, type FieldErrors, type FormModel } from './server-form-model.js';

export function ServerForm({ editId }: { editId?: string }) {
  const services = useServices();
  const existing = useServers((s) => (editId ? s.byId[editId] : undefined));
  const loaded = useServers((s) => s.loaded);
  /** What the hub said of this machine's sandbox (hub.status); undefined until known. */
  const sandboxHere = useAppState((s) => s.hub?.sandbox);
  const secretNames = useSecrets((s) => s.list.secrets.map((x) => x.name).join('\n'));
  const names = useMemo(() => (secretNames ? secretNames.split('\n') : []), [secretNames]);
  const [model, setModel] = useState<FormModel>(() => (existing ? modelFrom(existing.id, existing.config) : emptyModel()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const initialised = useRef(existing !== undefined);
  const heading = useRef<HTMLHeadingElement>(null);

  // The list may arrive after this screen opened (a reload on #/servers/x/edit).
  useEffect(() => {
    if (!initialised.current && existing) {
      initialised.current = true;
      setModel(modelFrom(existing.id, existing.config));
    }
  }, [existing]);
  useEffect(() => heading.current?.focus(), []);

  if (editId && !existing) {
    return (
      <section className="screen">
        <h1 ref={heading} tabIndex={-1}>{loaded ? `No server named ${editId}` : 'Loading…'}</h1>
        {loaded && <p><a href={href('servers')}>Back to servers</a></p>}
      </section>
    );
  }

  const set = <K extends keyof FormModel>(key: K, value: FormModel[K]): void => {
    setModel((m) => ({ ...m, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const found = validate(model);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Take the person to the first field that needs fixing.
      const first = Object.keys(found)[0];
      document.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const entry = toEntry(model, existing?.config);
      const saved = editId
        ? await unwrap(services.bridge.call('servers.update', { id: editId, config: entry, ...(model.name !== editId ? { newId: model.name } : {}) }))
        : await unwrap(services.bridge.call('servers.add', { id: model.name, config: entry }));
      services.stores.servers.getState().serverSaved(saved, editId);
      services.stores.notices.getState().noticePosted(`Saved ${saved.id}`);
      navigate('servers', saved.id);
      // Saving is followed by a test, so a broken entry shows its error right away.
      if (saved.status.state !== 'disabled') void testServer(services, saved.id);
    } catch (err) {
      const e2 = err instanceof CallError ? err : new CallError('failed', (err as Error).message);
      const mapped = e2.code === 'server_exists' ? { name: e2.message } : errorsFromDetails(e2.details, e2.message);
      setErrors(mapped);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="screen" aria-labelledby="form-title">
      <p className="breadcrumb"><a href={href('servers')}>Servers</a> / {editId ? `Edit ${editId}` : 'Add'}</p>
      <h1 id="form-title" ref={heading} tabIndex={-1}>{editId ? `Edit ${editId}` : 'Add a server'}</h1>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="server-form">
        {errors.form && <ErrorMessage testId="form-error">{errors.form}</ErrorMessage>}
        <Field label="Name" field="name" error={errors.name} hint="Clients reach it at /mcp/<name>.">
          {(p) => <input {...p} className="input" value={model.name} onChange={(e) => set('name', e.target.value)} autoComplete="off" spellCheck={false} required />}
        </Field>
        <fieldset className="fieldset">
          <legend>Kind</legend>
          <div className="radio-row">
            <label><input type="radio" name="kind" checked={model.kind === 'stdio'} onChange={() => set('kind', 'stdio')} /> Local program (stdio)</label>
            <label><input type="radio" name="kind" checked={model.kind === 'remote'} onChange={() => set('kind', 'remote')} /> Remote (HTTP)</label>
          </div>
        </fieldset>
        {model.kind === 'stdio' ? (
          <>
            <Field label="Command" field="command" error={errors.command} hint="The program to start, e.g. npx, uvx, node or a full path.">
              {(p) => <input {...p} className="input mono" value={model.command} onChange={(e) => set('command', e.target.value)} autoComplete="off" spellCheck={false} required />}
            </Field>
            <Field label="Arguments" field="args" error={errors.args} hint="One per line, without quotes.">
              {(p) => <textarea {...p} className="input mono" rows={4} value={model.args} onChange={(e) => set('args', e.target.value)} spellCheck={false} />}
            </Field>
            <KeyValueEditor legend="Environment variables" keyLabel="Variable" addLabel="Add variable" rows={model.env} onChange={(rows) => set('env', rows)} secretNames={names} error={errors.env} testId="env-editor" />
            <Field label="Working directory (optional)" field="cwd" error={errors.cwd}>
              {(p) => <input {...p} className="input mono" value={model.cwd} onChange={(e) => set('cwd', e.target.value)} autoComplete="off" spellCheck={false} />}
            </Field>
            <fieldset className="fieldset" data-testid="sandbox-fields">
              <legend>Sandbox</legend>
              <label className="check check-row">
                <input type="checkbox" checked={model.sandbox} onChange={(e) => set('sandbox', e.target.checked)} data-testid="sandbox-toggle" />
                <span>Run it in a sandbox</span>
              </label>
              <p className="muted small">
                It then sees only the system's runtime, its own code and a directory of its own — not your home folder, not other servers' keys. Linux (bubblewrap) and macOS (sandbox-exec); Windows has no sandbox, and there, or without bubblewrap, a sandboxed server does not start (<code>patchbay doctor</code> says why).
              </p>
              {sandboxHere && (
                <p className={sandboxHere.available ? 'muted small' : 'small error-text'} data-testid="sandbox-here">
                  {sandboxHere.available ? `On this machine: ${sandboxHere.detail}.` : `Not available on this machine: ${sandboxHere.detail}. A server set to run in a sandbox will not start here.`}
                </p>
              )}
              {model.sandbox && (
                <>
                  <Field label="Network" field="sandboxNetwork">
                    {(p) => (
                      <select {...p} className="input" value={model.sandboxNetwork} onChange={(e) => set('sandboxNetwork', e.target.value as FormModel['sandboxNetwork'])} data-testid="sandbox-network">
                        <option value="default">Default: none (package runners such as npx: all)</option>
                        <option value="none">None</option>
                        <option value="all">All</option>
                        <option value="hosts">Only these hosts</option>
                      </select>
                    )}
                  </Field>
                  {model.sandboxNetwork === 'hosts' && (
                    <Field label="Hosts, one a line" field="sandboxHosts" error={errors.sandboxHosts} hint="api.example.com, *.example.com (any name under it), host:8443 for another port than 443/80. Reached through Patchbay's proxy; other hosts are refused.">
                      {(p) => <textarea {...p} className="input mono" rows={3} value={model.sandboxHosts} onChange={(e) => set('sandboxHosts', e.target.value)} spellCheck={false} data-testid="sandbox-hosts" />}
                    </Field>
                  )}
                  <label className="check check-row">
                    <input type="checkbox" checked={model.sandboxSubprocesses} onChange={(e) => set('sandboxSubprocesses', e.target.checked)} data-testid="sandbox-subprocesses" />
                    <span>It may start other programs (npx and uvx must)</span>
                  </label>
                </>
              )}
            </fieldset>
          </>
        ) : (
          <>
            <Field label="URL" field="url" error={errors.url} hint="The server's MCP endpoint, e.g. https://example.com/mcp.">
              {(p) => <input {...p} className="input mono" type="url" value={model.url} onChange={(e) => set('url', e.target.value)} autoComplete="off" spellCheck={false} required />}
            </Field>
            <Field label="Transport" field="transport" error={errors.transport}>
              {(p) => (
                <select {...p} className="input" value={model.transport} onChange={(e) => set('transport', e.target.value as FormModel['transport'])}>
                  <option value="auto">Automatic (Streamable HTTP, falling back to HTTP+SSE)</option>
                  <option value="streamable-http">Streamable HTTP</option>
                  <option value="sse">Legacy HTTP+SSE</option>
                </select>
              )}
            </Field>
            <KeyValueEditor legend="HTTP headers" keyLabel="Header" addLabel="Add header" rows={model.headers} onChange={(rows) => set('headers', rows)} secretNames={names} error={errors.headers} testId="headers-editor" />
            <fieldset className="fieldset">
              <legend>OAuth</legend>
              <label className="check"><input type="checkbox" checked={model.oauth} onChange={(e) => set('oauth', e.target.checked)} /> Sign in with OAuth when the server asks for it</label>
              {model.oauth && (
                <div className="grid-2">
                  <Field label="Client ID (optional)" field="clientId" error={errors.clientId} hint="Only for a client registered ahead with the server's provider.">
                    {(p) => <input {...p} className="input mono" value={model.clientId} onChange={(e) => set('clientId', e.target.value)} autoComplete="off" spellCheck={false} />}
                  </Field>
                  <Field label="Client secret (optional)" field="clientSecret" error={errors.clientSecret} hint="Use a stored key: ${secret:NAME}.">
                    {(p) => <input {...p} className="input mono" value={model.clientSecret} onChange={(e) => set('clientSecret', e.target.value)} autoComplete="off" spellCheck={false} />}
                  </Field>
                  <Field label="Scope (optional)" field="scope" error={errors.scope}>
                    {(p) => <input {...p} className="input mono" value={model.scope} onChange={(e) => set('scope', e.target.value)} autoComplete="off" spellCheck={false} />}
                  </Field>
                </div>
              )}
            </fieldset>
          </>
        )}
        <Field label="Secret checks" field="secretCheck" hint="A stored key or a credential (a cloud key, a GitHub token, a private key…) in this server's tool arguments or answers: warn and let it pass, mask it, or block the message. docs/secret-checks.md.">
          {(p) => (
            <select {...p} className="input" value={model.secretCheck} onChange={(e) => set('secretCheck', e.target.value as FormModel['secretCheck'])} data-testid="secret-check">
              <option value="warn">Warn (default)</option>
              <option value="mask">Mask the secret</option>
              <option value="block">Block the message</option>
              <option value="off">Off</option>
            </select>
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={saving} data-testid="save-server">
            {saving ? 'Saving…' : editId ? 'Save and test' : 'Add and test'}
          </button>
          <a className="button" href={editId ? href('servers', editId) : href('servers')}>Cancel</a>
        </div>
      </form>
    </section>
  );
}

type FieldProps = { id: string; 'data-field': string; 'aria-invalid': boolean | undefined; 'aria-describedby': string | undefined };

function Field({ label, field, error, hint, children }: { label: string; field: string; error?: string | undefined; hint?: string; children: (props: FieldProps) => ReactNode }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'data-field': field, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && <p className="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`} data-testid={`error-${field}`}>{error}</p>}
    </div>
  );
}
