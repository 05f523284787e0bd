/**
 * The virtualized timeline: only the rows in view exist in the DOM, all of the same height (no
 * layout jump as rows stream in). It follows new rows while scrolled to the end, and stays put
 * when the person scrolled up. A tree (calls hold what happened during them, one level down).
 * Keyboard: the tree is one tab stop; arrows, Home/End,
 * PageUp/Down (and j/k from anywhere) move the selection (aria-activedescendant), which opens
 * the row's details; Left/Right collapse and expand a call's nested rows.
 *
 * Each call shows the tool, prompt or resource it names; a running call its elapsed time and
 * progress; what happened during a call (a server's sampling or elicitation request, its log
 * messages) is nested under it.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { formatBytes, formatClock, formatMs } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { useNow } from '../../components/use-now.js';
import type { TimelineRow } from '../../stores/timeline-model.js';
import { treePlaces, type SortKey, type TimelineSort } from '../../stores/timeline-view.js';
import { ProgressBar } from '../playground/call-result.js';

const ROW_HEIGHT = 32;

const COLUMNS: Array<{ key: SortKey; label: string; className?: string }> = [
  { key: 'time', label: 'Time' },
  { key: 'call', label: 'Call' },
  { key: 'status', label: 'Status' },
  { key: 'latency', label: 'Latency', className: 'num' },
  { key: 'size', label: 'Size', className: 'num col-size' },
];

export function Timeline(props: {
  rows: readonly TimelineRow[];
  /** Indexes into rows to show, or undefined for all. */
  visible: readonly number[] | undefined;
  version: number;
  selected: number | undefined;
  onSelect(index: number): void;
  sort: TimelineSort | undefined;
  onSort(sort: TimelineSort | undefined): void;
  collapsed: ReadonlySet<number>;
  onToggle(index: number): void;
  /** Text to mark in the rows (the search). */
  highlight?: string | undefined;
  /** Rows a search matched. */
  matches?: ReadonlySet<number> | undefined;
  /** Longest latency in view, for the bars. */
  maxLatency: number;
}) {
  const { rows, visible, selected, onSelect } = props;
  const count = visible ? visible.length : rows.length;
  const rowAt = (i: number): TimelineRow => rows[visible ? visible[i]! : i]!;
  const parent = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  // Each row's place among its siblings, for assistive technology (only the rows in view exist).
  const place = useMemo(() => treePlaces(rows, visible), [rows, visible, count, props.version]);
  const sorted = props.sort !== undefined && !(props.sort.key === 'time' && props.sort.dir === 'asc');

  // Follow the tail only while the person is at the end (and the rows are in time order).
  useLayoutEffect(() => {
    if (follow.current && !sorted && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [count, props.version, virtualizer, sorted]);

  const position = selected === undefined ? -1 : visible ? visible.indexOf(selected) : selected;
  useEffect(() => {
    if (position >= 0) virtualizer.scrollToIndex(position, { align: 'auto' });
  }, [position, virtualizer]);

  const move = (to: number): void => {
    if (count === 0) return;
    const clamped = Math.max(0, Math.min(count - 1, to));
    follow.current = clamped === count - 1;
    onSelect(visible ? visible[clamped]! : clamped);
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 300) / ROW_HEIGHT) - 1);
    const at = position < 0 ? -1 : position;
    const current = selected === undefined ? undefined : rows[selected];
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at < 0 ? count - 1 : at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(count - 1),
      ArrowLeft: () => {
        if (selected !== undefined && current?.children && !props.collapsed.has(selected)) props.onToggle(selected);
        else if (current?.parent !== undefined) onSelect(current.parent);
      },
      ArrowRight: () => {
        if (selected !== undefined && current?.children && props.collapsed.has(selected)) props.onToggle(selected);
      },
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };
  // A column sorts in its natural direction first, then the other way, then back to time order.
  const sortBy = (key: SortKey): void => {
    const natural = key === 'time' || key === 'call' ? 'asc' : 'desc';
    const s = props.sort;
    if (!s || s.key !== key) props.onSort({ key, dir: natural });
    else if (s.dir === natural) props.onSort({ key, dir: natural === 'asc' ? 'desc' : 'asc' });
    else props.onSort(undefined);
  };

  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-head" role="group" aria-label="Sort the timeline">
        {COLUMNS.map((c) => {
          const active = props.sort?.key === c.key || (c.key === 'time' && !props.sort);
          const dir = props.sort?.key === c.key ? props.sort.dir : c.key === 'time' && !props.sort ? 'asc' : undefined;
          return (
            <button
              key={c.key}
              type="button"
              className={`sort-button ${c.className ?? ''}${active ? ' active' : ''}`}
              onClick={() => sortBy(c.key)}
              aria-label={`Sort by ${c.label.toLowerCase()}${dir ? `, now ${dir === 'asc' ? 'ascending' : 'descending'}` : ''}`}
              data-testid={`sort-${c.key}`}
            >
              {c.label}
              {dir && <span aria-hidden="true" className="sort-arrow">{dir === 'asc' ? '▲' : '▼'}</span>}
            </button>
          );
        })}
      </div>
      <div
        ref={parent}
        className="timeline-scroll"
        role="tree"
        aria-label="Messages of this session"
        tabIndex={0}
        aria-activedescendant={position >= 0 ? `row-${rowAt(position).seq}` : undefined}
        onKeyDown={onKeyDown}
        data-shortcut="rows"
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rowAt(item.index);
            const index = visible ? visible[item.index]! : item.index;
            const nested = row.parent !== undefined;
            const { posinset, setsize } = place(item.index);
            return (
              <div
                key={row.seq}
                id={`row-${row.seq}`}
                role="treeitem"
                aria-selected={index === selected}
                aria-level={nested ? 2 : 1}
                aria-posinset={posinset}
                aria-setsize={setsize}
                aria-expanded={row.children ? !props.collapsed.has(index) : undefined}
                className={`timeline-row kind-${row.kind} status-${row.status ?? 'none'}${index === selected ? ' selected' : ''}${nested ? ' nested' : ''}${props.matches?.has(index) ? ' match' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => {
                  follow.current = false;
                  onSelect(index);
                }}
                data-testid="timeline-row"
                data-method={row.method}
                data-status={row.status}
                data-match={props.matches?.has(index) ? 'true' : undefined}
              >
                <RowCells row={row} collapsed={props.collapsed.has(index)} onToggle={() => props.onToggle(index)} highlight={props.highlight} maxLatency={props.maxLatency} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Calls that name a tool, prompt or resource: the name says most, the method a word. */
const SHORT: Record<string, string> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'read',
  'resources/subscribe': 'subscribe',
  'resources/unsubscribe': 'unsubscribe',
  'completion/complete': 'complete',
  'notifications/message': 'log',
  'notifications/resources/updated': 'updated',
  'notifications/cancelled': 'cancelled',
};

function methodLabel(row: TimelineRow): string {
  const method = row.method ?? '(response)';
  if (row.target && SHORT[method]) return SHORT[method]!;
  return row.kind === 'notification' ? method.replace(/^notifications\//, '') : method;
}

const DIRECTION: Record<string, string> = { client: '→', server: '←', hub: '⟳' };
const WHO: Record<string, string> = { client: 'sent by the client', server: 'sent by the server', hub: 'sent by the hub' };

/** `text` with each occurrence of `query` (any case) marked. */
export function Highlight({ text, query }: { text: string; query?: string | undefined }): ReactNode {
  if (!query) return text;
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const out: ReactNode[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1 && q !== ''; i = lower.indexOf(q, at)) {
    out.push(<Fragment key={`t${at}`}>{text.slice(at, i)}</Fragment>, <mark key={`m${i}`}>{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  out.push(<Fragment key="end">{text.slice(at)}</Fragment>);
  return out;
}

function Elapsed({ since }: { since: number }) {
  const now = useNow(true);
  return <>{formatMs(Math.max(0, now - since))}</>;
}

function StatusCell({ row }: { row: TimelineRow }) {
  if (row.asked) return <span className={`cell-status status-text-${row.status === 'ok' ? 'ok' : 'pending'}`} data-testid="row-input-round">{row.status === 'ok' ? 'answered' : 'input asked'}</span>;
  if (row.kind === 'notification') return <span className="cell-status muted">notification</span>;
  if (row.status === 'pending') {
    return (
      <span className="cell-status status-text-pending" data-testid="row-running">
        <span className="spinner small" aria-hidden="true" />
        {row.progress ? (
          <span className="row-progress" title={row.progress.message}>
            <ProgressBar progress={row.progress.progress} total={row.progress.total} />
            <span className="mono">{row.progress.total !== undefined ? `${row.progress.progress} / ${row.progress.total}` : row.progress.progress}</span>
          </span>
        ) : (
          'running'
        )}
      </span>
    );
  }
  const label = row.isError ? 'tool error' : row.status;
  return (
    <span className={`cell-status status-text-${row.status ?? 'none'}`} title={row.text}>
      <span className="status-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

function RowCells({ row, collapsed, onToggle, highlight, maxLatency }: { row: TimelineRow; collapsed: boolean; onToggle(): void; highlight?: string | undefined; maxLatency: number }) {
  if (row.kind === 'stderr' || row.kind === 'lifecycle') {
    return (
      <>
        <span className="cell-time">{formatClock(row.time)}</span>
        <span className="cell-text" title={row.text}>
          <span className="tag">{row.kind === 'stderr' ? 'stderr' : 'session'}</span> <Highlight text={row.text ?? ''} query={highlight} />
        </span>
      </>
    );
  }
  const width = row.latencyMs !== undefined && maxLatency > 0 ? Math.max(2, Math.round((row.latencyMs / maxLatency) * 100)) : 0;
  return (
    <>
      <span className="cell-time">{formatClock(row.time)}</span>
      <span className="cell-method" title={`${row.method ?? ''}${row.target ? ` ${row.target}` : ''}${row.text ? ` — ${row.text}` : ''}`}>
        {row.children ? (
          <button
            type="button"
            className="disclosure"
            tabIndex={-1}
            aria-label={collapsed ? 'Show what happened during this call' : 'Hide what happened during this call'}
            onClick={(e) => {
              e.stopPropagation();
              onToggle();
            }}
          >
            <Icon name={collapsed ? 'chevronRight' : 'chevronDown'} size={12} />
            <span className="disclosure-count">{row.children.length}</span>
          </button>
        ) : null}
        <span className={`dir dir-${row.origin}`} title={WHO[row.origin]}>
          <span aria-hidden="true">{DIRECTION[row.origin]}</span>
          <span className="visually-hidden">{WHO[row.origin]}: </span>
        </span>
        <span className={`method-name${row.target && SHORT[row.method ?? ''] ? ' short' : ''}`}>
          <Highlight text={methodLabel(row)} query={highlight} />
        </span>
        {row.target && (
          <span className="target" data-testid="row-target">
            <Highlight text={row.target} query={highlight} />
          </span>
        )}
        {row.rounds ? (
          <span className="chip" title="The server asked for input; the client retried with it (one exchange)" data-testid="row-rounds">
            {row.rounds} input round{row.rounds === 1 ? '' : 's'}
          </span>
        ) : null}
        {row.byApp ? (
          <span className="chip chip-app" title="An MCP App the playground rendered made this call, not the person" data-testid="row-app">
            app
          </span>
        ) : null}
        {row.bridged ? (
          <span className="chip" title="The hub translated this call for a server of the other protocol era" data-testid="row-bridged">
            bridged
          </span>
        ) : null}
      </span>
      <StatusCell row={row} />
      <span className="num cell-latency">
        {row.status === 'pending' ? (
          <span className="mono">
            <Elapsed since={row.time} />
          </span>
        ) : (
          <>
            {width > 0 && <span className="latency-bar" style={{ width: `${width}%` }} aria-hidden="true" />}
            <span className="latency-value">{formatMs(row.latencyMs)}</span>
          </>
        )}
      </span>
      {/* Request and response sizes on two short lines: one "1.2 KB / 34.5 KB" line was cut in a narrow pane. */}
      <span className="num col-size cell-size" title={`request ${formatBytes(row.requestSize)}${row.responseSize !== undefined ? `, response ${formatBytes(row.responseSize)}` : ''}`}>
        <span>
          <span className="visually-hidden">request </span>
          {formatBytes(row.requestSize)}
        </span>
        {row.responseSize !== undefined && (
          <span>
            <span className="visually-hidden">response </span>
            {formatBytes(row.responseSize)}
          </span>
        )}
      </span>
    </>
  );
}
