/** A server's details: its entry, its last error, a connection test with what it offers, and its calls and latency over time. */
import { lazy, Suspense, useEffect } from 'react';
import { isStdioServer } from './server-id.js';
import type { ServerStats } from '../../../shared/api/inspector-contract.js';
import type { ServerTestResult } from '../../../shared/api/servers-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatMs, relativeTime } from '../../components/format.js';
import { href } from '../../app/router.js';
import { loadStats } from '../../app/commands.js';
import { usePlayground, useServers, useServices } from '../../app/services.js';
import type { Catalog } from '../../stores/playground-store.js';
import { ServerEraFacts } from './server-era.js';
import { PendingTools } from '../catalog/pending-tools.js';

// uPlot is loaded with the first chart, not with the app.
const TimeChart = lazy(() => import('../../components/chart.js').then((m) => ({ default: m.TimeChart })));

const STAGE_TEXT: Record<string, string> = {
  hub: 'The hub refused the test',
  initialize: 'The server did not start or failed the MCP handshake',
  list: 'The server started but a listing failed',
  start: 'The server could not be started',
  exit: 'The server process ended unexpectedly',
  config: 'The config entry is wrong',
};

export function ServerDetails({ id }: { id: string }) {
  const services = useServices();
  const server = useServers((s) => s.byId[id]);
  const test = useServers((s) => s.tests[id]);
  const stats = useServers((s) => s.stats[id]);
  // What its playground listed, when it was opened: the tools are known without a test.
  const catalog = usePlayground((s) => s.byServer[id]?.catalog);
  // The numbers as they are now, not as the Servers list last fetched them.
  useEffect(() => void loadStats(services), [services, id]);
  if (!server) return null;
  const { config, status } = server;
  return (
    <div className="server-details">
      {status.state === 'disabled' && <p className="muted">This server is disabled: clients get 404 and it cannot be tested. Enable it on the Servers list.</p>}
      {status.lastError && status.state === 'error' && !(test?.state === 'done' && !test.result.ok) && (
        <ErrorMessage testId="server-error">
          <strong>{STAGE_TEXT[status.lastError.stage] ?? 'Error'}</strong> ({relativeTime(status.lastError.at)}):
          <pre className="error-pre">{status.lastError.message}</pre>
          <p>Check the command and its arguments under <a href={href('servers', id, 'edit')}>Edit</a>, then test again.</p>
        </ErrorMessage>
      )}
      {/* Installed from a registry: its tools wait for approval (shown once the profiles have listed them). */}
      {config.catalog && status.state !== 'disabled' && <PendingTools server={id} />}
      <div aria-live="polite">
        {test?.state === 'running' && <p className="muted" data-testid="test-running"><span className="spinner" aria-hidden="true" /> Opening a session through the hub…</p>}
        {test?.state === 'done' && <TestResult id={id} result={test.result} />}
        {test === undefined && status.state !== 'disabled' && <KnownOffers id={id} catalog={catalog} />}
      </div>
      <div className="details-grid">
        <section className="panel" aria-labelledby="entry-title">
          <h2 id="entry-title">Entry</h2>
          <dl className="facts">
            {isStdioServer(config) ? (
              <>
                <dt>Command</dt>
                <dd><code>{[config.command, ...(config.args ?? [])].join(' ')}</code></dd>
                {config.cwd && (<><dt>Working directory</dt><dd><code>{config.cwd}</code></dd></>)}
                {config.env && Object.keys(config.env).length > 0 && (<><dt>Environment</dt><dd>{Object.keys(config.env).join(', ')}</dd></>)}
              </>
            ) : (
              <>
                <dt>Remote URL</dt>
                <dd><code>{'url' in config ? String(config.url) : ''}</code></dd>
              </>
            )}
            {config.catalog && (
              <>
                <dt>From the catalog</dt>
                <dd data-testid="server-provenance"><code>{config.catalog.name}</code> {config.catalog.version} <span className="muted">(pinned)</span></dd>
              </>
            )}
            <dt>Sessions</dt>
            <dd>{status.sessions} live{status.children > 0 ? `, ${status.children} process${status.children === 1 ? '' : 'es'}` : ''}</dd>
            {status.lastOkAt && (<><dt>Last answered</dt><dd>{relativeTime(status.lastOkAt)}</dd></>)}
            {status.era && (
              <>
                <dt>Protocol eras</dt>
                <dd>
                  <ServerEraFacts era={status.era} />
                </dd>
              </>
            )}
          </dl>
        </section>
        <StatsPanel stats={stats} />
      </div>
    </div>
  );
}

