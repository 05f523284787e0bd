/**
 * The playground's history (DevTools' "replay" for a person at the playground): every tool call
 * made here on this server or profile — tool, arguments, when, status, duration — newest first,
 * kept in this browser across reloads (stores/playground-history.ts). Re-run calls it again as it
 * was; Edit loads its arguments into the tool's form; tick two and Compare diffs their arguments
 * and results (the diff viewer of the inspector's compare).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { formatClock, formatMs } from '../../components/format.js';
import { navigate } from '../../app/router.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { HistoryEntry } from '../../stores/playground-history.js';
import { playgroundPath } from './target-picker.js';

const HistoryCompare = lazy(() => import('./history-compare.js').then((m) => ({ default: m.HistoryCompare })));

const NONE: HistoryEntry[] = [];

function argsText(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text === '{}' ? '—' : text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function HistoryPanel({ server }: { server: string }) {
  const services = useServices();
  const entries = usePlayground((s) => s.history[server]) ?? NONE;
  const newestFirst = useMemo(() => [...entries].reverse(), [entries]);
  const [ticked, setTicked] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[HistoryEntry, HistoryEntry]>();
  const live = ticked.filter((id) => entries.some((e) => e.id === id));
  const load = (e: HistoryEntry, run: boolean): void => {
    services.stores.playground.getState().historyLoaded(server, e.tool, e.args, run);
    navigate(...playgroundPath(server), `tool:${e.tool}`);
  };
  const toggle = (id: number, on: boolean): void => setTicked((t) => (on ? [...t.filter((x) => x !== id), id].slice(-2) : t.filter((x) => x !== id)));
  const compare = (): void => {
    const pair = entries.filter((e) => live.includes(e.id));
    if (pair.length === 2) setComparing([pair[0]!, pair[1]!]);
  };
  return (
    <details className="activity pg-history" open data-testid="pg-history">
      <summary>
        History of calls <span className="count">{entries.length}</span>
      </summary>
      {entries.length === 0 ? (
        <p className="muted small">Tool calls you run here are kept in this browser: run one again, load it into the form to edit, or compare two.</p>
      ) : (
        <>
          <div className="pg-history-actions">
            <button type="button" className="button button-small" disabled={live.length !== 2} onClick={compare} data-testid="history-compare-button">
              Compare the two ticked
            </button>
            <span className="muted small">{live.length === 2 ? '' : 'Tick two calls to compare them.'}</span>
            <span className="spacer" />
            <button type="button" className="button button-small" onClick={() => services.stores.playground.getState().historyCleared(server)} data-testid="history-clear">
              Clear history
            </button>
          </div>
          <div className="table-wrap pg-history-wrap">
            <table className="table pg-history-table" data-testid="history-table">
              <caption className="visually-hidden">Tool calls made from this playground, newest first</caption>
              <thead>
                <tr>
                  <th scope="col"><span className="visually-hidden">Compare</span></th>
                  <th scope="col">When</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Arguments</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">Duration</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {newestFirst.map((e) => (
                  <tr key={e.id} data-testid="history-row">
                    <td>
                      <input type="checkbox" checked={live.includes(e.id)} onChange={(ev) => toggle(e.id, ev.target.checked)} aria-label={`Compare the call of ${e.tool} at ${formatClock(e.at)}`} data-testid="history-tick" />
                    </td>
                    <td className="mono">{formatClock(e.at)}</td>
                    <th scope="row"><code>{e.tool}</code></th>
                    <td className="mono pg-history-args" title={JSON.stringify(e.args)}>{argsText(e.args)}</td>
                    <td className={e.status === 'ok' ? '' : 'status-text-error'} data-testid="history-status">{e.status}</td>
                    <td className="num">{formatMs(e.durationMs)}</td>
                    <td className="pg-history-row-actions">
                      <button type="button" className="button button-small" onClick={() => load(e, true)} aria-label={`Re-run ${e.tool} as it was`} data-testid="history-rerun">Re-run</button>
                      <button type="button" className="button button-small" onClick={() => load(e, false)} aria-label={`Edit ${e.tool}'s arguments in its form`} data-testid="history-edit">Edit</button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {comparing && (
        <Suspense fallback={null}>
          <HistoryCompare pair={comparing} onClose={() => setComparing(undefined)} />
        </Suspense>
      )}
    </details>
  );
}
