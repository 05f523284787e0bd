/** Two calls from the playground's history side by side: their arguments and results diffed (loaded with the first comparison). */
import { DiffView, stableJson, unifiedDiff } from '../../components/diff-view.js';
import { Drawer } from '../../components/drawer.js';
import { formatClock, formatMs } from '../../components/format.js';
import type { HistoryEntry } from '../../stores/playground-history.js';

const shown = (e: HistoryEntry): unknown => (e.resultDropped ? '(too large to keep in the history)' : (e.result ?? null));

export function HistoryCompare({ pair, onClose }: { pair: [HistoryEntry, HistoryEntry] | undefined; onClose(): void }) {
  const [a, b] = pair ?? [];
  return (
    <Drawer open={pair !== undefined} onClose={onClose} title="Compare two calls" testId="history-compare" wide>
      {a && b && (
        <>
          <table className="table compare-table">
            <caption className="visually-hidden">The two calls</caption>
            <thead>
              <tr>
                <th scope="col"><span className="visually-hidden">Field</span></th>
                <th scope="col">A (older)</th>
                <th scope="col">B (newer)</th>
              </tr>
            </thead>
            <tbody>
              <tr><th scope="row">Call</th><td>{a.tool} at {formatClock(a.at)}</td><td>{b.tool} at {formatClock(b.at)}</td></tr>
              <tr><th scope="row">Status</th><td>{a.status}</td><td>{b.status}</td></tr>
              <tr><th scope="row">Duration</th><td>{formatMs(a.durationMs)}</td><td>{formatMs(b.durationMs)}</td></tr>
            </tbody>
          </table>
          <h3>Arguments</h3>
          <DiffView diff={unifiedDiff(stableJson(a.args), stableJson(b.args), 'arguments.json')} name="arguments.json" labels={['A', 'B']} testId="history-compare-args" />
          <h3>Result</h3>
          <DiffView diff={unifiedDiff(stableJson(shown(a)), stableJson(shown(b)), 'result.json')} name="result.json" labels={['A', 'B']} testId="history-compare-result" />
        </>
      )}
    </Drawer>
  );
}