function StatsPanel({ stats }: { stats: ServerStats | undefined }) {
  const series = stats?.series ?? [];
  return (
    <section className="panel" aria-labelledby="stats-title" data-testid="server-stats">
      <h2 id="stats-title">Calls since the hub started</h2>
      <div className="stat-strip">
        <Stat label="Calls" value={String(stats?.calls ?? 0)} testId="stat-calls" />
        <Stat label="Errors" value={String(stats?.errors ?? 0)} tone={stats && stats.errors > 0 ? 'error' : undefined} testId="stat-errors" />
        <Stat label="p50" value={formatMs(stats?.p50Ms)} />
        <Stat label="p95" value={formatMs(stats?.p95Ms)} />
      </div>
      {series.length > 0 ? (
        <Suspense fallback={<p className="muted small">Loading the chart…</p>}>
          <TimeChart
            x={series.map((p) => p.t)}
            series={[
              { label: 'p50', values: series.map((p) => p.p50Ms), color: '--accent' },
              { label: 'p95', values: series.map((p) => p.p95Ms), color: '--warn' },
            ]}
            summary={`Latency over the last ${series.length} ten-second intervals with calls: p50 from ${formatMs(Math.min(...series.map((p) => p.p50Ms)))} to ${formatMs(Math.max(...series.map((p) => p.p50Ms)))}, p95 up to ${formatMs(Math.max(...series.map((p) => p.p95Ms)))}.`}
            testId="latency-over-time"
          />
        </Suspense>
      ) : (
        <p className="muted small">No calls yet. Latency over time (p50 and p95 per 10 seconds) shows here once clients or the playground call this server.</p>
      )}
    </section>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: string; tone?: 'error' | undefined; testId?: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{label}</span>
      <span className={`stat-value${tone === 'error' ? ' error-text' : ''}`} data-testid={testId}>{value}</span>
    </div>
  );
}

function TestResult({ id, result }: { id: string; result: ServerTestResult }) {
  if (!result.ok) {
    return (
      <ErrorMessage testId="test-error">
        <strong>{STAGE_TEXT[result.stage]}</strong> (after {formatMs(result.durationMs)}):
        <pre className="error-pre">{result.message}</pre>
        <p>Fix the entry under <a href={href('servers', id, 'edit')}>Edit</a> and test again.</p>
      </ErrorMessage>
    );
  }
  return (
    <div className="test-result panel" data-testid="test-result">
      <p className="success-text">
        Connected to <strong>{result.serverInfo?.name ?? id}</strong>
        {result.serverInfo?.version ? ` ${result.serverInfo.version}` : ''} in {formatMs(result.durationMs)}
        {result.protocolVersion ? ` · protocol ${result.protocolVersion}` : ''}. <a href={href('servers', id, 'playground')}>Try it in the playground</a>
      </p>
      <div className="capabilities">
        <Capability title="Tools" testId="test-tools" items={result.tools.map((t) => ({ key: t.name, name: t.name, description: t.description, link: href('servers', id, 'playground', `tool:${t.name}`) }))} empty="This server offers no tools." />
        <Capability title="Resources" testId="test-resources" items={result.resources.map((r) => ({ key: r.uri, name: r.name, description: r.uri, link: href('servers', id, 'playground', `resource:${r.uri}`) }))} empty="This server offers no resources." />
        <Capability title="Prompts" testId="test-prompts" items={result.prompts.map((p) => ({ key: p.name, name: p.name, description: p.description, link: href('servers', id, 'playground', `prompt:${p.name}`) }))} empty="This server offers no prompts." />
      </div>
    </div>
  );
}

/** Before any test: what the playground listed, or how to find out. */
function KnownOffers({ id, catalog }: { id: string; catalog: Catalog | undefined }) {
  if (!catalog?.tools && !catalog?.resources && !catalog?.prompts) {
    return <p className="muted" data-testid="offers-unknown">Test the connection (or open the playground) to list its tools, resources and prompts.</p>;
  }
  const tools = catalog.tools ?? [];
  const resources = catalog.resources ?? [];
  const prompts = catalog.prompts ?? [];
  return (
    <div className="test-result panel" data-testid="known-offers">
      <p className="muted">As its playground listed them. <a href={href('servers', id, 'playground')}>Open the playground</a></p>
      <div className="capabilities">
        <Capability title="Tools" testId="test-tools" items={tools.map((t) => ({ key: t.name, name: t.name, description: t.description, link: href('servers', id, 'playground', `tool:${t.name}`) }))} empty="This server offers no tools." />
        <Capability title="Resources" testId="test-resources" items={resources.map((r) => ({ key: r.uri, name: r.name ?? r.uri, description: r.uri, link: href('servers', id, 'playground', `resource:${r.uri}`) }))} empty="This server offers no resources." />
        <Capability title="Prompts" testId="test-prompts" items={prompts.map((p) => ({ key: p.name, name: p.name, description: p.description, link: href('servers', id, 'playground', `prompt:${p.name}`) }))} empty="This server offers no prompts." />
      </div>
    </div>
  );
}

function Capability({ title, items, empty, testId }: { title: string; items: Array<{ key: string; name: string; description?: string | undefined; link: string }>; empty: string; testId: string }) {
  return (
    <section className="capability" data-testid={testId}>
      <h3>
        {title} <span className="count">{items.length}</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item.key}>
              <a href={item.link}><code>{item.name}</code></a>
              {item.description && <span className="muted"> — {item.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
