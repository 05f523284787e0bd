/**
 * A session's timeline, built incrementally from captured events: one row per exchange (request
 * with its answer), notification, stderr line or lifecycle change. Rows keep metadata only (no
 * message bodies: those are fetched when a row is opened), so 100k-message sessions stay small.
 * Mutable on purpose — appending 1,000 messages a second must not copy the array each time; the
 * store publishes a version number instead.
 */
import type { CaptureEvent, CaptureOrigin, ExchangeStatus, ExchangeSummary } from '../../shared/api/inspector-contract.js';

export interface TimelineRow {
  /** Seq of the event that created the row (for an exchange: its request's first sighting). */
  seq: number;
  kind: 'exchange' | 'notification' | 'stderr' | 'lifecycle';
  time: number;
  origin: CaptureOrigin;
  method?: string | undefined;
  status?: ExchangeStatus | undefined;
  latencyMs?: number | undefined;
  requestSize?: number | undefined;
  responseSize?: number | undefined;
  responseSeq?: number | undefined;
  /** stderr line or lifecycle text; for a failed exchange, the error message. */
  text?: string | undefined;
}

const FAILED: ReadonlySet<ExchangeStatus> = new Set(['error', 'timeout', 'orphaned']);

export function isErrorRow(row: TimelineRow): boolean {
  return row.status !== undefined && FAILED.has(row.status);
}

export class TimelineModel {
  readonly rows: TimelineRow[] = [];
  /** Row index by the seq of any event that belongs to it (request, response). */
  private readonly bySeq = new Map<number, number>();
  /** Requests seen on one leg and not answered yet: `${origin}:${id}` → row index. */
  private readonly open = new Map<string, number>();
  private readonly methodSet = new Set<string>();
  lastSeq = 0;

  get methods(): string[] {
    return [...this.methodSet].sort();
  }

  indexOfSeq(seq: number): number | undefined {
    return this.bySeq.get(seq);
  }

  add(events: readonly CaptureEvent[]): void {
    for (const e of events) this.addOne(e);
  }

  private addOne(e: CaptureEvent): void {
    if (e.seq <= this.lastSeq) return; // replayed after a reconnect: seen already
    this.lastSeq = e.seq;
    switch (e.kind) {
      case 'stderr':
        this.push({ seq: e.seq, kind: 'stderr', time: e.time, origin: e.origin, text: e.text ?? '' });
        break;
      case 'lifecycle':
        this.push({ seq: e.seq, kind: 'lifecycle', time: e.time, origin: e.origin, text: e.text ?? e.note ?? 'session changed' });
        break;
      case 'request': {
        const key = `${e.origin}:${JSON.stringify(e.id ?? null)}`;
        const seen = this.open.get(key);
        if (seen !== undefined) {
          // The same request on its second leg (client → hub → server): one row, not two.
          this.bySeq.set(e.seq, seen);
          break;
        }
        this.open.set(key, this.push({ seq: e.seq, kind: 'exchange', time: e.time, origin: e.origin, method: e.method, status: 'pending', requestSize: e.size }));
        if (e.method) this.methodSet.add(e.method);
        break;
      }
      case 'notification':
        if (firstLeg(e)) {
          this.push({ seq: e.seq, kind: 'notification', time: e.time, origin: e.origin, method: e.method, requestSize: e.size });
          if (e.method) this.methodSet.add(e.method);
        }
        break;
      default:
        break;
    }
    if (e.exchanges) for (const x of e.exchanges) this.complete(x, e);
  }

  private complete(x: ExchangeSummary, e: CaptureEvent): void {
    let index = this.bySeq.get(x.requestSeq);
    if (index === undefined) {
      // Its request is older than what was loaded (the session's memory was trimmed): show it anyway.
      index = this.push({ seq: x.requestSeq, kind: 'exchange', time: x.startedAt, origin: x.requester, method: x.method });
      this.methodSet.add(x.method);
    }
    const row = this.rows[index]!;
    row.status = x.status;
    row.latencyMs = x.latencyMs;
    if (e.kind === 'response') {
      row.responseSize = e.size;
      row.responseSeq = e.seq;
      this.bySeq.set(e.seq, index);
    }
    if (x.error) row.text = x.error.message;
    else if (x.reason) row.text = x.reason;
    this.open.delete(`${x.requester}:${JSON.stringify(x.requestId)}`);
  }

  private push(row: TimelineRow): number {
    const index = this.rows.push(row) - 1;
    this.bySeq.set(row.seq, index);
    return index;
  }
}

/** A message crosses two legs; the row is made where it enters the hub. */
function firstLeg(e: CaptureEvent): boolean {
  if (e.origin === 'client') return e.leg === 'client';
  if (e.origin === 'server') return e.leg === 'upstream';
  return true;
}

export interface TimelineFilter {
  method: string;
  errorsOnly: boolean;
}

/** Indexes of the rows a filter keeps (all rows: undefined, so nothing is copied). */
export function filterRows(rows: readonly TimelineRow[], filter: TimelineFilter): number[] | undefined {
  if (!filter.method && !filter.errorsOnly) return undefined;
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (filter.method && r.method !== filter.method) continue;
    if (filter.errorsOnly && !isErrorRow(r)) continue;
    out.push(i);
  }
  return out;
}
