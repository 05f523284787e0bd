/** Two exchanges side by side: what differs in their requests and in their answers, and their timings. */
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { DiffView, stableJson, unifiedDiff } from '../../components/diff-view.js';
import { Drawer } from '../../components/drawer.js';
import { formatClock, formatMs } from '../../components/format.js';
import { targetOf } from '../../stores/timeline-model.js';

function label(x: Exchange): string {
  const target = targetOf(x.method, (x.request as { params?: Record<string, unknown> } | undefined)?.params);
  return `${x.method}${target ? ` ${target}` : ''} at ${formatClock(x.startedAt)}`;
}

export function CompareDrawer({ pair, onClose }: { pair: [Exchange, Exchange] | undefined; onClose(): void }) {
  const [a, b] = pair ?? [];
  return (
    <Drawer open={pair !== undefined} onClose={onClose} title="Compare two exchanges" testId="compare-drawer" wide>
      {a && b && (
        <>
          <table className="table compare-table">
            <caption className="visually-hidden">The two exchanges</caption>
            <thead>
              <tr>
                <th scope="col"><span className="visually-hidden">Field</span></th>
                <th scope="col">A (pinned)</th>
                <th scope="col">B</th>
              </tr>
            </thead>
            <tbody>
              <tr><th scope="row">Call</th><td>{label(a)}</td><td>{label(b)}</td></tr>
              <tr><th scope="row">Status</th><td className={`status-text-${a.status}`}>{a.isError ? 'tool error' : a.status}</td><td className={`status-text-${b.status}`}>{b.isError ? 'tool error' : b.status}</td></tr>
              <tr><th scope="row">Latency</th><td>{formatMs(a.latencyMs)}</td><td>{formatMs(b.latencyMs)}</td></tr>
            </tbody>
          </table>
          <h3>Request</h3>
          <DiffView diff={unifiedDiff(stableJson(a.request ?? null), stableJson(b.request ?? null), 'request.json')} name="request.json" labels={['A', 'B']} testId="compare-request" />
          <h3>Response</h3>
          <DiffView diff={unifiedDiff(stableJson(a.response ?? null), stableJson(b.response ?? null), 'response.json')} name="response.json" labels={['A', 'B']} testId="compare-response" />
        </>
      )}
    </Drawer>
  );
}
