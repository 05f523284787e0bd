/** The selected row: its request and response as collapsible JSON, timings, and replay. */
import { memo, useEffect, useState } from 'react';
import { allExpanded, collapseAllNested, darkStyles, defaultStyles, JsonView } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatBytes, formatDateTime, formatMs } from '../../components/format.js';
import { useServices } from '../../app/services.js';
import type { TimelineRow } from '../../stores/timeline-model.js';
import { usePrefersDark } from '../../components/use-prefers-dark.js';

// The library's dark theme (solarized) puts strings, booleans and numbers under 4.5:1 contrast on
// its background; these classes (app.css) keep its look with readable value colors.
const darkJsonStyles: typeof darkStyles = { ...darkStyles, stringValue: 'json-dark-string', booleanValue: 'json-dark-boolean', numberValue: 'json-dark-number' };

type Loaded = { kind: 'exchange'; exchange: Exchange } | { kind: 'event'; message: unknown; text?: string | undefined } | { kind: 'error'; message: string };
type ReplayResult = { status: string; latencyMs: number; response?: unknown; error?: string | undefined };

export function ExchangeDetail({ sessionId, row, version }: { sessionId: string; row: TimelineRow | undefined; version: number }) {
  const { bridge } = useServices();
  const [loaded, setLoaded] = useState<Loaded>();
  const [replay, setReplay] = useState<ReplayResult | { error: string }>();
  const [replaying, setReplaying] = useState(false);
  const dark = usePrefersDark();
  const seq = row?.seq;
  const status = row?.status;

  useEffect(() => {
    setReplay(undefined);
    if (seq === undefined || !row) {
      setLoaded(undefined);
      return;
    }
    let cancelled = false;
    void (async () => {
      if (row.kind === 'exchange') {
        const r = await bridge.call('inspector.exchanges.list', { session: sessionId, after: seq - 1, limit: 1, full: true });
        if (cancelled) return;
        const exchange = r.ok ? r.value.exchanges.find((x) => x.requestSeq === seq) : undefined;
        setLoaded(exchange ? { kind: 'exchange', exchange } : { kind: 'error', message: r.ok ? 'This exchange is no longer in memory.' : r.message });
      } else {
        const r = await bridge.call('inspector.events.list', { session: sessionId, after: seq - 1, limit: 1 });
        if (cancelled) return;
        const event = r.ok ? r.value.events.find((e) => e.seq === seq) : undefined;
        setLoaded(event ? { kind: 'event', message: event.message, text: event.text } : { kind: 'error', message: r.ok ? 'This message is no longer in memory.' : r.message });
      }
    })();
    return () => {
      cancelled = true;
    };
    // Re-fetch when a pending exchange completes (its status changes in a later batch).
  }, [bridge, sessionId, seq, status]);

  if (!row) {
    return (
      <aside className="detail" aria-label="Message details" data-testid="detail-empty">
        <p className="muted">Choose a message in the timeline (or use the arrow keys there) to see its JSON.</p>
      </aside>
    );
  }
  const styles = dark ? darkJsonStyles : defaultStyles;
  const doReplay = async (exchange: Exchange): Promise<void> => {
    setReplaying(true);
    const r = await bridge.call('inspector.replay', { session: sessionId, exchange: exchange.id });
    setReplaying(false);
    setReplay(r.ok ? { status: r.value.replay.status, latencyMs: r.value.replay.latencyMs, response: r.value.replay.response, error: r.value.replay.error } : { error: r.message });
  };
  void version;
  return (
    <aside className="detail" aria-label="Message details" data-testid="detail">
      <h2>{row.method ?? (row.kind === 'stderr' ? 'stderr' : 'Session event')}</h2>
      {loaded?.kind === 'error' && <ErrorMessage>{loaded.message}</ErrorMessage>}
      {loaded?.kind === 'exchange' && (
        <>
          <dl className="facts compact">
            <dt>Status</dt>
            <dd className={`status-text-${loaded.exchange.status}`} data-testid="detail-status">{loaded.exchange.status}</dd>
            <dt>Latency</dt>
            <dd data-testid="detail-latency">{formatMs(loaded.exchange.latencyMs)}{loaded.exchange.upstreamLatencyMs !== undefined ? ` (server ${formatMs(loaded.exchange.upstreamLatencyMs)})` : ''}</dd>
            <dt>Started</dt>
            <dd>{formatDateTime(loaded.exchange.startedAt)}</dd>
            <dt>Sizes</dt>
            <dd>{formatBytes(row.requestSize)} request{row.responseSize !== undefined ? `, ${formatBytes(row.responseSize)} response` : ''}</dd>
          </dl>
          {loaded.exchange.error && <ErrorMessage>Error {loaded.exchange.error.code}: {loaded.exchange.error.message}</ErrorMessage>}
          {loaded.exchange.reason && <p className="muted">{loaded.exchange.reason}</p>}
          <h3>Request</h3>
          <JsonBlock value={loaded.exchange.request} styles={styles} testId="json-request" />
          <h3>Response</h3>
          {loaded.exchange.response === undefined ? <p className="muted">No response (yet).</p> : <JsonBlock value={loaded.exchange.response} styles={styles} testId="json-response" />}
          {loaded.exchange.requester === 'client' && (
            <div className="replay">
              <button type="button" className="button" disabled={replaying} onClick={() => void doReplay(loaded.exchange)} data-testid="replay">
                {replaying ? 'Replaying…' : 'Replay this request'}
              </button>
              <span className="muted small"> Sends it again through a fresh session.</span>
              {replay && 'error' in replay && !('status' in replay) && <ErrorMessage>{replay.error}</ErrorMessage>}
              {replay && 'status' in replay && (
                <div data-testid="replay-result">
                  <p>Replay: <strong>{replay.status}</strong> in {formatMs(replay.latencyMs)}{replay.error ? ` — ${replay.error}` : ''}</p>
                  {replay.response !== undefined && <JsonBlock value={replay.response} styles={styles} testId="json-replay" />}
                </div>
              )}
            </div>
          )}
        </>
      )}
      {loaded?.kind === 'event' && (
        loaded.message !== undefined ? <JsonBlock value={loaded.message} styles={styles} testId="json-message" /> : <pre className="stderr-pre">{loaded.text}</pre>
      )}
    </aside>
  );
}

// Memoized: the detail re-renders on every live batch (several a second), and re-rendering a
// large body (sizing it with JSON.stringify, rebuilding the tree) then would stall the page.
const JsonBlock = memo(function JsonBlock({ value, styles, testId }: { value: unknown; styles: typeof defaultStyles; testId: string }) {
  if (value === null || typeof value !== 'object') {
    return <pre className="json-pre" data-testid={testId}>{typeof value === 'string' ? value : JSON.stringify(value)}</pre>;
  }
  const size = JSON.stringify(value).length;
  return (
    <div className="json" data-testid={testId}>
      <JsonView data={value as object} style={styles} shouldExpandNode={size > 20_000 ? collapseAllNested : allExpanded} clickToExpandNode />
    </div>
  );
});
