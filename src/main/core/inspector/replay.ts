/**
 * Replay: re-send one captured client request to its server through a fresh session that the
 * hub opens for itself (initialized by the hub, no client attached, captured as `debug`), and
 * return the new answer beside the old. The server must still be configured: the request only
 * names a captured exchange, so what runs is always what the config says (P28).
 *
 * What is re-sent is the captured (redacted) request: a secret the client sent is replayed as its
 * `[secret:…]` mask, never as the value. The person may edit its params first (replay with edited
 * arguments); the method and the server are always the captured ones.
 */
import { performance } from 'node:perf_hooks';
import type { Exchange, ExchangeStatus } from '../../../shared/api/inspector-contract.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { ApiError } from '../api/api-registry.js';
import type { Hub } from '../hub/hub-server.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import { toolFailure } from '../traffic/exchange.js';
import type { Inspector } from './inspector.js';
import type { InspectorQueries } from './inspector-queries.js';

export interface ReplayResult {
  original: Exchange;
  replay: { session: string; request: unknown; response?: unknown; status: ExchangeStatus; latencyMs: number; error?: string };
}

export interface ReplayDeps {
  inspector: Inspector;
  queries: InspectorQueries;
  hub: Hub;
  version: string;
}

function isRequest(value: unknown): value is JsonRpcRequest {
  const v = value as Partial<JsonRpcRequest> | undefined;
  return typeof v === 'object' && v !== null && v.jsonrpc === '2.0' && typeof v.method === 'string' && (typeof v.id === 'string' || typeof v.id === 'number');
}

async function findExchange(queries: InspectorQueries, session: string, exchangeId: string): Promise<Exchange> {
  const match = /^(.+)\/(\d+)$/.exec(exchangeId);
  if (!match || match[1] !== session) throw new ApiError('exchange_not_found', `'${exchangeId}' is not an exchange of session '${session}' (ids look like '${session}/<seq>')`);
  const seq = Number(match[2]);
  const page = await queries.exchanges({ session, after: seq - 1, limit: 1, full: true });
  const x = page.exchanges[0];
  if (!x || x.requestSeq !== seq) throw new ApiError('exchange_not_found', `No exchange '${exchangeId}' in session '${session}' (it may have left memory and history)`);
  return x;
}

export async function replayExchange(deps: ReplayDeps, input: { session: string; exchange: string; timeoutMs: number; params?: Record<string, unknown> | undefined }): Promise<ReplayResult> {
  const summary = await deps.queries.session(input.session);
  const original = await findExchange(deps.queries, input.session, input.exchange);
  if (original.requester !== 'client') throw new ApiError('not_replayable', `Only requests a client sent can be replayed; this one was sent by the ${original.requester}`);
  if (original.method === 'initialize') throw new ApiError('not_replayable', 'initialize is not replayed on its own: every replay runs in a freshly initialized session');
  if (!isRequest(original.request)) throw new ApiError('not_replayable', 'The captured request is not available in full (it was truncated or has left memory and history)');
  const session = deps.hub.openLocalSession(summary.server, 'replay');
  if (!session) throw new ApiError('server_not_configured', `Server '${summary.server}' is not configured (or is disabled) now; only configured servers can be replayed to`);
  // Edited arguments replace the captured params; the method and the server stay the captured ones.
  const request: JsonRpcRequest = input.params === undefined ? original.request : { ...original.request, params: input.params };
  let response: JsonRpcMessage | undefined;
  let error: string | undefined;
  let latencyMs = 0;
  try {
    const latest = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1];
    const init = await session.initialize(
      { jsonrpc: '2.0', id: 'patchbay-replay-init', method: 'initialize', params: { protocolVersion: summary.protocolVersion ?? latest, capabilities: {}, clientInfo: { name: 'patchbay-replay', version: deps.version } } },
      undefined,
    );
    if (!init.ok) {
      const why = 'error' in init.message && init.message.error ? init.message.error.message : 'no result';
      throw new ApiError('replay_failed', deps.inspector.redactor.redact(`Server '${summary.server}' did not initialize the replay session: ${why}`));
    }
    await session.forward([{ jsonrpc: '2.0', method: 'notifications/initialized' }], [undefined], undefined);
    const started = performance.now();
    try {
      response = await session.request(request, input.timeoutMs);
    } catch (err) {
      error = deps.inspector.redactor.redact((err as Error).message);
    }
    latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
  } finally {
    await session.close();
  }
  const status: ExchangeStatus =
    error !== undefined ? (/did not answer/.test(error) ? 'timeout' : 'orphaned') : (response && 'error' in response && response.error) || (request.method === 'tools/call' && toolFailure(response) !== undefined) ? 'error' : 'ok';
  const result: ReplayResult = { original, replay: { session: deps.inspector.captureIdOf(session) ?? '', request, status, latencyMs } };
  if (response !== undefined) {
    const redacted = deps.inspector.redactor.redactJson(JSON.stringify(response));
    result.replay.response = redacted.valid ? (JSON.parse(redacted.text) as unknown) : redacted.text;
  }
  if (error !== undefined) result.replay.error = error;
  return result;
}
