/**
 * Sessions: the live list (sortable, filterable by server; the playground's and replay's own
 * sessions hidden unless asked for), or (by route) one session's timeline.
 */
import { useEffect, useMemo, useState } from 'react';
import type { InspectorSession } from '../../../shared/api/inspector-contract.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatTime, relativeTime } from '../../components/format.js';
import { loadSessions, watchSessionsList } from '../../app/sessions-commands.js';
import { href } from '../../app/router.js';
import { useServices, useSessions } from '../../app/services.js';
import { SessionView } from './session-view.js';
import { EraBadge } from './era-detail.js';

export function SessionsScreen({ sessionId }: { sessionId?: string | undefined }) {
  return sessionId ? <SessionView id={sessionId} /> : <SessionsList />;
}

type SortKey = 'started' | 'calls' | 'errors' | 'client' | 'server';
const COLUMNS: Array<{ key: SortKey; label: string; num?: boolean }> = [
  { key: 'client', label: 'Client' },
  { key: 'server', label: 'Server' },
  { key: 'started', label: 'Started' },
];

/** Sessions a person did not make with a client: the playground's and the inspector's replays. */
export function isOwnSession(s: InspectorSession): boolean {
  return s.transport.client === 'playground' || s.debug;
}

function sortValue(s: InspectorSession, key: SortKey): number | string {
  switch (key) {
    case 'started':
      return s.startedAt;
    case 'calls':
      return s.exchanges.total;
    case 'errors':
      return s.errors;
    case 'client':
      return s.client?.name ?? '';
    case 'server':
      return s.server;
  }
}

function SessionsList() {
  const services = useServices();
  const sessions = useSessions((s) => s.sessions);
  const loaded = useSessions((s) => s.listLoaded);
  const error = useSessions((s) => s.listError);
  const [showOwn, setShowOwn] = useState(false);
  // A profile's sessions with its members are the detail of another session: shown when asked for.
  const [showMembers, setShowMembers] = useState(false);
  const [server, setServer] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'started', dir: 'desc' });
  useEffect(() => {
    void loadSessions(services);
    return watchSessionsList(services);
  }, [services]);
  const servers = useMemo(() => [...new Set(sessions.map((s) => s.server))].sort(), [sessions]);
  const own = sessions.filter(isOwnSession).length;
  const members = sessions.filter((s) => s.profile !== undefined).length;
  const shown = useMemo(() => {
    const list = sessions.filter((s) => (showOwn || !isOwnSession(s)) && (showMembers || s.profile === undefined) && (!server || s.server === server));
    const dir = sort.dir === 'asc' ? 1 : -1;
    return list.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      return (x < y ? -1 : x > y ? 1 : b.startedAt - a.startedAt) * dir;
    });
  }, [sessions, showOwn, showMembers, server, sort]);
  const header = (key: SortKey, label: string, num = false) => {
    const active = sort.key === key;
    return (
      <th key={key} scope="col" className={num ? 'num' : undefined} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
        <button type="button" className={`sort-button${active ? ' active' : ''}`} onClick={() => setSort({ key, dir: active ? (sort.dir === 'asc' ? 'desc' : 'asc') : key === 'client' || key === 'server' ? 'asc' : 'desc' })}>
          {label}
          {active && <span aria-hidden="true" className="sort-arrow">{sort.dir === 'asc' ? '▲' : '▼'}</span>}
        </button>
      </th>
    );
  };
  return (
    <section className="screen" aria-labelledby="sessions-title">
      <header className="screen-header">
        <h1 id="sessions-title">Sessions</h1>
      </header>
      {error && <ErrorMessage>Could not load the sessions: {error}</ErrorMessage>}
      {loaded && sessions.length === 0 && !error && (
        <EmptyState title="No sessions yet" testId="sessions-empty">
          <p>
            A session appears here when an MCP client connects to a server through this hub, at <code>/mcp/&lt;server&gt;</code>. Open a server's{' '}
            <a href={href('servers')}>playground</a> to make one now.
          </p>
        </EmptyState>
      )}
      {sessions.length > 0 && (
        <>
          <div className="toolbar" role="group" aria-label="Filter sessions">
            <label className="visually-hidden" htmlFor="sessions-server">Server</label>
            <select id="sessions-server" className="input" value={server} onChange={(e) => setServer(e.target.value)} data-testid="sessions-server-filter">
              <option value="">All servers</option>
              {servers.map((s) => (
                <option key={s} value={s}>{s}</option>
              ))}
            </select>
            <label className="check">
              <input type="checkbox" checked={showOwn} onChange={(e) => setShowOwn(e.target.checked)} data-testid="show-playground" /> Show playground and replay sessions{own > 0 ? ` (${own})` : ''}
            </label>
            {members > 0 && (
              <label className="check" title="What each profile exchanged with its member servers on behalf of a client's session">
                <input type="checkbox" checked={showMembers} onChange={(e) => setShowMembers(e.target.checked)} data-testid="show-members" /> Show profile members ({members})
              </label>
            )}
            <span className="muted small count-line">{shown.length} of {sessions.length} sessions</span>
          </div>
          {shown.length === 0 ? (
            <EmptyState title="Nothing to show with these filters" testId="sessions-filtered-empty">
              <p>{own > 0 && !showOwn ? 'Only playground or replay sessions so far: tick “Show playground and replay sessions” to see them.' : 'No session of this server.'}</p>
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table sessions-table" data-testid="sessions-table">
                <caption className="visually-hidden">Sessions</caption>
                <thead>
                  <tr>
                    {COLUMNS.map((c) => header(c.key, c.label))}
                    <th scope="col">State</th>
                    {header('calls', 'Calls', true)}
                    {header('errors', 'Errors', true)}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((s) => (
                    <tr key={s.id} data-testid="session-row">
                      <th scope="row">
                        <a href={href('sessions', s.id)} className="row-title">
                          {s.client?.name ?? 'unknown client'}
                          {s.client?.version ? <span className="muted"> {s.client.version}</span> : null}
                        </a>
                        {s.principal && <span className="chip" title="The client token this session was opened with (Settings → Client tokens)" data-testid="session-principal">via token: {s.principal}</span>}
                        <EraBadge era={s.era} version={s.protocolVersion} testId="session-era" />
                        {s.serverEra && <EraBadge era={s.serverEra} prefix="bridged to " testId="session-server-era" />}
                        {s.transport.client === 'bridge' && <span className="chip" title="The legacy session the hub holds on behalf of a 2026-07-28 client">hub bridge</span>}
                        {s.profile && (
                          <span className="chip" title="What a profile exchanged with this member server on behalf of a client's session" data-testid="session-member-of">
                            member of {s.profile.id || '@default'}
                            {s.profile.parentSession && (
                              <>
                                {' · '}
                                <a href={href('sessions', s.profile.parentSession)}>its session</a>
                              </>
                            )}
                          </span>
                        )}
                        {s.transport.client === 'playground' && <span className="chip chip-accent">playground</span>}
                        {s.debug && <span className="chip">replay</span>}
                      </th>
                      <td>{s.server}</td>
                      <td title={new Date(s.startedAt).toISOString()}>
                        {formatTime(s.startedAt)} <span className="muted small">{relativeTime(s.startedAt)}</span>
                      </td>
                      <td>
                        <span className={`badge badge-session-${s.state}`}>
                          <span className="dot" aria-hidden="true" />
                          {s.state}
                        </span>
                      </td>
                      <td className="num">{s.exchanges.total}</td>
                      <td className={`num ${s.errors > 0 ? 'error-text' : ''}`} data-testid="session-errors-cell">{s.errors}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
