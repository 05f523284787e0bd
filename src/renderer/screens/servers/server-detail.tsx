/** One server: where clients reach it, its entry, its status and a connection test with what it offers. */
import { useEffect, useRef } from 'react';
import { isStdioServer } from './server-id.js';
import type { ServerTestResult } from '../../../shared/api/servers-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatMs, relativeTime } from '../../components/format.js';
import { StatusBadge } from '../../components/status-badge.js';
import { testServer } from '../../app/commands.js';
import { href } from '../../app/router.js';
import { useServers, useServices } from '../../app/services.js';

const STAGE_TEXT: Record<string, string> = {
  hub: 'The hub refused the test',
  initialize: 'The server did not start or failed the MCP handshake',
  list: 'The server started but a listing failed',
  start: 'The server could not be started',
  exit: 'The server process ended unexpectedly',
  config: 'The config entry is wrong',
};

export function ServerDetailView({ id }: { id: string }) {
  const services = useServices();
  const server = useServers((s) => s.byId[id]);
  const loaded = useServers((s) => s.loaded);
  const test = useServers((s) => s.tests[id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);

  if (!server) {
    return (
      <section className="screen">
        <h1 ref={heading} tabIndex={-1}>{loaded ? `No server named ${id}` : 'Loading…'}</h1>
        {loaded && <p>It may have been removed or renamed. <a href={href('servers')}>Back to servers</a></p>}
      </section>
    );
  }
  const { config, status } = server;
  const disabled = status.state === 'disabled';
  return (
    <section className="screen" aria-labelledby="server-title">
      <p className="breadcrumb"><a href={href('servers')}>Servers</a> / {id}</p>
      <header className="screen-header">
        <h1 id="server-title" ref={heading} tabIndex={-1}>{id}</h1>
        <StatusBadge state={status.state} />
        <div className="actions">
          <a className="button" href={href('servers', id, 'edit')}>Edit</a>
          <button type="button" className="button button-primary" disabled={disabled || test?.state === 'running'} onClick={() => void testServer(services, id)} data-testid="test-connection">
            {test?.state === 'running' ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </header>
      {disabled && <p className="muted">This server is disabled: clients get 404 and it cannot be tested. Enable it on the Servers list.</p>}
      <dl className="facts">
        <dt>Clients connect to</dt>
        <dd><code data-testid="server-url">{server.url}</code></dd>
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
        <dt>Sessions</dt>
        <dd>{status.sessions} live{status.children > 0 ? `, ${status.children} process${status.children === 1 ? '' : 'es'}` : ''}</dd>
      </dl>
      {status.lastError && status.state === 'error' && !(test?.state === 'done' && !test.result.ok) && (
        <ErrorMessage testId="server-error">
          <strong>{STAGE_TEXT[status.lastError.stage] ?? 'Error'}</strong> ({relativeTime(status.lastError.at)}):
          <pre className="error-pre">{status.lastError.message}</pre>
          <p>Check the command and its arguments under <a href={href('servers', id, 'edit')}>Edit</a>, then test again.</p>
        </ErrorMessage>
      )}
      <div aria-live="polite">
        {test?.state === 'running' && <p className="muted" data-testid="test-running">Opening a session through the hub…</p>}
        {test?.state === 'done' && <TestResult id={id} result={test.result} />}
      </div>
    </section>
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
    <div className="test-result" data-testid="test-result">
      <p className="success-text">
        Connected to <strong>{result.serverInfo?.name ?? id}</strong>
        {result.serverInfo?.version ? ` ${result.serverInfo.version}` : ''} in {formatMs(result.durationMs)}
        {result.protocolVersion ? ` · protocol ${result.protocolVersion}` : ''}.
      </p>
      <div className="capabilities">
        <Capability title="Tools" testId="test-tools" items={result.tools.map((t) => ({ key: t.name, name: t.name, description: t.description }))} empty="This server offers no tools." />
        <Capability title="Resources" testId="test-resources" items={result.resources.map((r) => ({ key: r.uri, name: r.name, description: r.uri }))} empty="This server offers no resources." />
        <Capability title="Prompts" testId="test-prompts" items={result.prompts.map((p) => ({ key: p.name, name: p.name, description: p.description }))} empty="This server offers no prompts." />
      </div>
    </div>
  );
}

function Capability({ title, items, empty, testId }: { title: string; items: Array<{ key: string; name: string; description?: string | undefined }>; empty: string; testId: string }) {
  return (
    <section className="capability" data-testid={testId}>
      <h2>
        {title} <span className="count">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item.key}>
              <code>{item.name}</code>
              {item.description && <span className="muted"> — {item.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
