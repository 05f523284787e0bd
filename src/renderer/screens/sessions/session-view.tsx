/**
 * One session: header and counts, filters and search (which filter and mark the timeline
 * itself, one row per exchange), a latency chart, the timeline and the selected row's details
 * in resizable panes, exports, and a comparison of two exchanges.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime, plural } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { SplitPanes } from '../../components/split.js';
import { exportSession, openSession } from '../../app/sessions-commands.js';
import { href } from '../../app/router.js';
import { useServices, useSessions } from '../../app/services.js';
import type { TimelineRow } from '../../stores/timeline-model.js';
import { viewRows, type TimelineSort } from '../../stores/timeline-view.js';
import { ExchangeDetail } from './exchange-detail.js';
import { LatencyChart } from './latency-chart.js';
import { SearchBar, summary as searchSummary, type SearchState } from './search-panel.js';
import { Timeline } from './timeline.js';
import { EraBadge } from './era-detail.js';
import { Waterfall } from './waterfall.js';

const CHART_KEY = 'patchbay.sessionChart';
// The diff viewer loads with the first comparison.
const CompareDrawer = lazy(() => import('./compare-drawer.js').then((m) => ({ default: m.CompareDrawer })));

function storedChart(): boolean {
  try {
    return localStorage.getItem(CHART_KEY) !== '0';
  } catch {
    return true;
  }
}

export function SessionView({ id }: { id: string }) {
  const services = useServices();
  useEffect(() => openSession(services, id), [services, id]);
  const open = useSessions((s) => (s.open?.id === id ? s.open : undefined));
  const [method, setMethod] = useState('');
  const [target, setTarget] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [search, setSearch] = useState<SearchState>();
  const [sort, setSort] = useState<TimelineSort>();
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [selected, setSelected] = useState<number>();
  const [chart, setChart] = useState(storedChart);
  const [showWaterfall, setShowWaterfall] = useState(false);
  const [compareBase, setCompareBase] = useState<Exchange>();
  const [comparing, setComparing] = useState<[Exchange, Exchange]>();
  const [exportError, setExportError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), [id]);

  const version = open?.version ?? 0;
  const timeline = open?.timeline;
  const filter = useMemo(() => ({ method, target, errorsOnly, matches: search?.matches }), [method, target, errorsOnly, search]);
  const filtering = Boolean(method || target || errorsOnly || search);
  // Recomputed per batch (a few times a second at most), not per message.
  const visible = useMemo(() => (timeline ? viewRows(timeline.rows, timeline.nested, { filter, sort, collapsed }) : undefined), [timeline, version, filter, sort, collapsed]);
  const methods = useMemo(() => timeline?.methods ?? [], [timeline, version]);
  const targets = useMemo(() => timeline?.targets ?? [], [timeline, version]);
  const maxLatency = timeline?.maxLatency ?? 0;
  const info = open?.info;
  const rowCount = timeline?.rows.length ?? 0;
  const shown = visible ? visible.length : rowCount;

  // A row the filters hide is not shown in the details either (the pane must not show what the
  // timeline does not); it comes back when the filters let it through again.
  const hidden = useMemo(() => selected !== undefined && visible !== undefined && !visible.includes(selected), [selected, visible]);
  const shownSelection = hidden ? undefined : selected;

  const clearFilters = (): void => {
    setMethod('');
    setTarget('');
    setErrorsOnly(false);
    setSearch(undefined);
  };
  const toggle = (index: number): void =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  const setChartShown = (shownNow: boolean): void => {
    setChart(shownNow);
    try {
      localStorage.setItem(CHART_KEY, shownNow ? '1' : '0');
    } catch {
      // Not remembered then.
    }
  };
  // The chart plots only rows the filters let through: a picked call is in the timeline, unless
  // it is nested under a collapsed call (then that call opens).
  const pickFromChart = (index: number): void => {
    const parent = timeline?.rows[index]?.parent;
    if (parent !== undefined && collapsed.has(parent)) toggle(parent);
    setSelected(index);
  };
  const doExport = async (format: 'jsonl' | 'har'): Promise<void> => setExportError(await exportSession(services, id, format));
  const playground = info?.transport.client === 'playground';

  return (
    <section className="screen session-screen" aria-labelledby="session-title">
      <p className="breadcrumb"><a href={href('sessions')}>Sessions</a> / {info?.client?.name ?? id.slice(0, 8)}</p>
      <header className="screen-header">
        <h1 id="session-title" ref={heading} tabIndex={-1}>
          {info ? `${info.client?.name ?? 'Unknown client'} → ${info.server}` : 'Session'}
        </h1>
        {info && <span className={`badge badge-session-${info.state}`} data-testid="session-state"><span className="dot" aria-hidden="true" />{info.state}</span>}
        {playground && <span className="chip chip-accent">playground</span>}
        <EraBadge era={info?.era} version={info?.protocolVersion} testId="session-view-era" />
        {info?.serverEra && <EraBadge era={info.serverEra} prefix="bridged to " testId="session-view-server-era" />}
        <div className="actions">
          <button type="button" className="button" aria-pressed={chart} onClick={() => setChartShown(!chart)} data-testid="toggle-chart">
            <Icon name="chart" /> Chart
          </button>
          <button type="button" className="button" aria-pressed={showWaterfall} onClick={() => setShowWaterfall(!showWaterfall)} data-testid="toggle-waterfall">
            <Icon name="chart" /> Waterfall
          </button>
          <button type="button" className="button" onClick={() => void doExport('jsonl')} data-testid="export-jsonl">
            <Icon name="download" /> JSONL
          </button>
          <button type="button" className="button" onClick={() => void doExport('har')} data-testid="export-har">
            <Icon name="download" /> HAR
          </button>
        </div>
      </header>
      {info && (
        <p className="muted session-meta" data-testid="session-meta">
          Started {formatDateTime(info.startedAt)} · {plural(info.exchanges.total, 'call')} ·{' '}
          <span className={info.errors > 0 ? 'error-text' : undefined} data-testid="session-errors">{plural(info.errors, 'error')}</span> · {plural(info.stderrLines, 'stderr line')}
          {info.protocolVersion ? ` · protocol ${info.protocolVersion}` : ''}
          {info.era === 'modern' ? ' · sessionless: this client’s requests, grouped' : ''}
          {info.failure ? ` · failed: ${info.failure.reason}` : ''}
        </p>
      )}
      {exportError && <ErrorMessage>Export failed: {exportError}</ErrorMessage>}
      {open?.loadError && <ErrorMessage>Could not load this session: {open.loadError}</ErrorMessage>}
      {open?.gap && <p className="banner banner-warn">Some messages were dropped while the inspector was behind; the timeline has a gap.</p>}
      <div className="toolbar" role="group" aria-label="Filter and search">
        <SearchBar sessionId={id} timeline={timeline} value={search} onChange={setSearch} />
        <label className="visually-hidden" htmlFor="method-filter">Method</label>
        <select id="method-filter" className="input" value={method} onChange={(e) => setMethod(e.target.value)} data-testid="method-filter">
          <option value="">All methods</option>
          {methods.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor="target-filter">Tool, prompt or resource</label>
        <select id="target-filter" className="input" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="target-filter" disabled={targets.length === 0}>
          <option value="">All tools, prompts, resources</option>
          {targets.map((t) => (
            <option key={t} value={t}>{t}</option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} data-testid="errors-only" /> Errors only
        </label>
        <span className="muted small count-line" aria-live="off" data-testid="row-count" title={search ? searchSummary(search) : undefined}>
          {filtering ? `${shown} of ${rowCount}` : rowCount} rows{search ? ` · “${search.query}”: ${search.matches.size}${search.truncated ? '+' : ''} matched` : ''}
          {open?.loading ? ' · loading…' : ''}
        </span>
      </div>
      {chart && timeline && (
        <div className="chart-panel">
          <LatencyChart rows={timeline.rows} version={version} filter={filter} onPick={pickFromChart} />
        </div>
      )}
      {showWaterfall && timeline && (
        <div className="chart-panel">
          <Waterfall sessionId={id} version={version} nameOf={(seq) => timeline.rows.find((r) => r.seq === seq)?.target} onPick={(seq) => { clearFilters(); setSelected(timeline.rows.findIndex((r) => r.seq === seq)); }} />
        </div>
      )}
      <div className="session-split">
        <SplitPanes
          id="session-panes"
          leftLabel="the timeline"
          // No details pane until a row is chosen: the timeline has the whole width (names and sizes not cut).
          rightCollapsed={selected === undefined}
          defaultLeft={64}
          left={
            timeline && rowCount > 0 && shown > 0 ? (
              <Timeline rows={timeline.rows} visible={visible} version={version} selected={shownSelection} onSelect={setSelected} sort={sort} onSort={setSort} collapsed={collapsed} onToggle={toggle} highlight={search?.query} matches={search?.matches} maxLatency={maxLatency} />
            ) : (
              <div className="timeline empty-timeline" data-testid="timeline-empty">
                {rowCount > 0 ? (
                  <>
                    <p>No rows match {search ? `“${search.query}” and ` : ''}these filters.</p>
                    <button type="button" className="button" onClick={clearFilters} data-testid="clear-filters">Clear filters</button>
                  </>
                ) : (
                  <p className="muted">{open?.loading ? 'Loading messages…' : 'No messages in this session yet. They appear here as the client and server talk.'}</p>
                )}
              </div>
            )
          }
          right={selected === undefined ? null : <ExchangeDetail sessionId={id} info={info} row={shownSelection !== undefined ? timeline?.rows[shownSelection] : undefined} toolsListSeq={shownSelection !== undefined && timeline ? lastToolsList(timeline.rows, shownSelection) : undefined} hiddenByFilters={hidden} compareBase={compareBase} onCompareBase={setCompareBase} onCompare={(a, b) => setComparing([a, b])} />}
        />
      </div>
      {comparing && (
        <Suspense fallback={null}>
          <CompareDrawer pair={comparing} onClose={() => setComparing(undefined)} />
        </Suspense>
      )}
    </section>
  );
}

/** For a `tools/call` row: the seq of the last answered `tools/list` before it (its tool's `_meta.ui` is there). */
function lastToolsList(rows: readonly TimelineRow[], index: number): number | undefined {
  if (rows[index]?.method !== 'tools/call') return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'exchange' && row.method === 'tools/list' && row.status === 'ok') return row.seq;
  }
  return undefined;
}
