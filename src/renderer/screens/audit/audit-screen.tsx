/**
 * Audit: the hub's audit trail (docs/audit.md) — who did what through the hub, newest first, read
 * from its files through `audit.list` (the reader `patchbay audit` uses), with filters, older
 * pages on request, and "Verify chain" (verify-panel.tsx). Never arguments or results: the trail
 * has none.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AuditLineDto } from '../../../shared/api/audit-contract.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { formatMs, formatShortDateTime } from '../../components/format.js';
import { useServers, useServices } from '../../app/services.js';
import { AuditFilterBar } from './audit-filters.js';
import { hasFilters, listInput, NO_FILTERS, outcomeClass, whatOf, type AuditFilters } from './audit-model.js';
import { useVerify, VerifyButton, VerifyResult } from './verify-panel.js';
import './audit.css';

/** The Client filter settles this long before the trail is read again (not a read per keystroke). */
const CLIENT_DEBOUNCE_MS = 250;

interface Loaded {
  lines: AuditLineDto[];
  more: boolean;
  dir: string;
  enabled: boolean;
}

export function AuditScreen() {
  const { bridge } = useServices();
  // What the filter bar shows; `applied` is what was read (the client's text once typing pauses).
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [client, setClient] = useState(filters.client);
  useEffect(() => {
    // Cleared (Clear filters, the box emptied): at once; typed: when typing pauses.
    if (filters.client === '') {
      setClient('');
      return;
    }
    const t = setTimeout(() => setClient(filters.client), CLIENT_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [filters.client]);
  const applied = useMemo<AuditFilters>(() => ({ client, server: filters.server, outcome: filters.outcome, since: filters.since }), [client, filters.server, filters.outcome, filters.since]);
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [loadingMore, setLoadingMore] = useState(false);
  const { verify, run: runVerify } = useVerify();
  // Only the latest request's answer is shown: a filter changed while a page loads wins.
  const asked = useRef(0);

  const load = useCallback(async () => {
    const mine = ++asked.current;
    const r = await bridge.call('audit.list', listInput(applied, Date.now()));
    if (mine !== asked.current) return;
    if (r.ok) {
      setLoaded(r.value);
      setError(undefined);
    } else setError(r.message);
  }, [bridge, applied]);
  useEffect(() => {
    void load();
  }, [load]);

  const loadMore = async (): Promise<void> => {
    const last = loaded?.lines.at(-1);
    if (!loaded || !last) return;
    setLoadingMore(true);
    const mine = asked.current;
    const r = await bridge.call('audit.list', listInput(applied, Date.now(), last.seq));
    setLoadingMore(false);
    if (mine !== asked.current) return;
    if (r.ok) setLoaded({ ...r.value, lines: [...loaded.lines, ...r.value.lines] });
    else setError(r.message);
  };

  // The server filter offers the configured servers and whatever the lines name (profiles, removed servers).
  const configured = useServers((s) => s.order);
  const servers = useMemo(() => [...new Set([...configured, ...(loaded?.lines.map((l) => l.server) ?? []), ...(filters.server ? [filters.server] : [])])].sort(), [configured, loaded, filters.server]);
  const filtered = hasFilters(filters);
  const empty = loaded !== undefined && loaded.lines.length === 0;

  return (
    <section className="screen" aria-labelledby="audit-title">
      <header className="screen-header">
        <h1 id="audit-title">Audit trail</h1>
        <div className="actions">
          <button type="button" className="button" onClick={() => void load()} data-testid="audit-refresh">
            <Icon name="replay" /> Refresh
          </button>
          <VerifyButton running={verify.state === 'running'} onClick={() => void runVerify()} />
        </div>
      </header>
      <p className="muted lead">
        What clients did through the hub: one line per request — when, who, which server, what, how it ended — approvals and policy decisions (a secret warned, masked or blocked; a host a sandbox refused). Arguments and results are not shown here (the files hold them only if <code>audit.content</code> is on). Each line carries the hash of the one before it, so Verify chain finds a line that was edited, removed or moved.
      </p>
      <VerifyResult verify={verify} />
      {error && <ErrorMessage>Could not read the audit trail: {error}</ErrorMessage>}
      {loaded && !loaded.enabled && (
        <p className="unavailable" data-testid="audit-off">
          <strong>The hub is not recording a trail now</strong> (<code>&quot;audit&quot;: &#123;&quot;enabled&quot;: false&#125;</code> in config.json, or capture is off). Lines already written are listed below.
        </p>
      )}
      {empty && !filtered ? (
        <EmptyState title="Nothing recorded yet" testId="audit-empty">
          <p>
            Every request a client makes through this hub is recorded here: the time, the client (its client token, <code>relay</code> for <code>patchbay relay</code>, <code>ui</code> for this app&apos;s playground), the server or profile, the method and tool, and the outcome; approvals of changed tools too. Arguments and results never are.
          </p>
          <p>
            The files are in <code className="path-cell" data-testid="audit-dir">{loaded.dir}</code> (<code>audit.jsonl</code>; older ones <code>audit.1.jsonl</code>, …). On the command line: <code>patchbay audit</code>, <code>patchbay audit verify</code>.
          </p>
        </EmptyState>
      ) : (
        loaded && (
          <>
            <AuditFilterBar filters={filters} servers={servers} onChange={setFilters} count={loaded.lines.length} more={loaded.more} />
            {empty ? (
              <EmptyState title="No line matches these filters" testId="audit-filtered-empty">
                <p>
                  <button type="button" className="button button-small" onClick={() => setFilters(NO_FILTERS)}>
                    Clear filters
                  </button>
                </p>
              </EmptyState>
            ) : (
              <AuditTable lines={loaded.lines} />
            )}
            {loaded.more && (
              <p>
                <button type="button" className="button" onClick={() => void loadMore()} disabled={loadingMore} data-testid="audit-load-more">
                  {loadingMore && <span className="spinner small" aria-hidden="true" />} Load older lines
                </button>
              </p>
            )}
            <p className="muted small">
              Files: <code className="path-cell">{loaded.dir}</code>
            </p>
          </>
        )
      )}
    </section>
  );
}

function AuditTable({ lines }: { lines: AuditLineDto[] }) {
  return (
    <div className="table-wrap">
      <table className="table audit-table" data-testid="audit-table">
        <caption className="visually-hidden">Audit trail, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Client</th>
            <th scope="col">Server</th>
            <th scope="col">What</th>
            <th scope="col">Outcome</th>
            <th scope="col">Kind</th>
            <th scope="col" className="num col-optional">Took</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={`${l.seq}-${l.t}`} data-testid="audit-row">
              <td title={`${l.t} · line seq ${l.seq}`} className="nowrap">{formatShortDateTime(l.t)}</td>
              <td data-testid="audit-client">
                <span className="mono">{l.client}</span>
                {l.name && <div className="muted small">{l.name}</div>}
              </td>
              <td data-testid="audit-server">{l.server}</td>
              <td className="mono small audit-what">{whatOf(l)}</td>
              <td>
                <span className={outcomeClass(l.outcome)} data-testid="audit-outcome">{l.outcome}</span>
              </td>
              <td>
                <span className="chip" data-testid="audit-kind">{l.kind}</span>
              </td>
              <td className="num col-optional nowrap">{l.ms !== undefined ? formatMs(l.ms) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
