/**
 * The selected row: what was asked and answered (a result's content rendered — images shown —
 * and the JSON as a tree or raw text), timings and progress, its trace when telemetry traced it,
 * and what to do with it: copy the JSON, copy it as a curl command, replay it (edited), compare it
 * with another exchange.
 */
import { AppRender } from './app-render.js';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Exchange, InspectorSession } from '../../../shared/api/inspector-contract.js';
import { ContentList, type ContentBlock } from '../../components/content-view.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatBytes, formatDateTime } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { JsonBlock, type JsonMode } from '../../components/json-view.js';
import { useAppState, useServices } from '../../app/services.js';
import type { TimelineRow } from '../../stores/timeline-model.js';
import { curlCommand } from './curl.js';
import { latencyText } from './latency-text.js';
import { EraBadge, InputRounds, ModernHeaders, ServerSide } from './era-detail.js';
import { ExchangeDevtools } from './exchange-devtools.js';
import { TraceFact } from './trace-fact.js';

// Replay's editor and diff load when a replay is opened.
const ReplayPanel = lazy(() => import('./replay-panel.js').then((m) => ({ default: m.ReplayPanel })));

type Loaded = { kind: 'exchange'; exchange: Exchange } | { kind: 'event'; message: unknown; text?: string | undefined } | { kind: 'error'; message: string };

export function ExchangeDetail(props: {
  sessionId: string;
  info: InspectorSession | undefined;
  row: TimelineRow | undefined;
  /** The selected row is hidden by the filters. */
  hiddenByFilters?: boolean;
  /** The exchange pinned for comparison, if any. */
  compareBase: Exchange | undefined;
  /** For a `tools/call`: the seq of the session's last `tools/list` before it (where its tool's UI is named). */
  toolsListSeq?: number | undefined;
  onCompareBase(exchange: Exchange | undefined): void;
  onCompare(a: Exchange, b: Exchange): void;
}) {
  const { sessionId, row } = props;
  const { bridge } = useServices();
  const [loaded, setLoaded] = useState<Loaded>();
  const [mode, setMode] = useState<JsonMode>('tree');
  const [expand, setExpand] = useState<'all' | 'top' | undefined>();
  const [replaying, setReplaying] = useState(false);
  const seq = row?.seq;
  const status = row?.status;

  useEffect(() => {
    setReplaying(false);
    setExpand(undefined);
  }, [seq]);
  useEffect(() => {
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
      <aside className="detail detail-empty" aria-label="Message details" data-testid="detail-empty">
        <Icon name="sessions" size={28} />
        <p>{props.hiddenByFilters ? 'The row you chose is hidden by the filters.' : 'Choose a row to see what was asked and answered.'}</p>
        <p className="muted small">
          <kbd>j</kbd> <kbd>k</kbd> or the arrow keys move through the timeline; <kbd>/</kbd> searches.
        </p>
      </aside>
    );
  }
  const exchange = loaded?.kind === 'exchange' ? loaded.exchange : undefined;
  return (
    <aside className="detail" aria-label="Message details" data-testid="detail">
      <header className="detail-head">
        <h2>
          {row.method ?? (row.kind === 'stderr' ? 'stderr' : 'Session event')}
          {row.target && <span className="detail-target"> {row.target}</span>}
        </h2>
        {exchange && (
          <span className={`badge badge-status-${exchange.status}`} data-testid="detail-status">
            <span className="dot" aria-hidden="true" />
            {exchange.isError ? 'error' : exchange.status}
          </span>
        )}
        {exchange && <EraBadge era={exchange.era} version={exchange.era === props.info?.era ? props.info?.protocolVersion : undefined} testId="detail-era" />}
      </header>
      {loaded?.kind === 'error' && <ErrorMessage>{loaded.message}</ErrorMessage>}
      {exchange && (
        <>
          <dl className="facts compact">
            <dt>Latency</dt>
            <dd data-testid="detail-latency">
              {latencyText(exchange)}
            </dd>
            <dt>Started</dt>
            <dd>{formatDateTime(exchange.startedAt)}</dd>
            <dt>Sizes</dt>
            <dd>{formatBytes(row.requestSize)} request{row.responseSize !== undefined ? `, ${formatBytes(row.responseSize)} response` : ''}</dd>
            {exchange.progressCount > 0 && (
              <>
                <dt>Progress</dt>
                <dd>
                  {exchange.progressCount} notification{exchange.progressCount === 1 ? '' : 's'}
                  {exchange.progress.length > 0 && `, last ${exchange.progress.at(-1)!.progress ?? ''}${exchange.progress.at(-1)!.total !== undefined ? ` / ${exchange.progress.at(-1)!.total}` : ''}`}
                </dd>
              </>
            )}
            {exchange.trace && <TraceFact trace={exchange.trace} />}
          </dl>
          <ExchangeDevtools exchange={exchange} />
          {exchange.isError && (
            <ErrorMessage testId="detail-tool-error">
              <strong>The tool failed</strong> (its result says <code>isError: true</code>){exchange.reason ? `: ${exchange.reason}` : '.'}
            </ErrorMessage>
          )}
          {exchange.error && <ErrorMessage>Error {exchange.error.code}: {exchange.error.message}</ErrorMessage>}
          {exchange.reason && !exchange.isError && <p className="muted">{exchange.reason}</p>}
          <Toolbar
            exchange={exchange}
            info={props.info}
            mode={mode}
            onMode={setMode}
            onExpand={setExpand}
            expand={expand}
            replaying={replaying}
            onReplay={() => setReplaying(!replaying)}
            compareBase={props.compareBase}
            onCompareBase={props.onCompareBase}
            onCompare={props.onCompare}
          />
          {replaying && exchange.requester === 'client' && (
            <Suspense fallback={<p className="muted small">Loading…</p>}>
              <ReplayPanel sessionId={sessionId} exchange={exchange} />
            </Suspense>
          )}
          <ResultPreview exchange={exchange} />
          <AppRender exchange={exchange} sessionId={sessionId} toolsListSeq={props.toolsListSeq} />
          <h3>Request{exchange.bridge ? ' (as the client sent it)' : ''}</h3>
          <JsonBlock value={exchange.request} testId="json-request" mode={mode} expand={expand} />
          <ModernHeaders headers={exchange.headers} />
          <InputRounds exchange={exchange} mode={mode} />
          <h3>Response{exchange.bridge ? ' (as the client got it)' : ''}</h3>
          {exchange.response === undefined ? <p className="muted">No response (yet).</p> : <JsonBlock value={exchange.response} testId="json-response" mode={mode} expand={expand} />}
          <ServerSide exchange={exchange} mode={mode} />
        </>
      )}
      {loaded?.kind === 'event' &&
        (loaded.message !== undefined ? (
          <>
            <div className="detail-toolbar">
              <CopyButton label="Copy JSON" text={() => JSON.stringify(loaded.message, null, 2)} />
            </div>
            <JsonBlock value={loaded.message} testId="json-message" mode={mode} />
          </>
        ) : (
          <pre className="stderr-pre">{loaded.text}</pre>
        ))}
    </aside>
  );
}

