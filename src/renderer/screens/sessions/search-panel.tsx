/** Full-text search in a session's captured messages and stderr (the engine searches, memory and history). */
import { useState, type FormEvent } from 'react';
import type { CaptureEvent } from '../../../shared/api/inspector-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatTime } from '../../components/format.js';
import { useServices } from '../../app/services.js';

export function SearchPanel({ sessionId, onPick }: { sessionId: string; onPick(seq: number): void }) {
  const { bridge } = useServices();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<CaptureEvent[]>();
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (query.trim() === '') {
      setHits(undefined);
      return;
    }
    setBusy(true);
    const r = await bridge.call('inspector.search', { query: query.trim(), session: sessionId, limit: 100 });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setError(undefined);
    setHits(r.value.hits);
    setTruncated(r.value.truncated);
  };
  return (
    <div className="search">
      <form role="search" className="inline-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor="session-search" className="visually-hidden">Search messages</label>
        <input id="session-search" className="input" type="search" placeholder="Search messages and stderr…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="session-search" />
        <button type="submit" className="button" disabled={busy}>Search</button>
        {hits && (
          <button type="button" className="button" onClick={() => { setHits(undefined); setQuery(''); }}>Clear</button>
        )}
      </form>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {hits && (
        <div className="search-results" aria-live="polite" data-testid="search-results">
          <p className="small muted">
            {hits.length === 0 ? `Nothing matches “${query}”.` : `${hits.length}${truncated ? '+' : ''} match${hits.length === 1 ? '' : 'es'}, newest first. Choose one to open it.`}
          </p>
          <ul>
            {hits.map((h) => (
              <li key={h.seq}>
                <button type="button" className="link-button" onClick={() => onPick(h.seq)} data-testid="search-hit">
                  <span className="mono">{formatTime(h.time)}</span> {h.kind === 'stderr' ? `stderr: ${h.text ?? ''}` : `${h.kind} ${h.method ?? ''}`}
                  <span className="muted"> ({h.leg === 'upstream' ? 'hub ↔ server' : 'client ↔ hub'})</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
