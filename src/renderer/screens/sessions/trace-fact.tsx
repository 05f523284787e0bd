/**
 * An exchange's trace (telemetry on: the hub traced the request), as one fact of the detail pane:
 * the trace id (copyable), the hub's span, and — when Settings → Telemetry names a trace viewer —
 * a link to the trace there. In a browser tab the link opens itself; the desktop window lets out
 * no link the app did not make, so there the engine opens it (telemetry.openTrace).
 */
import { useState, type MouseEvent } from 'react';
import type { ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import { href } from '../../app/router.js';
import { useAppState, useServices } from '../../app/services.js';
import { openTrace } from '../../app/telemetry-commands.js';
import { CopyButton } from '../../components/copy-button.js';
import { traceViewerLink } from '../../../shared/trace-viewer.js';

export function TraceFact({ trace }: { trace: NonNullable<ExchangeSummary['trace']> }) {
  const services = useServices();
  const template = useAppState((s) => s.telemetry?.config.traceViewerUrl);
  const [error, setError] = useState<string>();
  const link = traceViewerLink(template, trace.traceId);
  const open = (e: MouseEvent<HTMLAnchorElement>): void => {
    if (services.bridge.kind !== 'ipc') return;
    e.preventDefault();
    setError(undefined);
    openTrace(services, trace.traceId).catch((err: Error) => setError(err.message));
  };
  return (
    <>
      <dt>Trace</dt>
      <dd className="trace-fact">
        <code data-testid="detail-trace-id">{trace.traceId}</code>
        <CopyButton label="Copy trace id" text={() => trace.traceId} testId="copy-trace-id" />
        {link ? (
          <a className="button button-small" href={link} target="_blank" rel="noopener noreferrer" onClick={open} data-testid="detail-trace-link">
            Open in trace viewer
          </a>
        ) : (
          <a className="muted small" href={href('settings')}>Link a trace viewer</a>
        )}
        <span className="muted small" data-testid="detail-span-id">span {trace.spanId}</span>
        {error && <span className="field-error" role="alert">{error}</span>}
      </dd>
    </>
  );
}
