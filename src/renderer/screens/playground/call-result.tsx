/**
 * One playground call as it stands: running (elapsed time, progress x / total, Cancel), or done
 * (status, latency, the result rendered by content type, structured content checked against the
 * tool's output schema, the raw JSON on request, a link to the call in the inspector).
 */
import { useEffect, useRef, useState } from 'react';
import { ContentList, type ContentBlock } from '../../components/content-view.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatMs } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { JsonBlock } from '../../components/json-view.js';
import { schemaErrors } from '../../components/schema-validator.js';
import { useNow } from '../../components/use-now.js';
import { cancelCall } from '../../app/playground-commands.js';
import { href } from '../../app/router.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { CallState } from '../../stores/playground-store.js';

export function ProgressBar({ progress, total }: { progress: number; total?: number | undefined }) {
  const pct = total ? Math.max(0, Math.min(100, (progress / total) * 100)) : undefined;
  return (
    <span className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={progress} aria-label="Progress">
      <span className={`progress-fill${pct === undefined ? ' indeterminate' : ''}`} style={pct === undefined ? undefined : { width: `${pct}%` }} />
    </span>
  );
}

function Running({ server, call }: { server: string; call: CallState }) {
  const services = useServices();
  const now = useNow(true);
  return (
    <div className="call-running" data-testid="call-running">
      <span className="spinner" aria-hidden="true" />
      <span>
        Running <strong className="mono">{formatMs(Math.max(0, now - call.startedAt))}</strong>
      </span>
      {call.progress && (
        <span className="call-progress" data-testid="call-progress">
          <ProgressBar progress={call.progress.progress} total={call.progress.total} />
          <span className="mono">{call.progress.total !== undefined ? `${call.progress.progress} / ${call.progress.total}` : call.progress.progress}</span>
          {call.progress.message && <span className="muted">{call.progress.message}</span>}
        </span>
      )}
      <button type="button" className="button button-small" onClick={() => void cancelCall(services, server, call.id)}>
        <Icon name="stop" /> Cancel
      </button>
    </div>
  );
}

export function CallResult({ server, callId, outputSchema, onOpenResource, children }: { server: string; callId: string | undefined; outputSchema?: object | undefined; onOpenResource?: (uri: string) => void; children?: (result: Record<string, unknown>) => React.ReactNode }) {
  const call = usePlayground((s) => (callId ? s.byServer[server]?.calls[callId] : undefined));
  const inspector = usePlayground((s) => s.byServer[server]?.opened?.inspectorSession);
  const [raw, setRaw] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const done = call !== undefined && call.status !== 'running';
  // A result arrives below the form: bring it into view (without jumping past the form).
  useEffect(() => {
    if (done) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [done, callId]);
  if (!call) return null;
  if (call.status === 'running') return <Running server={server} call={call} />;
  const outcome = call.outcome!;
  const result = (outcome.result ?? {}) as Record<string, unknown>;
  const toolFailed = call.method === 'tools/call' && result.isError === true;
  const failed = outcome.status !== 'ok' || toolFailed;
  const structured = result.structuredContent;
  const problems = structured !== undefined && outputSchema ? schemaErrors(outputSchema, structured) : [];
  return (
    <section ref={ref} className={`call-result${failed ? ' failed' : ''}`} aria-label="Result" data-testid="call-result">
      <header className="call-result-head">
        <span className={`badge ${failed ? 'badge-error' : 'badge-running'}`} data-testid="call-status">
          <span className="dot" aria-hidden="true" />
          {toolFailed ? 'tool error' : outcome.status === 'ok' ? 'ok' : outcome.status}
        </span>
        <span className="muted">{formatMs(outcome.latencyMs)}</span>
        {call.progress && <span className="muted small">{call.progress.total !== undefined ? `progress ${call.progress.progress} / ${call.progress.total}` : ''}</span>}
        <span className="spacer" />
        {inspector && (
          <a className="button button-small" href={href('sessions', inspector)} data-testid="open-in-inspector">
            <Icon name="sessions" /> In the inspector
          </a>
        )}
        <button type="button" className="button button-small" aria-pressed={raw} onClick={() => setRaw(!raw)}>
          {raw ? 'Rendered' : 'Raw JSON'}
        </button>
      </header>
      {toolFailed && <p className="error-text small">The tool reported a failure (<code>isError: true</code>): the call was answered, the tool did not succeed.</p>}
      {outcome.error && <ErrorMessage>Error {outcome.error.code}: {outcome.error.message}</ErrorMessage>}
      {raw ? (
        <JsonBlock value={outcome.error ? { error: outcome.error } : outcome.result} mode="raw" testId="call-raw" />
      ) : (
        <>
          {Array.isArray(result.content) && <ContentList content={result.content as ContentBlock[]} onOpenResource={onOpenResource} />}
          {children?.(result)}
          {structured !== undefined && (
            <div className="structured" data-testid="structured-content">
              <h4>
                Structured content{' '}
                {outputSchema ? (
                  problems.length === 0 ? (
                    <span className="success-text small" data-testid="schema-check"><Icon name="check" /> matches the output schema</span>
                  ) : (
                    <span className="error-text small" data-testid="schema-check">does not match the output schema</span>
                  )
                ) : (
                  <span className="muted small">(the tool declares no output schema)</span>
                )}
              </h4>
              {problems.length > 0 && (
                <ul className="error-text small">
                  {problems.map((p) => (
                    <li key={p.stack}>{p.stack}</li>
                  ))}
                </ul>
              )}
              <JsonBlock value={structured} />
            </div>
          )}
        </>
      )}
    </section>
  );
}
