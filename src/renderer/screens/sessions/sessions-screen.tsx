/** Sessions: the live list, or (by route) one session's timeline. */
import { useEffect } from 'react';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatTime, relativeTime } from '../../components/format.js';
import { loadSessions, watchSessionsList } from '../../app/sessions-commands.js';
import { href } from '../../app/router.js';
import { useServices, useSessions } from '../../app/services.js';
import { SessionView } from './session-view.js';

export function SessionsScreen({ sessionId }: { sessionId?: string | undefined }) {
  return sessionId ? <SessionView id={sessionId} /> : <SessionsList />;
}

function SessionsList() {
  const services = useServices();
  const sessions = useSessions((s) => s.sessions);
  const loaded = useSessions((s) => s.listLoaded);
  const error = useSessions((s) => s.listError);
  useEffect(() => {
    void loadSessions(services);
    return watchSessionsList(services);
  }, [services]);
  return (
    <section className="screen" aria-labelledby="sessions-title">
      <header className="screen-header">
        <h1 id="sessions-title">Sessions</h1>
      </header>
      {error && <ErrorMessage>Could not load the sessions: {error}</ErrorMessage>}
      {loaded && sessions.length === 0 && !error && (
        <EmptyState title="No sessions yet" testId="sessions-empty">
          <p>
            A session appears here when an MCP client connects to a server through this hub, at <code>/mcp/&lt;server&gt;</code>. Use{' '}
            <a href={href('servers')}>Test</a> on a server to make one now.
          </p>
        </EmptyState>
      )}
      {sessions.length > 0 && (
        <table className="table sessions-table" data-testid="sessions-table">
          <caption className="visually-hidden">Sessions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Server</th>
              <th scope="col">Started</th>
              <th scope="col">State</th>
              <th scope="col" className="num">Calls</th>
              <th scope="col" className="num">Errors</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-testid="session-row">
                <th scope="row">
                  <a href={href('sessions', s.id)} className="row-title">
                    {s.client?.name ?? 'unknown client'}
                    {s.client?.version ? <span className="muted"> {s.client.version}</span> : null}
                  </a>
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
                <td className={`num ${s.errors > 0 ? 'error-text' : ''}`}>{s.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
