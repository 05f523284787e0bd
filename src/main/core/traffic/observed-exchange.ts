/**
 * A completed exchange as every observer of exchanges gets it (traffic.ts `onExchange`): paired,
 * redacted, with its session, eras, timings, sizes and outcome. Made once per completed exchange
 * from the pairing's own object (exchange.ts), in the pipeline's drain.
 */
import type { CaptureEra, CaptureOrigin, InputRound, ProgressEntry } from '../../../shared/api/inspector-contract.js';
import { RoundBook } from './input-rounds.js';
import type { TrackedExchange } from './exchange.js';
import type { TrafficSession } from './traffic-session.js';
import type { TraceContext } from '../hub/tracing.js';

/** The session an exchange belongs to. One frozen object per session (shared by its exchanges). */
export interface ExchangeSession {
  /** The inspector's id of the session (not its Mcp-Session-Id): `inspector.sessions.get` finds it. */
  id: string;
  serverId: string;
  /** How the client reached the hub: `streamable-http`, `sse`, `hub` (the inspector's replay), `playground`. */
  clientTransport: string;
  /** How the hub reached the server: `stdio`, `stdio-shared`, `streamable-http`, `sse` (after a fallback), `bridge`, … */
  upstreamTransport: string;
  /** A session the hub opened for itself (the inspector's replay): no client behind it. */
  debug: boolean;
  /** The client's era. */
  era: CaptureEra;
  /** The client token's label that authenticated the session; absent for the hub token. */
  principal?: string;
  /** `relay`: the client came through `patchbay relay` (hub/observer.ts). */
  via?: 'relay';
  /**
   * A session a profile opened to one of its members: the profile's id (`@work`, `''` for the
   * default one) and, when it was observed, the id of the client's session it serves.
   */
  profile?: { id: string; parentSession?: string };
  /** The session's `Mcp-Session-Id` (a 2025 HTTP session: `mcp.session.id`); absent otherwise. */
  mcpSessionId?: string;
}

/** The request of an exchange. */
export interface ExchangeRequest {
  /** Its JSON-RPC id as the requester sent it (a modern client's first id when input rounds followed). */
  readonly id: string | number;
  readonly method: string;
  /** The tool (`tools/call`) or prompt (`prompts/get`) name, the resource URI (`resources/read`). */
  readonly target?: string;
}

/** The eras the exchange crossed. */
export interface ExchangeEras {
  /** The client's era: `legacy` (an initialize session) or `modern` (2026-07-28). */
  readonly client: CaptureEra;
  /** The server's: the other one when the exchange was bridged, or once the session was. */
  readonly server: CaptureEra;
  /** The hub translated the exchange between eras (its server side was seen in the other era). */
  readonly bridged: boolean;
}

/**
 * Why an exchange did not end `ok`: `jsonrpc` (the answer was a JSON-RPC error: `code`),
 * `tool_error` (a `tools/call` result with `isError: true`), `cancelled` (the requester's
 * `notifications/cancelled`), and the hub's own reasons: `timeout` (the request deadline),
 * `upstream_closed` (the server's process or link ended unanswered), `session_closed` (the hub
 * ended the exchange on the client's side), `session_ended` (the session ended first),
 * `input_never_given` (a modern client never retried with the input the server asked for),
 * `id_reused` (a new request took the id of one never answered).
 */
export type ExchangeErrorKind = 'jsonrpc' | 'tool_error' | 'cancelled' | 'timeout' | 'upstream_closed' | 'session_closed' | 'session_ended' | 'input_never_given' | 'id_reused';

export interface ExchangeError {
  kind: ExchangeErrorKind;
  /** The JSON-RPC error code of the answer the requester got, when it got an error answer. */
  code?: number;
  /** Redacted: the error's message, the failed tool's first text, the cancellation's reason or the hub's. */
  message?: string;
}

/** The redacted JSON texts of an exchange (only for subscribers that ask: `texts: true`). */
export interface ExchangeTexts {
  /** The request's `params` as the requester sent them. */
  params?: string;
  /** The answer's `result`, or its `error`. */
  result?: string;
  error?: string;
}

export interface ObservedExchange {
  /** `<session id>/<request seq>`: the inspector's exchange id when the inspector stores (`inspector.exchanges.list`). */
  readonly id: string;
  readonly session: ExchangeSession;
  /** Who asked: the client, the server (a server→client request such as sampling or elicitation), or the hub (a replayed initialize, a replay). */
  readonly requester: CaptureOrigin;
  readonly request: ExchangeRequest;
  readonly eras: ExchangeEras;
  readonly status: 'ok' | 'error' | 'cancelled' | 'timeout' | 'orphaned';
  /** Set whenever `status` is not `ok`. */
  readonly error?: ExchangeError;
  /** Epoch ms (to the µs) when the request was first seen, and when its answer (or its end) was. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** As the requester saw it: first sighting of the request → the answer on its leg. */
  readonly durationMs: number;
  /** The server's share (hub → server → hub), when both its legs were seen. */
  readonly upstreamDurationMs?: number;
  /** UTF-8 bytes of the request and of the answer as they crossed (no answer: absent). */
  readonly requestBytes: number;
  readonly responseBytes?: number;
  /** `notifications/progress` that came for the request. */
  readonly progressCount: number;
  /** 2026-07-28 multi-round-trip requests: the `input_required` rounds before the final answer. */
  readonly inputRounds: number;
  /** For a server's request made during a client's call: that call's exchange id. */
  readonly parent?: string;
  /** The session's protocol version, once known (initialize's answer, a modern request's `_meta`). */
  readonly protocolVersion?: string;
  /** The client as it names itself (initialize's clientInfo, a modern request's `_meta`). */
  readonly client?: { name: string; version?: string };
  /**
   * The hub's trace of the request when telemetry traced it (hub/tracing.ts): the trace id, the
   * hub's SERVER span, its CLIENT span for the request to the server (absent where one of the
   * hub's own stages made those), the client's parent span, and whether it is sampled.
   */
  readonly trace?: TraceContext;
  /** When the hub's request to the server went out (epoch ms), when that leg was seen. */
  readonly upstreamStartedAt?: number;
  /**
   * The `notifications/progress` the pairing kept for the request (the last 32, with their times;
   * `message` redacted), and its input rounds with their times: the exchange's own lists, shared
   * (read them, do not change them), for an exporter's span events.
   */
  readonly progress?: readonly ProgressEntry[];
  readonly rounds?: readonly InputRound[];
  /** Only for subscribers that asked for them. */
  readonly texts?: ExchangeTexts;
}

