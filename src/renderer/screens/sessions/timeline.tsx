/**
 * The virtualized timeline: only the rows in view exist in the DOM, all of the same height (no
 * layout jump as rows stream in). It follows new rows while scrolled to the end, and stays put
 * when the person scrolled up. Keyboard: the list is one tab stop; arrows, Home/End, PageUp/Down
 * move the selection (aria-activedescendant), which opens the row's details.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { formatBytes, formatMs, formatTime } from '../../components/format.js';
import type { TimelineRow } from '../../stores/timeline-model.js';

const ROW_HEIGHT = 30;

export function Timeline(props: {
  rows: readonly TimelineRow[];
  /** Indexes into rows to show, or undefined for all. */
  visible: readonly number[] | undefined;
  version: number;
  selected: number | undefined;
  onSelect(index: number): void;
}) {
  const { rows, visible, selected, onSelect } = props;
  const count = visible ? visible.length : rows.length;
  const rowAt = (i: number): TimelineRow => rows[visible ? visible[i]! : i]!;
  const parent = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });

  // Follow the tail only while the person is at the end.
  useLayoutEffect(() => {
    if (follow.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
  }, [count, props.version, virtualizer]);

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
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at < 0 ? count - 1 : at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(count - 1),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-head" aria-hidden="true">
        <span>Time</span>
        <span>Method</span>
        <span>Status</span>
        <span className="num">Latency</span>
        <span className="num">Sizes</span>
      </div>
      <div
        ref={parent}
        className="timeline-scroll"
        role="listbox"
        aria-label="Messages of this session"
        tabIndex={0}
        aria-activedescendant={position >= 0 ? `row-${rowAt(position).seq}` : undefined}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rowAt(item.index);
            const index = visible ? visible[item.index]! : item.index;
            return (
              <div
                key={row.seq}
                id={`row-${row.seq}`}
                role="option"
                aria-selected={index === selected}
                className={`timeline-row kind-${row.kind} status-${row.status ?? 'none'}${index === selected ? ' selected' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => {
                  follow.current = false;
                  onSelect(index);
                }}
                data-testid="timeline-row"
                data-method={row.method}
              >
                <RowCells row={row} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const DIRECTION: Record<string, string> = { client: 'client →', server: '← server', hub: 'hub' };

function RowCells({ row }: { row: TimelineRow }) {
  if (row.kind === 'stderr' || row.kind === 'lifecycle') {
    return (
      <>
        <span className="cell-time">{formatTime(row.time)}</span>
        <span className="cell-text" title={row.text}>
          <span className="tag">{row.kind === 'stderr' ? 'stderr' : 'session'}</span> {row.text}
        </span>
      </>
    );
  }
  return (
    <>
      <span className="cell-time">{formatTime(row.time)}</span>
      <span className="cell-method">
        <span className="tag" title={row.origin === 'server' ? 'sent by the server' : row.origin === 'hub' ? 'sent by the hub' : 'sent by the client'}>
          {DIRECTION[row.origin]}
        </span>{' '}
        {row.method ?? '(response)'}
      </span>
      <span className={`cell-status status-text-${row.status ?? 'none'}`}>{row.kind === 'notification' ? 'notification' : row.status}</span>
      <span className="num">{formatMs(row.latencyMs)}</span>
      <span className="num">
        {formatBytes(row.requestSize)}
        {row.responseSize !== undefined ? ` / ${formatBytes(row.responseSize)}` : ''}
      </span>
    </>
  );
}
