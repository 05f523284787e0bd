/**
 * Two exchanges side by side: what differs in their requests and in their answers, and their
 * timings. The JSON-RPC ids are shown in the table, not diffed: two calls always have different
 * ids, and flagging that every time hides what did change. Unchanged lines the diff leaves out are
 * marked, and "Show unchanged lines" shows the messages whole.
 */
import { useState } from 'react';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { DiffView, lineCount, stableJson, unifiedDiff } from '../../components/diff-view.js';
import { Drawer } from '../../components/drawer.js';
import { formatClock, formatMs } from '../../components/format.js';
import { targetOf } from '../../stores/timeline-model.js';

function label(x: Exchange): string {
  const target = targetOf(x.method, (x.request as { params?: Record<string, unknown> } | undefined)?.params);
  return `${x.method}${target ? ` ${target}` : ''} at ${formatClock(x.startedAt)}`;
}

/** A message without its JSON-RPC id, as the diff compares it. */
function withoutId(message: unknown): unknown {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return message ?? null;
  const { id: _id, ...rest } = message as Record<string, unknown>;
  return rest;
}

function MessageDiff({ a, b, name, whole, testId }: { a: unknown; b: unknown; name: string; whole: boolean; testId: string }) {
  const before = stableJson(withoutId(a));
  const after = stableJson(withoutId(b));
  const total = lineCount(before);
  return <DiffView diff={unifiedDiff(before, after, name, whole ? Math.max(total, lineCount(after)) : 3)} name={name} labels={['A', 'B']} testId={testId} oldTotal={total} />;
}

export function CompareDrawer({ pair, onClose }: { pair: [Exchange, Exchange] | undefined; onClose(): void }) {
  const [a, b] = pair ?? [];
  const [whole, setWhole] = useState(false);
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
              <tr><th scope="row">JSON-RPC id</th><td className="mono" data-testid="compare-id-a">{String(a.requestId)}</td><td className="mono">{String(b.requestId)}</td></tr>
              <tr><th scope="row">Status</th><td className={`status-text-${a.status}`}>{a.isError ? 'tool error' : a.status}</td><td className={`status-text-${b.status}`}>{b.isError ? 'tool error' : b.status}</td></tr>
              <tr><th scope="row">Latency</th><td>{formatMs(a.latencyMs)}</td><td>{formatMs(b.latencyMs)}</td></tr>
            </tbody>
          </table>
          <label className="check">
            <input type="checkbox" checked={whole} onChange={(e) => setWhole(e.target.checked)} data-testid="compare-whole" /> Show unchanged lines
          </label>
          <h3>Request <span className="muted small">(ids left out: they always differ)</span></h3>
          <MessageDiff a={a.request} b={b.request} name="request.json" whole={whole} testId="compare-request" />
          <h3>Response</h3>
          <MessageDiff a={a.response} b={b.response} name="response.json" whole={whole} testId="compare-response" />
        </>
      )}
    </Drawer>
  );
}
