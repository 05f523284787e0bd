/** Paste a JSON snippet from a server's README: preview what it adds, then import. */
import { useEffect, useRef, useState } from 'react';
import type { ImportResult } from '../../../shared/api/servers-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { loadServers } from '../../app/commands.js';
import { href, navigate } from '../../app/router.js';
import { useServices } from '../../app/services.js';

const EXAMPLE = `{
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }
  }
}`;

export function ImportPanel() {
  const services = useServices();
  const [snippet, setSnippet] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [preview, setPreview] = useState<ImportResult>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const run = async (dryRun: boolean): Promise<void> => {
    setBusy(true);
    setError(undefined);
    const r = await services.bridge.call('servers.import', { snippet, overwrite, dryRun });
    setBusy(false);
    if (!r.ok) {
      setError(r.message);
      return;
    }
    setPreview(r.value);
    if (!dryRun && r.value.added.length + r.value.replaced.length > 0) {
      await loadServers(services);
      const n = r.value.added.length + r.value.replaced.length;
      services.stores.notices.getState().noticePosted(`Imported ${n} server${n === 1 ? '' : 's'}`);
      if (r.value.problems.length === 0) navigate('servers');
    }
  };

  const importable = preview ? preview.added.length + preview.replaced.length : 0;
  return (
    <section className="screen" aria-labelledby="import-title">
      <p className="breadcrumb"><a href={href('servers')}>Servers</a> / Paste JSON</p>
      <h1 id="import-title" ref={heading} tabIndex={-1}>Paste a JSON snippet</h1>
      <p className="muted">
        Paste what a server's README shows: an <code>mcpServers</code> object (Claude Desktop, Cursor), VS Code's <code>servers</code>, or
        just <code>"name": {'{'} "command": … {'}'}</code>. Keys in <code>env</code> are better stored under Keys &amp; logins and referenced as{' '}
        <code>{'${secret:NAME}'}</code>.
      </p>
      <div className="field">
        <label htmlFor="snippet">JSON snippet</label>
        <textarea id="snippet" className="input mono" rows={12} value={snippet} placeholder={EXAMPLE} spellCheck={false} data-testid="import-snippet"
          onChange={(e) => { setSnippet(e.target.value); setPreview(undefined); }} />
      </div>
      <label className="check">
        <input type="checkbox" checked={overwrite} onChange={(e) => { setOverwrite(e.target.checked); setPreview(undefined); }} /> Replace servers that already exist with the same name
      </label>
      <div className="form-actions">
        <button type="button" className="button" disabled={busy || snippet.trim() === ''} onClick={() => void run(true)} data-testid="import-preview">Preview</button>
        <button type="button" className="button button-primary" disabled={busy || !preview || importable === 0} onClick={() => void run(false)} data-testid="import-apply">
          Import {importable > 0 ? importable : ''}
        </button>
      </div>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {preview && (
        <div className="import-preview" aria-live="polite" data-testid="import-result">
          {preview.added.length > 0 && <p>{preview.dryRun ? 'Will add' : 'Added'}: {preview.added.map((id) => <code key={id} className="chip">{id}</code>)}</p>}
          {preview.replaced.length > 0 && <p>{preview.dryRun ? 'Will replace' : 'Replaced'}: {preview.replaced.map((id) => <code key={id} className="chip">{id}</code>)}</p>}
          {preview.skipped.length > 0 && (
            <p>Already there, left alone: {preview.skipped.map((id) => <code key={id} className="chip">{id}</code>)} (tick “Replace” to overwrite them).</p>
          )}
          {preview.problems.length > 0 && (
            <ErrorMessage>
              Not importable — fix these in the snippet:
              <ul>
                {preview.problems.map((p, i) => (
                  <li key={i}><code>{p.path}</code>: {p.message}</li>
                ))}
              </ul>
            </ErrorMessage>
          )}
        </div>
      )}
    </section>
  );
}
