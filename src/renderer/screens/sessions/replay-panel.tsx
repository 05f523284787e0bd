/**
 * Replay a captured request, its arguments edited first if wanted, through a fresh session the hub
 * opens; the new answer is shown against the original as a diff.
 */
import { useEffect, useRef, useState } from 'react';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { DiffView, stableJson, unifiedDiff } from '../../components/diff-view.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatMs } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { JsonBlock } from '../../components/json-view.js';
import { useServices } from '../../app/services.js';

type Result = { status: string; latencyMs: number; response?: unknown; error?: string | undefined };

function paramsOf(request: unknown): Record<string, unknown> {
  const p = (request as { params?: unknown } | undefined)?.params;
  return p !== null && typeof p === 'object' ? (p as Record<string, unknown>) : {};
}

export function ReplayPanel({ sessionId, exchange }: { sessionId: string; exchange: Exchange }) {
  const { bridge } = useServices();
  const original = paramsOf(exchange.request);
  const [text, setText] = useState(() => JSON.stringify(original, null, 2));
  const [parseError, setParseError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | { failed: string }>();
  const [view, setView] = useState<'diff' | 'answer'>('diff');
  const resultRef = useRef<HTMLDivElement>(null);
  // The answer arrives below the editor, often below the pane's fold: bring it into view.
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);

  const replay = async (): Promise<void> => {
    let params: Record<string, unknown>;
    try {
      const value = JSON.parse(text) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error('params must be a JSON object');
      params = value as Record<string, unknown>;
      setParseError(undefined);
    } catch (err) {
      setParseError((err as Error).message);
      return;
    }
    setBusy(true);
    const edited = stableJson(params) !== stableJson(original);
    const r = await bridge.call('inspector.replay', {
      session: sessionId,
      exchange: exchange.id,
      ...(edited ? { params } : {}),
    });
    setBusy(false);
    setResult(
      r.ok
        ? {
            status: r.value.replay.status,
            latencyMs: r.value.replay.latencyMs,
            response: r.value.replay.response,
            error: r.value.replay.error,
          }
        : { failed: r.message },
    );
  };

  return (
    <section className="replay" aria-labelledby="replay-title" data-testid="replay-panel">
      <h3 id="replay-title">Replay</h3>
      <p className="muted small">
        Sends <code>{exchange.method}</code> again to {exchange.server} through a fresh session.
        Edit its params first if you like.
      </p>
      <div className="field">
        <label htmlFor="replay-params">Params (JSON)</label>
        <textarea
          id="replay-params"
          className="input code-input"
          rows={Math.min(14, Math.max(4, text.split('\n').length + 1))}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={parseError !== undefined}
          data-testid="replay-params"
        />
        {parseError && <p className="field-error">{parseError}</p>}
      </div>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void replay()}
          data-testid="replay"
        >
          <Icon name="replay" /> {busy ? 'Replaying…' : 'Replay'}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => setText(JSON.stringify(original, null, 2))}
        >
          Reset params
        </button>
      </div>
      <div ref={resultRef}>
        {result && 'failed' in result && <ErrorMessage>{result.failed}</ErrorMessage>}
        {result && 'status' in result && (
          <div data-testid="replay-result" className="replay-result">
            <p>
              Replay: <strong className={`status-text-${result.status}`}>{result.status}</strong> in{' '}
              {formatMs(result.latencyMs)} (the original took {formatMs(exchange.latencyMs)})
              {result.error ? ` — ${result.error}` : ''}
            </p>
            <div className="segmented" role="group" aria-label="Show">
              <button type="button" aria-pressed={view === 'diff'} onClick={() => setView('diff')}>
                Against the original
              </button>
              <button
                type="button"
                aria-pressed={view === 'answer'}
                onClick={() => setView('answer')}
              >
                New answer
              </button>
            </div>
            {view === 'diff' ? (
              <DiffView
                diff={unifiedDiff(
                  stableJson(exchange.response ?? null),
                  stableJson(result.response ?? null),
                  'response.json',
                )}
                name="response.json"
                labels={['original answer', 'replayed answer']}
                testId="replay-diff"
              />
            ) : (
              <JsonBlock value={result.response} testId="json-replay" />
            )}
          </div>
        )}
      </div>
    </section>
  );
}
