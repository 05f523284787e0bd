/**
 * What the timeline shows of a model: the rows a filter keeps, in the order a sort asks, with
 * nested rows under their call (unless it is collapsed). A pure function of the model's rows,
 * recomputed per batch of events (a few times a second), never per message.
 */
import { isErrorRow, type TimelineRow } from './timeline-model.js';

export type SortKey = 'time' | 'call' | 'status' | 'latency' | 'size';
export interface TimelineSort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

export interface TimelineFilter {
  method: string;
  /** A tool, prompt or resource name (the row's target). */
  target?: string | undefined;
  errorsOnly: boolean;
  /** Rows a search matched (indexes); a call is kept when it or a row nested under it matched. */
  matches?: ReadonlySet<number> | undefined;
}

export interface ViewOptions {
  filter: TimelineFilter;
  sort?: TimelineSort | undefined;
  /** Calls whose nested rows are hidden. */
  collapsed?: ReadonlySet<number> | undefined;
}

/** Whether a row itself passes the filter (the chart counts only those). */
export function passes(row: TimelineRow, index: number, f: TimelineFilter): boolean {
  if (f.method && row.method !== f.method) return false;
  if (f.target && row.target !== f.target) return false;
  if (f.errorsOnly && !isErrorRow(row)) return false;
  if (f.matches && !f.matches.has(index)) return false;
  return true;
}

export function isFiltering(filter: TimelineFilter): boolean {
  return Boolean(filter.method || filter.target || filter.errorsOnly || filter.matches);
}

const STATUS_ORDER: Record<string, number> = { error: 0, timeout: 1, orphaned: 2, cancelled: 3, pending: 4, ok: 5 };

function sortValue(row: TimelineRow, key: SortKey): number | string {
  switch (key) {
    case 'time':
      return row.seq;
    case 'call':
      return `${row.method ?? ''} ${row.target ?? ''}`;
    case 'status':
      return row.status === undefined ? 9 : (STATUS_ORDER[row.status] ?? 8);
    case 'latency':
      return row.latencyMs ?? -1;
    case 'size':
      return (row.requestSize ?? 0) + (row.responseSize ?? 0);
  }
}

/** Indexes of the rows to show, in order; undefined when that is every row as it stands (nothing copied). */
export function viewRows(rows: readonly TimelineRow[], nested: number, options: ViewOptions): number[] | undefined {
  const { filter, sort, collapsed } = options;
  const filtering = isFiltering(filter);
  const sorting = sort !== undefined && !(sort.key === 'time' && sort.dir === 'asc');
  if (!filtering && !sorting && nested === 0) return undefined;
  const top: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.parent !== undefined) continue;
    if (!filtering || passes(row, i, filter) || row.children?.some((c) => passes(rows[c]!, c, filter))) top.push(i);
  }
  if (sorting) {
    const dir = sort.dir === 'asc' ? 1 : -1;
    top.sort((a, b) => {
      const x = sortValue(rows[a]!, sort.key);
      const y = sortValue(rows[b]!, sort.key);
      return (x < y ? -1 : x > y ? 1 : a - b) * dir;
    });
  }
  if (nested === 0) return top;
  const out: number[] = [];
  for (const i of top) {
    out.push(i);
    const children = rows[i]!.children;
    if (!children || collapsed?.has(i)) continue;
    // A call kept for what happened during it shows those rows only; a call that passes, all of them.
    const all = !filtering || passes(rows[i]!, i, filter);
    for (const c of children) if (all || passes(rows[c]!, c, filter)) out.push(c);
  }
  return out;
}

/** A shown row's place among its siblings as shown: aria-posinset and aria-setsize. */
export interface TreePlace {
  posinset: number;
  setsize: number;
}

/**
 * Each shown row's place among its siblings (by its position in `visible`): the timeline is
 * virtualized, so assistive technology cannot count the rows itself — only those in view exist.
 * Top-level rows are siblings of one another, nested rows of the others shown under the same
 * call; a filter's hidden rows are not counted. `visible` undefined: every row, all top level
 * (viewRows returns that only when no row is nested).
 */
export function treePlaces(rows: readonly TimelineRow[], visible: readonly number[] | undefined): (position: number) => TreePlace {
  if (visible === undefined) {
    const setsize = rows.length;
    return (position) => ({ posinset: position + 1, setsize });
  }
  const posinset = new Int32Array(visible.length);
  const counts = new Map<number, number>();
  for (let p = 0; p < visible.length; p++) {
    const parent = rows[visible[p]!]!.parent ?? -1;
    const n = (counts.get(parent) ?? 0) + 1;
    counts.set(parent, n);
    posinset[p] = n;
  }
  return (position) => ({ posinset: posinset[position]!, setsize: counts.get(rows[visible[position]!]!.parent ?? -1)! });
}
