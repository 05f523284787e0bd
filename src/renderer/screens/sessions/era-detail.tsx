/**
 * The protocol eras in the exchange detail: the era badge, a modern request's Mcp-* headers, the
 * input rounds of a multi-round-trip call (what the server asked, what the client retried with),
 * and both sides of a call the hub bridged between eras (what the server was sent and answered).
 */
import type { CaptureEra, Exchange } from '../../../shared/api/inspector-contract.js';
import { JsonBlock, type JsonMode } from '../../components/json-view.js';

const ERA_TITLE: Record<CaptureEra, string> = {
  modern: 'MCP 2026-07-28: sessionless requests, each with its own _meta envelope',
  legacy: 'MCP up to 2025-11-25: initialize and a session',
};

/**
 * The protocol revision as a badge: the one the session negotiated when known (`2025-11-25`,
 * `2026-07-28`), else the era's year. Never "legacy": a 2025-11-25 session is current MCP, and
 * "bridged" is said only of what the hub translated.
 */
export function EraBadge({ era, version, testId, prefix = '' }: { era: CaptureEra | undefined; version?: string | undefined; testId?: string; prefix?: string }) {
  if (era === undefined) return null;
  const shown = version ?? (era === 'modern' ? '2026-07-28' : '2025');
  return (
    <span className={`chip${era === 'modern' ? ' chip-accent' : ''}`} title={ERA_TITLE[era]} data-testid={testId} data-era={era}>
      {prefix}
      {shown}
    </span>
  );
}

/** The client's Mcp-* headers (already redacted by the engine). */
export function ModernHeaders({ headers }: { headers: Record<string, string> | undefined }) {
  if (headers === undefined || Object.keys(headers).length === 0) return null;
  return (
    <>
      <h3>Headers</h3>
      <dl className="facts compact" data-testid="detail-mcp-headers">
        {Object.entries(headers).map(([name, value]) => (
          <div key={name} style={{ display: 'contents' }}>
            <dt className="mono">{name}</dt>
            <dd className="mono">{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** The rounds of a multi-round-trip call, each with the input_required answer and the retry. */
export function InputRounds({ exchange, mode }: { exchange: Exchange; mode: JsonMode }) {
  const rounds = exchange.rounds;
  if (!rounds || rounds.length === 0) return null;
  return (
    <section aria-label="Input rounds" data-testid="detail-rounds">
      <h3>
        Input rounds <span className="muted small">the server asked for input; the client retried the same request with it</span>
      </h3>
      <ol className="input-rounds">
        {rounds.map((round, i) => {
          const messages = exchange.roundMessages?.[i];
          return (
            <li key={round.seq} data-testid="detail-round">
              <p>
                <strong>Round {i + 1}</strong>: {round.requests.map((r) => r.method).join(', ') || 'input'}
                {round.retrySeq !== undefined ? (
                  <span className="muted"> · retried{round.retryId !== undefined ? ` as request ${String(round.retryId)}` : ''}{round.answered ? ` with ${round.answered.length} answer${round.answered.length === 1 ? '' : 's'}` : ''}</span>
                ) : (
                  <span className="muted"> · not retried (yet)</span>
                )}
              </p>
              {messages?.inputRequired !== undefined && (
                <details>
                  <summary>What the server asked (input_required)</summary>
                  <JsonBlock value={messages.inputRequired} mode={mode} />
                </details>
              )}
              {messages?.retry !== undefined && (
                <details>
                  <summary>The retry with the answers</summary>
                  <JsonBlock value={messages.retry} mode={mode} />
                </details>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The server's side of a bridged call, message by message, in the server's era. */
export function ServerSide({ exchange, mode }: { exchange: Exchange; mode: JsonMode }) {
  const bridge = exchange.bridge;
  if (!bridge) return null;
  return (
    <section aria-label="The server's side" data-testid="detail-server-side">
      <h3>
        The server&apos;s side <EraBadge era={bridge.era} />
        <span className="muted small"> the hub bridged this call: what the server was sent and answered</span>
      </h3>
      <ol className="server-side">
        {(exchange.serverMessages ?? []).map((m) => {
          const message = m.message as { method?: string; id?: unknown } | undefined;
          const what = message?.method ?? (message?.id !== undefined ? `answer to ${String(message.id)}` : 'message');
          return (
            <li key={m.seq} data-testid="detail-server-message">
              <details>
                <summary>
                  {m.direction === 'to-server' ? 'hub → server' : 'server → hub'}: <span className="mono">{what}</span>
                </summary>
                {m.headers && <ModernHeaders headers={m.headers} />}
                <JsonBlock value={m.message} mode={mode} />
              </details>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
