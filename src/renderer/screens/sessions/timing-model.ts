/**
 * Where an exchange's time went, as the timing view and the session's waterfall draw it (like
 * Chrome DevTools' Network → Timing): phases between the marks the engine took
 * (`ExchangeSummary.timing`, docs/inspector.md "Timing"), on two legs — the requester ⇄ the hub,
 * and the hub ⇄ the other side (the server, or for a bridged call the server in its own era) —
 * and the notifications that came during the call (progress) as ticks. Pure: tested in
 * timing-model.test.ts.
 */
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';

export type PhaseKind = 'queue' | 'wait' | 'download' | 'route' | 'deliver';

export interface Phase {
  kind: PhaseKind;
  label: string;
  /** ms after the exchange started. */
  start: number;
  end: number;
}

export interface Leg {
  label: string;
  start: number;
  end: number;
}

export interface Tick {
  /** ms after the exchange started. */
  at: number;
  label: string;
}

export interface ExchangeTimingView {
  phases: Phase[];
  legs: Leg[];
  ticks: Tick[];
  /** The last mark (ms): the scale of the bars. */
  total: number;
  /** Marks the hub could not take for this exchange, in words (a call still running, a history older than the marks). */
  missing: string[];
}

/** Who answers the requester: the server for a client's request, the client for the server's. */
function otherSide(x: ExchangeSummary): string {
  return x.requester === 'server' ? 'the client' : 'the server';
}

export function exchangeTiming(x: ExchangeSummary): ExchangeTimingView {
  const t = x.timing ?? {};
  const other = otherSide(x);
  const requester = x.requester === 'server' ? 'the server' : x.requester === 'hub' ? 'the hub' : 'the client';
  const handed = x.latencyMs;
  const phases: Phase[] = [];
  const missing: string[] = [];
  const add = (kind: PhaseKind, label: string, start: number | undefined, end: number | undefined): void => {
    if (start === undefined || end === undefined) return;
    phases.push({ kind, label, start, end: Math.max(start, end) });
  };
  add('queue', 'Queued in the hub', 0, t.sentMs);
  const waitEnd = t.firstByteMs ?? t.answeredMs;
  add('wait', `Waiting for ${other}${t.firstByteMs !== undefined ? ' (to first byte)' : ''}`, t.sentMs, waitEnd);
  if (t.firstByteMs !== undefined) add('download', 'Receiving the answer', t.firstByteMs, t.answeredMs);
  add('route', `Routed to ${requester}'s stream`, t.answeredMs ?? (t.sentMs === undefined ? 0 : undefined), handed);
  add('deliver', `Written to ${requester}`, handed, t.deliveredMs);
  if (x.status === 'pending') missing.push('still running: the answer’s marks come when it is answered');
  else {
    if (t.sentMs === undefined) missing.push(`not seen going to ${other} (answered by the hub, or cancelled first)`);
    else if (t.answeredMs === undefined) missing.push(`no answer from ${other}`);
    if (t.answeredMs !== undefined && t.firstByteMs === undefined && !x.bridge) missing.push('first byte: not recorded');
    if (t.deliveredMs === undefined && handed !== undefined) missing.push('delivery: not recorded');
  }
  const end = Math.max(t.deliveredMs ?? 0, handed ?? 0, t.answeredMs ?? 0);
  const legs: Leg[] = [{ label: `${cap(requester.slice(4))} ⇄ hub`, start: 0, end }];
  if (t.sentMs !== undefined) {
    const bridged = x.bridge ? ` (bridged: the server spoke ${x.bridge.era === 'legacy' ? '2025' : '2026-07-28'})` : '';
    legs.push({ label: `Hub ⇄ ${other.slice(4)}${bridged}`, start: t.sentMs, end: t.answeredMs ?? end });
  }
  const ticks: Tick[] = x.progress.map((p) => ({
    at: Math.max(0, p.time - x.startedAt),
    label: `progress${p.progress !== undefined ? ` ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}` : ''}`,
  }));
  for (const r of x.rounds ?? []) ticks.push({ at: Math.max(0, r.time - x.startedAt), label: `asked for input (${r.requests.map((q) => q.method).join(', ')})` });
  const total = Math.max(end, ...ticks.map((k) => k.at), 0.001);
  return { phases, legs, ticks, total, missing };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A waterfall row: where the exchange sits in the session's window, and its phases. */
export interface WaterfallRow {
  id: string;
  label: string;
  status: ExchangeSummary['status'];
  /** ms after the window's start. */
  offset: number;
  view: ExchangeTimingView;
}

/** The session's exchanges on one time axis (the earliest start is 0); `span` is the window in ms. */
export function waterfall(exchanges: readonly ExchangeSummary[], now = Date.now()): { rows: WaterfallRow[]; span: number } {
  if (exchanges.length === 0) return { rows: [], span: 0 };
  const start = Math.min(...exchanges.map((x) => x.startedAt));
  let span = 0;
  const rows = exchanges.map((x) => {
    const view = exchangeTiming(x);
    const offset = x.startedAt - start;
    const running = x.status === 'pending' ? Math.max(0, now - x.startedAt) : 0;
    span = Math.max(span, offset + Math.max(view.total, running));
    return { id: x.id, label: x.method, status: x.status, offset, view };
  });
  return { rows, span: Math.max(span, 0.001) };
}

/** A number of ms as the timing view prints it: to 0.1 ms below 10, whole ms above. */
export function ms(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value).toLocaleString('en-US')} ms`;
}
