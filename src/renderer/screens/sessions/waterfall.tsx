/**
 * The session's waterfall, as DevTools' Network panel draws one: each exchange a row on one time
 * axis (its start offset in the session), its bar split into the phases of its timing
 * (timing-model.ts: queued in the hub, waiting for the server, receiving, routed, written) and its
 * total in ms. A click selects the exchange in the timeline. The first 500 exchanges are drawn,
 * fetched again (at most every half second) while the session grows.
 */
import { useEffect, useRef, useState } from 'react';
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useServices } from '../../app/services.js';
import { ms, waterfall } from './timing-model.js';

const LIMIT = 500;
const REFETCH_MS = 500;

export function Waterfall({ sessionId, version, onPick, nameOf }: { sessionId: string; version: number; onPick(requestSeq: number): void; nameOf(requestSeq: number): string | undefined }) {
  const { bridge } = useServices();
  const [exchanges, setExchanges] = useState<ExchangeSummary[]>();
  const [error, setError] = useState<string>();
  const fetched = useRef(false);
  useEffect(() => {
    let cancelled = false;
    // New traffic bumps `version` several times a second: fetch once it settles a little.
    const timer = setTimeout(() => {
      void bridge.call('inspector.exchanges.list', { session: sessionId, limit: LIMIT }).then((r) => {
        if (cancelled) return;
        fetched.current = true;
        if (r.ok) setExchanges(r.value.exchanges);
        else setError(r.message);
      });
    }, fetched.current ? REFETCH_MS : 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [bridge, sessionId, version]);
  if (error) return <ErrorMessage>Could not load the waterfall: {error}</ErrorMessage>;
  if (!exchanges) return <p className="muted small">Loading the waterfall…</p>;
  const { rows, span } = waterfall(exchanges);
  if (rows.length === 0) return <p className="muted small" data-testid="waterfall-empty">No calls in this session yet.</p>;
  return (
    <section className="waterfall" aria-label="Waterfall" data-testid="waterfall">
      <p className="muted small waterfall-scale">
        <span>0</span>
        <span>{ms(span)}</span>
      </p>
      <ol className="waterfall-rows">
        {rows.map((row) => {
          const seq = Number(row.id.slice(row.id.lastIndexOf('/') + 1));
          const name = nameOf(seq);
          const label = name ? `${row.label} ${name}` : row.label;
          return (
          <li key={row.id} className={`waterfall-row status-${row.status}`} data-testid="waterfall-row">
            <button type="button" className="waterfall-pick" onClick={() => onPick(seq)} title={`${label}: ${row.view.phases.map((p) => `${p.label} ${ms(p.end - p.start)}`).join(', ')}`}>
              <span className="waterfall-label">{label}</span>
              <span className="waterfall-track" aria-hidden="true">
                {row.view.phases.map((p) => (
                  <span
                    key={p.kind}
                    className={`timing-bar phase-${p.kind}`}
                    style={{ left: `${((row.offset + p.start) / span) * 100}%`, width: `${Math.max(((p.end - p.start) / span) * 100, 0.3)}%` }}
                  />
                ))}
                {row.view.phases.length === 0 && <span className="timing-bar phase-wait" style={{ left: `${(row.offset / span) * 100}%`, width: `${Math.max((row.view.total / span) * 100, 0.3)}%` }} />}
              </span>
              <span className="num waterfall-ms">{row.status === 'pending' ? 'running' : ms(row.view.total)}</span>
            </button>
          </li>
          );
        })}
      </ol>
      <p className="waterfall-legend small muted" aria-hidden="true">
        <span><i className="timing-bar phase-queue" /> queued in the hub</span>
        <span><i className="timing-bar phase-wait" /> waiting for the server</span>
        <span><i className="timing-bar phase-download" /> receiving</span>
        <span><i className="timing-bar phase-route" /> routed</span>
        <span><i className="timing-bar phase-deliver" /> written to the client</span>
      </p>
    </section>
  );
}
