/** One session: header, filters, search, export; the timeline; the selected message's details. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { exportSession, openSession } from '../../app/sessions-commands.js';
import { href } from '../../app/router.js';
import { useServices, useSessions } from '../../app/services.js';
import { filterRows } from '../../stores/timeline-model.js';
import { ExchangeDetail } from './exchange-detail.js';
import { SearchPanel } from './search-panel.js';
import { Timeline } from './timeline.js';

export function SessionView({ id }: { id: string }) {
  const services = useServices();
  useEffect(() => openSession(services, id), [services, id]);
  const open = useSessions((s) => (s.open?.id === id ? s.open : undefined));
  const [method, setMethod] = useState('');
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [selected, setSelected] = useState<number>();
  const [exportError, setExportError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);

  const version = open?.version ?? 0;
  const timeline = open?.timeline;
  // Recomputed per batch (a few times a second at most), not per message.
  const visible = useMemo(() => (timeline ? filterRows(timeline.rows, { method, errorsOnly }) : undefined), [timeline, version, method, errorsOnly]);
  const methods = useMemo(() => timeline?.methods ?? [], [timeline, version]);
  const info = open?.info;
  const rowCount = timeline?.rows.length ?? 0;

  const doExport = async (format: 'jsonl' | 'har'): Promise<void> => setExportError(await exportSession(services, id, format));

  return (
    <section className="screen session-screen" aria-labelledby="session-title">
      <p className="breadcrumb"><a href={href('sessions')}>Sessions</a> / {info?.client?.name ?? id.slice(0, 8)}</p>
      <header className="screen-header">
        <h1 id="session-title" ref={heading} tabIndex={-1}>
          {info ? `${info.client?.name ?? 'Unknown client'} → ${info.server}` : 'Session'}
        </h1>
        {info && <span className={`badge badge-session-${info.state}`} data-testid="session-state"><span className="dot" aria-hidden="true" />{info.state}</span>}
        <div className="actions">
          <button type="button" className="button" onClick={() => void doExport('jsonl')} data-testid="export-jsonl">Export JSONL</button>
          <button type="button" className="button" onClick={() => void doExport('har')} data-testid="export-har">Export HAR</button>
        </div>
      </header>
      {info && (
        <p className="muted session-meta">
          Started {formatDateTime(info.startedAt)} · {plural(info.exchanges.total, 'call')} · {plural(info.errors, 'error')} · {plural(info.stderrLines, 'stderr line')}
          {info.protocolVersion ? ` · protocol ${info.protocolVersion}` : ''}
          {info.failure ? ` · failed: ${info.failure.reason}` : ''}
        </p>
      )}
      {exportError && <ErrorMessage>Export failed: {exportError}</ErrorMessage>}
      {open?.loadError && <ErrorMessage>Could not load this session: {open.loadError}</ErrorMessage>}
      {open?.gap && <p className="banner banner-warn">Some messages were dropped while the inspector was behind; the timeline has a gap.</p>}
      <div className="toolbar" role="group" aria-label="Filter and search">
        <label htmlFor="method-filter">Method</label>
        <select id="method-filter" className="input" value={method} onChange={(e) => setMethod(e.target.value)} data-testid="method-filter">
          <option value="">All methods</option>
          {methods.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={errorsOnly} onChange={(e) => setErrorsOnly(e.target.checked)} data-testid="errors-only" /> Errors only
        </label>
        <span className="muted small count-line" aria-live="off" data-testid="row-count">
          {visible ? `${visible.length} of ${rowCount}` : rowCount} rows{open?.loading ? ' · loading…' : ''}
        </span>
      </div>
      <SearchPanel sessionId={id} onPick={(seq) => {
        const index = timeline?.indexOfSeq(seq);
        if (index !== undefined) {
          setMethod('');
          setErrorsOnly(false);
          setSelected(index);
        }
      }} />
      <div className="session-split">
        {timeline && rowCount > 0 ? (
          <Timeline rows={timeline.rows} visible={visible} version={version} selected={selected} onSelect={setSelected} />
        ) : (
          <div className="timeline empty-timeline">
            <p className="muted">{open?.loading ? 'Loading messages…' : 'No messages in this session yet. They appear here as the client and server talk.'}</p>
          </div>
        )}
        <ExchangeDetail sessionId={id} row={selected !== undefined ? timeline?.rows[selected] : undefined} version={version} />
      </div>
    </section>
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
