/** What the server said on its own during the playground session: log messages, progress, list changes, resource updates. */
import { usePlayground } from '../../app/services.js';
import type { LogEntry } from '../../stores/playground-store.js';

function summary(e: LogEntry): string {
  const p = e.params ?? {};
  switch (e.method) {
    case 'notifications/message':
      return `${String(p.level ?? 'info')}${p.logger ? ` (${String(p.logger)})` : ''}: ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}`;
    case 'notifications/progress':
      return `progress ${String(p.progress)}${p.total !== undefined ? ` / ${String(p.total)}` : ''}${p.message ? ` — ${String(p.message)}` : ''}`;
    case 'notifications/resources/updated':
      return `updated ${String(p.uri)}`;
    default:
      return p && Object.keys(p).length ? JSON.stringify(p) : '';
  }
}

export function ActivityLog({ server }: { server: string }) {
  const log = usePlayground((s) => s.byServer[server]?.log ?? []);
  return (
    <details className="activity" data-testid="activity-log">
      <summary>
        Server messages <span className="count">{log.length}</span>
      </summary>
      {log.length === 0 ? (
        <p className="muted small">Nothing yet. Log messages, progress and change notifications from the server appear here.</p>
      ) : (
        <ol className="activity-list">
          {[...log].reverse().map((e) => (
            <li key={e.n}>
              <span className="mono muted">{new Date(e.time).toLocaleTimeString()}</span> <code>{e.method.replace('notifications/', '')}</code> {summary(e)}
              {e.relatedRequestId !== undefined && <span className="muted small"> (call {String(e.relatedRequestId)})</span>}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
