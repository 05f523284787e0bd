/**
 * Settings → Telemetry (OpenTelemetry), issue 23: whether telemetry is on and why, every setting
 * in effect with where it comes from (the hub's environment, config.json, or the default), what
 * the exporter reports when it runs, and the form that edits the `telemetry` block of config.json.
 * Header values are never shown here: the effective view lists header names only.
 */
import type { ReactNode } from 'react';
import type { EffectiveTelemetry, EffectiveValue, TelemetryView } from '../../../shared/api/telemetry-contract.js';
import { href } from '../../app/router.js';
import { useAppState } from '../../app/services.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { TelemetryForm } from './telemetry-form.js';

export function TelemetryPanel() {
  const view = useAppState((s) => s.telemetry);
  const error = useAppState((s) => s.telemetryError);
  return (
    <section className="panel" aria-labelledby="telemetry-title" data-testid="telemetry-panel">
      <h2 id="telemetry-title">Telemetry (OpenTelemetry)</h2>
      <p className="muted">
        The hub can send a trace span for every request it forwards, and metrics, to an OpenTelemetry collector over OTLP. The standard <code>OTEL_*</code> variables in the hub's environment configure it too; the table says where each value in effect comes from.
      </p>
      {error && <ErrorMessage>Could not load the telemetry settings: {error}</ErrorMessage>}
      {view && (
        <>
          <Status view={view} />
          <Effective effective={view.effective} />
          <p className="hint" data-testid="telemetry-applies">
            {view.appliesLive ? 'Changes apply at once.' : 'Changes to the exporter take effect after a restart of the hub; the trace viewer URL applies at once.'}
          </p>
          <TelemetryForm view={view} />
        </>
      )}
    </section>
  );
}

const STATUS: Record<TelemetryView['status'], { label: string; badge: string }> = {
  running: { label: 'Running', badge: 'badge-running' },
  stopped: { label: 'Not running', badge: 'badge-error' },
  configured: { label: 'Configured', badge: 'badge-status-pending' },
  off: { label: 'Off', badge: 'badge-disabled' },
};

function Status({ view }: { view: TelemetryView }) {
  const { exporter } = view;
  const status = STATUS[view.status];
  return (
    <div className="telemetry-status" role="status" data-testid="telemetry-status" data-status={view.status}>
      <p>
        <span className={`badge ${status.badge}`}>
          <span className="dot" aria-hidden="true" />
          {status.label}
        </span>{' '}
        <span data-testid="telemetry-reason">{view.effective.reason}</span>
      </p>
      {view.status === 'configured' && <p className="hint">These settings turn telemetry on; this hub does not report whether its exporter runs now.</p>}
      {view.status === 'stopped' && <p className="hint">{exporter?.reason ?? "The exporter does not run: the settings changed since the hub started (restart it), or it could not start (the hub's log says why)."}</p>}
      {view.status !== 'stopped' && exporter?.reason && <p className="hint">{exporter.reason}</p>}
      {exporter && (exporter.exported || exporter.dropped || exporter.lastError) && (
        <dl className="facts compact" data-testid="telemetry-exporter">
          {exporter.exported && (
            <>
              <dt>Exported</dt>
              <dd>{counts(exporter.exported)}</dd>
            </>
          )}
          {exporter.dropped && (
            <>
              <dt>Dropped</dt>
              <dd>{counts(exporter.dropped)}</dd>
            </>
          )}
          {exporter.lastError && (
            <>
              <dt>Last error</dt>
              <dd>
                {exporter.lastError.message} <span className="muted small">({formatDateTime(exporter.lastError.at)})</span>
              </dd>
            </>
          )}
        </dl>
      )}
      {view.effective.problems.length > 0 && (
        <div className="banner banner-warn" data-testid="telemetry-problems">
          Ignored from the hub's environment:
          <ul>
            {view.effective.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {view.missingSecrets.length > 0 && (
        <p className="banner banner-warn" data-testid="telemetry-missing-secrets">
          Headers use stored keys that do not exist: {view.missingSecrets.join(', ')}. Telemetry does not start without them: <a href={href('keys')}>add them</a>, then restart the hub.
        </p>
      )}
    </div>
  );
}

function counts(c: { spans?: number | undefined; metricExports?: number | undefined }): string {
  return [c.spans !== undefined ? `${c.spans} spans` : undefined, c.metricExports !== undefined ? `${c.metricExports} metric exports` : undefined].filter(Boolean).join(', ') || '—';
}

const ROWS: Array<{ key: Exclude<keyof EffectiveTelemetry, 'on' | 'reason' | 'headers' | 'problems'>; label: string; optional?: boolean }> = [
  { key: 'enabled', label: 'Enabled' },
  { key: 'endpoint', label: 'Endpoint' },
  { key: 'tracesEndpoint', label: 'Traces endpoint', optional: true },
  { key: 'metricsEndpoint', label: 'Metrics endpoint', optional: true },
  { key: 'protocol', label: 'Protocol' },
  { key: 'serviceName', label: 'Service name' },
  { key: 'resourceAttributes', label: 'Resource attributes', optional: true },
  { key: 'sampler', label: 'Sampler' },
  { key: 'samplerArg', label: 'Sampler ratio', optional: true },
  { key: 'captureContent', label: 'Capture content' },
  { key: 'traceViewerUrl', label: 'Trace viewer' },
];

function Effective({ effective }: { effective: EffectiveTelemetry }) {
  return (
    <>
      <div className="table-wrap">
        <table className="table" data-testid="telemetry-effective">
          <caption className="visually-hidden">Telemetry settings in effect, and where each comes from</caption>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">In effect</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.filter((r) => !r.optional || effective[r.key].source !== 'unset').map((r) => (
              <tr key={r.key} data-testid={`effective-${r.key}`} data-source={effective[r.key].source}>
                <th scope="row">{r.label}</th>
                <td>{shown(effective[r.key])}</td>
                <td>{source(effective[r.key])}</td>
              </tr>
            ))}
            <tr data-testid="effective-headers">
              <th scope="row">Headers</th>
              <td>{effective.headers.length === 0 ? <span className="muted">none</span> : effective.headers.map((h) => <code key={h.name} className="telemetry-header">{h.name}{h.secret ? ` ← stored key ${h.secret}` : ''}</code>)}</td>
              <td>{[...new Set(effective.headers.map((h) => (h.source === 'environment' ? 'OTEL_EXPORTER_OTLP_HEADERS' : 'config.json')))].join(', ') || '—'}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="hint telemetry-table-hint">Header values are never shown: they are usually credentials.</p>
    </>
  );
}

function shown(v: EffectiveValue): ReactNode {
  if (v.value === undefined) return <span className="muted">not set</span>;
  if (typeof v.value === 'boolean') return v.value ? 'yes' : 'no';
  return <code>{String(v.value)}</code>;
}

function source(v: EffectiveValue): string {
  const from = v.source === 'environment' ? `${v.variable ?? 'environment'} (environment)` : v.source === 'config' ? 'config.json' : v.source === 'default' ? 'default' : '—';
  if (v.overrides === 'config') return `${from}, over config.json`;
  if (v.overrides === 'environment') return `${from}, over ${v.variable ?? 'the environment'}`;
  return from;
}
