/**
 * Full-text search in a session's captured messages and stderr (the engine searches memory and
 * history). It filters the timeline to the rows that matched — one per exchange, whichever leg
 * or part of it the text was in — and marks the text in them; the details show the rest.
 */
import { useState, type FormEvent } from 'react';
import { Icon } from '../../components/icons.js';
import { useServices } from '../../app/services.js';
import type { TimelineModel } from '../../stores/timeline-model.js';

export interface SearchState {
  query: string;
  /** Rows of the timeline that matched. */
  matches: ReadonlySet<number>;
  /** Matching events the timeline does not show (older than what is loaded). */
  unplaced: number;
  truncated: boolean;
}

const LIMIT = 500;

export function SearchBar({ sessionId, timeline, value, onChange }: { sessionId: string; timeline: TimelineModel | undefined; value: SearchState | undefined; onChange(state: SearchState | undefined): void }) {
  const { bridge } = useServices();
  const [query, setQuery] = useState(value?.query ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const q = query.trim();
    if (q === '') {
      onChange(undefined);
      return;
    }
    setBusy(true);
    const r = await bridge.call('inspector.search', { query: q, session: sessionId, limit: LIMIT });
    setBusy(false);
    if (!r.ok) {
      setError(r.message);
      return;
    }
    setError(undefined);
    const matches = new Set<number>();
    let unplaced = 0;
    for (const hit of r.value.hits) {
      const index = timeline?.indexOfSeq(hit.seq);
      if (index === undefined) unplaced++;
      else matches.add(index);
    }
    onChange({ query: q, matches, unplaced, truncated: r.value.truncated });
  };
  const clear = (): void => {
    setQuery('');
    setError(undefined);
    onChange(undefined);
  };
  return (
    <form role="search" className="search-bar" onSubmit={(e) => void submit(e)}>
      <label htmlFor="session-search" className="visually-hidden">Search messages</label>
      <span className="search-field">
        <Icon name="search" />
        <input
          id="session-search"
          className="input"
          type="search"
          placeholder="Search messages and stderr"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && value) clear();
          }}
          data-testid="session-search"
          data-shortcut="search"
          aria-describedby="search-summary"
          aria-invalid={error !== undefined}
        />
        <kbd aria-hidden="true">/</kbd>
      </span>
      <button type="submit" className="button" disabled={busy}>
        Search
      </button>
      {value && (
        <button type="button" className="button button-small" onClick={clear} data-testid="search-clear">
          Clear
        </button>
      )}
      {/* Read to screen readers here; shown beside the row count (session-view), where it takes no line of its own. */}
      <span id="search-summary" className={error ? 'small search-summary' : 'visually-hidden'} aria-live="polite" data-testid="search-summary">
        {error ? <span className="error-text">{error}</span> : value ? summary(value) : ''}
      </span>
    </form>
  );
}

/** What a search found, in words. */
export function summary(s: SearchState): string {
  const n = s.matches.size;
  const rows = `${n}${s.truncated ? '+' : ''} row${n === 1 ? '' : 's'} match “${s.query}”`;
  return s.unplaced > 0 ? `${rows} (${s.unplaced} older match${s.unplaced === 1 ? ' is' : 'es are'} not loaded)` : rows;
}