function Toolbar(props: {
  exchange: Exchange;
  info: InspectorSession | undefined;
  mode: JsonMode;
  onMode(mode: JsonMode): void;
  expand: 'all' | 'top' | undefined;
  onExpand(expand: 'all' | 'top'): void;
  replaying: boolean;
  onReplay(): void;
  compareBase: Exchange | undefined;
  onCompareBase(x: Exchange | undefined): void;
  onCompare(a: Exchange, b: Exchange): void;
}) {
  const { exchange, info } = props;
  const { bridge } = useServices();
  const hubUrl = useAppState((s) => s.hub?.url);
  const loadedSettings = useAppState((s) => s.settings);
  const base = props.compareBase;
  const curl = async (): Promise<string> => {
    // The token file's path (never the token): from the settings, asked for if not loaded yet.
    const settings = loadedSettings ?? (await bridge.call('settings.get', {}).then((r) => (r.ok ? r.value : undefined)));
    const era = exchange.era ?? info?.era;
    return curlCommand({
      hubUrl: hubUrl ?? window.location.origin,
      server: exchange.server,
      request: exchange.request,
      tokenFile: settings?.auth === false ? undefined : settings?.tokenFile,
      era,
      protocolVersion: era === 'modern' ? undefined : info?.protocolVersion,
      headers: exchange.headers,
    });
  };
  return (
    <div className="detail-toolbar" role="toolbar" aria-label="Exchange actions">
      <CopyButton label="Copy JSON" text={() => JSON.stringify({ request: exchange.request, response: exchange.response }, null, 2)} testId="copy-json" />
      {exchange.requester === 'client' && <CopyButton label="Copy as curl" text={curl} testId="copy-curl" />}
      <div className="segmented" role="group" aria-label="JSON view">
        <button type="button" aria-pressed={props.mode === 'tree'} onClick={() => props.onMode('tree')}>Tree</button>
        <button type="button" aria-pressed={props.mode === 'raw'} onClick={() => props.onMode('raw')} data-testid="raw-view">Raw</button>
      </div>
      {props.mode === 'tree' && (
        <button type="button" className="button button-small" onClick={() => props.onExpand(props.expand === 'all' ? 'top' : 'all')} data-testid="expand-all">
          {props.expand === 'all' ? 'Collapse' : 'Expand all'}
        </button>
      )}
      {exchange.requester === 'client' && exchange.method !== 'initialize' && (
        <button type="button" className="button button-small" aria-pressed={props.replaying} onClick={props.onReplay} data-testid="open-replay">
          <Icon name="replay" /> Replay…
        </button>
      )}
      {base && base.id !== exchange.id ? (
        <button type="button" className="button button-small" onClick={() => props.onCompare(base, exchange)} data-testid="compare-with">
          <Icon name="compare" /> Compare with pinned
        </button>
      ) : (
        <button type="button" className="button button-small" aria-pressed={base?.id === exchange.id} onClick={() => props.onCompareBase(base?.id === exchange.id ? undefined : exchange)} data-testid="pin-compare">
          <Icon name="compare" /> {base?.id === exchange.id ? 'Pinned: pick another' : 'Pin to compare'}
        </button>
      )}
    </div>
  );
}

/** A tool result's content as a person reads it (text, images, resources), above the JSON. */
function ResultPreview({ exchange }: { exchange: Exchange }) {
  const result = (exchange.response as { result?: { content?: unknown } } | undefined)?.result;
  const messages = (exchange.response as { result?: { messages?: Array<{ content?: ContentBlock }> } } | undefined)?.result?.messages;
  const contents = (exchange.response as { result?: { contents?: Array<Record<string, unknown>> } } | undefined)?.result?.contents;
  let blocks: ContentBlock[] | undefined;
  if (Array.isArray(result?.content)) blocks = result.content as ContentBlock[];
  else if (Array.isArray(messages)) blocks = messages.map((m) => m.content).filter((c): c is ContentBlock => c !== undefined);
  else if (Array.isArray(contents)) blocks = contents.map((c) => ({ type: 'resource', resource: c }));
  if (!blocks || blocks.length === 0) return null;
  return (
    <section className="result-preview" aria-label="Result, rendered" data-testid="result-preview">
      <h3>Result</h3>
      <ContentList content={blocks} />
    </section>
  );
}