/** What completed an exchange, for its error kind. */
export type Completion = 'response' | 'request' | 'cancel' | 'ended';

/** Eras are few: one shared frozen object per combination, found by index (no key to build). */
const ERAS: ExchangeEras[] = [];
for (const client of ['legacy', 'modern'] as const)
  for (const server of ['legacy', 'modern'] as const) for (const bridged of [false, true]) ERAS.push(Object.freeze({ client, server, bridged }));

function erasOf(client: CaptureEra, server: CaptureEra, bridged: boolean): ExchangeEras {
  return ERAS[(client === 'modern' ? 4 : 0) + (server === 'modern' ? 2 : 0) + (bridged ? 1 : 0)]!;
}

function errorOf(x: TrackedExchange, how: Completion, note: string | undefined, message: unknown): ExchangeError | undefined {
  const status = x.status;
  if (status === 'ok') return undefined;
  const answer = how === 'response' ? (message as { error?: { code?: unknown } } | undefined)?.error : undefined;
  const code = typeof answer?.code === 'number' ? answer.code : undefined;
  let kind: ExchangeErrorKind;
  let text = x.reason;
  if (status === 'error') {
    kind = x.isError ? 'tool_error' : 'jsonrpc';
    if (!x.isError) text = x.error?.message;
  } else if (status === 'cancelled') kind = 'cancelled';
  else if (status === 'timeout') kind = 'timeout';
  else if (how === 'request') kind = 'id_reused';
  else if (how === 'ended') kind = RoundBook.waitingForInput(x) ? 'input_never_given' : 'session_ended';
  else kind = note === 'upstream-closed' ? 'upstream_closed' : 'session_closed';
  const error: ExchangeError = { kind };
  if (code !== undefined) error.code = code;
  if (text !== undefined) error.message = text;
  return error;
}

/**
 * The objects subscribers get. Classes, every field set in the constructor: one made per
 * completed exchange, and every subscriber (the statistics included) reads them, so they have
 * one shape each (an absent field is undefined, which JSON leaves out).
 */
class Request implements ExchangeRequest {
  constructor(
    readonly id: string | number,
    readonly method: string,
    readonly target: string | undefined,
  ) {}
}

class Observed implements ObservedExchange {
  constructor(
    readonly id: string,
    readonly session: ExchangeSession,
    readonly requester: CaptureOrigin,
    readonly request: ExchangeRequest,
    readonly eras: ExchangeEras,
    readonly status: ObservedExchange['status'],
    readonly error: ExchangeError | undefined,
    readonly startedAt: number,
    readonly endedAt: number,
    readonly durationMs: number,
    readonly upstreamDurationMs: number | undefined,
    readonly requestBytes: number,
    readonly responseBytes: number | undefined,
    readonly progressCount: number,
    readonly inputRounds: number,
    readonly parent: string | undefined,
    readonly protocolVersion: string | undefined,
    readonly client: { name: string; version?: string } | undefined,
    readonly trace: TraceContext | undefined,
    readonly upstreamStartedAt: number | undefined,
    readonly progress: readonly ProgressEntry[],
    readonly rounds: readonly InputRound[] | undefined,
  ) {}
}

/**
 * The exchange as subscribers get it. `how`, `note` and `message`: what completed it (the
 * message, when one did); `responseBytes`: that message's size when it was the answer.
 */
export function observedExchange(x: TrackedExchange, session: TrafficSession, how: Completion, note: string | undefined, message: unknown, responseBytes: number | undefined): ObservedExchange {
  const clientEra = x.era ?? session.identity.era ?? 'legacy';
  const bridge = x.bridge;
  const latency = x.latencyMs ?? 0;
  return new Observed(
    x.id,
    session.observed,
    x.requester,
    new Request(x.requestId, x.method, x.target),
    erasOf(clientEra, bridge?.era ?? session.serverEra ?? clientEra, bridge !== undefined),
    x.status === 'pending' ? 'orphaned' : x.status,
    errorOf(x, how, note, message),
    x.startedAt,
    x.endedAt ?? x.startedAt + latency,
    latency,
    x.upstreamLatencyMs,
    x.requestBytes ?? 0,
    how === 'response' ? responseBytes : undefined,
    x.progressCount,
    x.rounds?.length ?? 0,
    x.parent ?? x.enclosing,
    session.protocolVersion,
    session.client,
    x.traceContext,
    x.upstreamStartedAt,
    x.progress,
    x.rounds,
  );
}
