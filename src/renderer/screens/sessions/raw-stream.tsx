/**
 * The raw stream beside the parsed view: the bytes the hub wrote to the client for this exchange's
 * response — its status line and headers, SSE events with their `id:` lines, priming events,
 * keep-alives, or one JSON body — as they went over the wire, secrets masked by the engine's
 * redactor. Recording is off by default (it costs a queued item per write); the button turns it on
 * for responses from then on (docs/inspector.md, "The raw stream").
 */
import { useCallback, useEffect, useState } from 'react';
import type { ExchangeSummary, RawChunk, RawStream } from '../../../shared/api/inspector-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useServices } from '../../app/services.js';
import { ms } from './timing-model.js';

/** Whether a chunk's body carries the answer to `id` (an SSE `data:` line, or a JSON body). */
function answers(text: string, id: string | number): boolean {
  const bodies = text.startsWith('{') || text.startsWith('[') ? [text] : text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  for (const body of bodies) {
    try {
      const value = JSON.parse(body) as unknown;
      for (const m of Array.isArray(value) ? value : [value]) {
        const msg = m as { id?: unknown; method?: unknown };
        if (msg.id === id && msg.method === undefined) return true;
      }
    } catch {
      // Not JSON (a priming event's empty data, a cut text): not the answer.
    }
  }
  return false;
}

/** The streams that carried the exchange's answer (usually one), in order. */
export function streamsOf(chunks: readonly RawChunk[], exchange: ExchangeSummary): string[] {
  const keys: string[] = [];
  for (const c of chunks) if (c.kind === 'data' && !keys.includes(c.stream) && answers(c.text, exchange.requestId)) keys.push(c.stream);
  return keys;
}

export function RawStreamView({ exchange }: { exchange: ExchangeSummary }) {
  const { bridge } = useServices();
  const [raw, setRaw] = useState<RawStream>();
  const [error, setError] = useState<string>();
  const [whole, setWhole] = useState(false);
  const load = useCallback(async () => {
    const r = await bridge.call('inspector.raw.get', { session: exchange.session });
    if (r.ok) setRaw(r.value);
    else setError(r.message);
  }, [bridge, exchange.session]);
  useEffect(() => {
    void load();
  }, [load, exchange.id, exchange.status]);
  const record = async (enabled: boolean): Promise<void> => {
    const r = await bridge.call('inspector.raw.set', { enabled });
    if (!r.ok) return setError(r.message);
    await load();
  };
  if (error) return <ErrorMessage>{error}</ErrorMessage>;
  if (!raw) return <p className="muted small">Loading…</p>;
  const mine = streamsOf(raw.chunks, exchange);
  const shown = whole ? raw.chunks : raw.chunks.filter((c) => mine.includes(c.stream));
  return (
    <section className="raw-stream" aria-label="Raw stream" data-testid="raw-stream">
      <div className="raw-stream-bar">
        <span className="muted small" data-testid="raw-recording">
          {raw.enabled ? `Recording: responses to clients are kept, ${Math.round(raw.maxBytesPerSession / 1024)} KB per session.` : 'Not recording. Responses sent from when you turn it on are kept.'}
        </span>
        <button type="button" className="button button-small" onClick={() => void record(!raw.enabled)} data-testid="raw-record">
          {raw.enabled ? 'Stop recording' : 'Record raw stream'}
        </button>
        <button type="button" className="button button-small" onClick={() => void load()} data-testid="raw-refresh">Refresh</button>
        <label className="check small">
          <input type="checkbox" checked={whole} onChange={(e) => setWhole(e.target.checked)} data-testid="raw-whole" /> Whole session
        </label>
      </div>
      {shown.length === 0 ? (
        <p className="muted" data-testid="raw-empty">
          {whole ? 'Nothing recorded for this session yet.' : 'No bytes were recorded for this exchange’s response.'}
          {raw.enabled ? ' Make a call, then Refresh.' : ''}
        </p>
      ) : (
        <ol className="raw-chunks" data-testid="raw-chunks">
          {shown.map((c, i) => (
            <li key={i} className={`raw-chunk raw-${c.kind}`} data-testid="raw-chunk" data-kind={c.kind}>
              <span className="raw-meta">
                {c.time >= exchange.startedAt ? `+${ms(c.time - exchange.startedAt)}` : `−${ms(exchange.startedAt - c.time)}`} · {c.kind === 'head' ? 'status and headers' : c.kind === 'end' ? 'end of response' : 'body'} · stream {c.stream}
              </span>
              {c.text !== '' && <pre className="raw-text">{c.text}</pre>}
            </li>
          ))}
        </ol>
      )}
      {raw.truncated && <p className="muted small">Older bytes of this session were dropped to stay under the cap.</p>}
    </section>
  );
}
