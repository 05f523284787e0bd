/**
 * An exchange's timing, as Chrome DevTools' Network → Timing shows a request: one row per phase
 * (queued in the hub, waiting for the server, receiving the answer, routed, written to the
 * client) with a bar on one scale and its figure in ms; the two legs (the requester ⇄ the hub, the
 * hub ⇄ the server — for a bridged call, the server in its own era); the notifications that came
 * during the call as ticks. The marks are the engine's (timing-model.ts).
 */
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { exchangeTiming, ms, type ExchangeTimingView } from './timing-model.js';

/** A bar from `start` to `end` on a scale of `total` (positions through the CSSOM: the CSP allows it). */
export function Bar({ start, end, total, className }: { start: number; end: number; total: number; className: string }) {
  const left = (start / total) * 100;
  const width = Math.max(((end - start) / total) * 100, 0.5);
  return <span className={`timing-bar ${className}`} style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }} aria-hidden="true" />;
}

export function TimingView({ exchange }: { exchange: ExchangeSummary }) {
  const view = exchangeTiming(exchange);
  return (
    <section className="timing-view" aria-label="Timing" data-testid="timing-view">
      <table className="timing-table">
        <caption className="visually-hidden">Where the time of this exchange went, by phase</caption>
        <thead>
          <tr>
            <th scope="col">Phase</th>
            <th scope="col" className="timing-track-head">
              <span className="visually-hidden">Bar</span>
            </th>
            <th scope="col" className="num">Time</th>
          </tr>
        </thead>
        <tbody>
          {view.phases.map((p) => (
            <tr key={p.kind} data-testid="timing-phase" data-phase={p.kind}>
              <th scope="row">{p.label}</th>
              <td className="timing-track"><Bar start={p.start} end={p.end} total={view.total} className={`phase-${p.kind}`} /></td>
              <td className="num">{ms(p.end - p.start)}</td>
            </tr>
          ))}
          <tr className="timing-total">
            <th scope="row">Total</th>
            <td />
            <td className="num" data-testid="timing-total">{ms(view.total)}</td>
          </tr>
        </tbody>
      </table>
      <Legs view={view} />
      {view.ticks.length > 0 && (
        <>
          <h4>During the call</h4>
          <ul className="timing-ticks" data-testid="timing-ticks">
            {view.ticks.map((k, i) => (
              <li key={i}>
                <span className="num">+{ms(k.at)}</span> {k.label}
              </li>
            ))}
          </ul>
        </>
      )}
      {view.missing.length > 0 && <p className="muted small">{view.missing.join(' · ')}</p>}
    </section>
  );
}

function Legs({ view }: { view: ExchangeTimingView }) {
  return (
    <>
      <h4>Legs</h4>
      <ul className="timing-legs" data-testid="timing-legs">
        {view.legs.map((leg) => (
          <li key={leg.label} data-testid="timing-leg">
            <span className="timing-leg-label">{leg.label}</span>
            <span className="timing-track"><Bar start={leg.start} end={leg.end} total={view.total} className="phase-leg" /></span>
            <span className="num">{ms(leg.end - leg.start)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
