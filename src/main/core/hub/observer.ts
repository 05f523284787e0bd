/**
 * The observer port: how anything that watches traffic (the inspector's capture, the servers'
 * live status) learns what crosses the hub, without the hub knowing who listens and without
 * anyone rewiring the hub's objects. The hub calls `sessionOpened` for every session it opens;
 * each observer answers with a watch (the calls it wants for that session) or undefined. The
 * session calls its watch as messages and upstream events go by.
 *
 * Every method is optional: an observer implements only what it needs, and the hub composes the
 * watches so that a call nobody wants costs nothing (see composeWatches). Per-message calls must
 * do O(1) work: they run on the proxy path.
 */
import type { JsonRpcId, JsonRpcMessage } from '../protocol/json-rpc.js';
import type { WireListener } from '../protocol/sse-writer.js';
import type { HubAnswer, UpstreamClosed, UpstreamEvent } from '../upstream/upstream.js';
import type { TraceContext } from './tracing.js';

/**
 * Why the hub itself wrote a message: `timeout` (request deadline), `upstream-closed` and
 * `session-closed` (errors answered on the server's behalf), `replay-initialize` (re-initializing
 * a restarted upstream), `replay` (the inspector's replay of a captured request), `bridge-answer`
 * (a bridge between eras answered the client itself: `server/discover`, a removed method, a
 * refused `requestState`), `policy` (the server's secret check blocked the request: the hub's
 * answer says so), `aggregate` (a profile asked a member on its own account: its lists, a
 * fan-out, a discover; profiles/member-watch.ts).
 */
export type HubNote = 'timeout' | 'upstream-closed' | 'session-closed' | 'replay-initialize' | 'replay' | 'bridge-answer' | 'policy' | 'aggregate';

/** The note of an answer the hub gave on purpose (upstream.ts HubAnswer). */
export function hubNoteOf(answer: HubAnswer): HubNote {
  return answer === 'bridge' ? 'bridge-answer' : 'policy';
}

/**
 * The HTTP request a client message came in, as observers may read it. A node:http
 * IncomingMessage is one; the session passes it through without looking at it.
 */
export interface ClientRequestInfo {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The header lines as received, names and values alternating (cheap to compare). */
  readonly rawHeaders: readonly string[];
}

/** What an observer is told about a session when the hub opens it. */
export interface ObservedSession {
  /** The same object for the session's whole life (a key for WeakMaps). */
  readonly key: object;
  readonly serverId: string;
  /**
   * How the client reaches the hub: `streamable-http`, or `sse` (the 2024-11-05 HTTP+SSE door,
   * legacy-sse-endpoint.ts); `hub` for a session the hub opened for itself (replay);
   * `playground` for the UI's playground, where a person is the client; `bridge` for a 2025
   * session the era bridge holds for a 2026-07-28 client (bridge/legacy-bridge.ts); `profile`
   * for a profile's traffic with one of its members (`profile` below says which).
   */
  readonly clientTransport: string;
  /** How the hub reaches the server, as configured (`stdio`, `stdio-shared`, `streamable-http`, `sse`, …). */
  readonly upstreamTransport: string;
  /** A session the hub opened for itself (the inspector's replay): no client behind it. */
  readonly debug: boolean;
  /**
   * The client's protocol era: `legacy` (an `initialize` session) or `modern` (2026-07-28
   * requests of one client, grouped: see modern-clients.ts). Absent means legacy.
   */
  readonly era?: 'legacy' | 'modern';
  /**
   * The client token that authenticated the session (its label, e.g. `Cursor`): who the client is
   * by the credential it holds, besides what its clientInfo says. Absent for the hub token.
   */
  readonly principal?: string;
  /**
   * A session a profile opened to one of its members on behalf of a client's session: the
   * profile's id (`@work`, `''` for the default one), and the observed key of the client's
   * session it serves (so an observer can nest the member's traffic under the client's).
   */
  readonly profile?: { readonly id: string; readonly parent: object | undefined };
  /** The session's `Mcp-Session-Id` (a 2025 session an HTTP client reaches by it); absent otherwise. */
  readonly mcpSessionId?: string;
  /** `relay`: the client came through `patchbay relay` (its User-Agent says so: principal.ts `viaOf`). */
  readonly via?: 'relay';
}

/** The calls a session makes to its observers. All optional. */
export interface SessionWatch {
  /** A message from the client; `http` is the request it came in, `status` the HTTP status answered. */
  fromClient?(message: JsonRpcMessage, raw: string | undefined, http: ClientRequestInfo | undefined, status: number | undefined): void;
  /** A message to the client; `note` when the hub wrote it itself. */
  toClient?(message: JsonRpcMessage, raw: string | undefined, note: HubNote | undefined): void;
  /** A message sent to the server; `note` when the hub wrote it itself. */
  toServer?(message: JsonRpcMessage, raw: string | undefined, note: HubNote | undefined): void;
  /**
   * A message from the server. When its first byte arrived is `arrival.at` during the call
   * (protocol/arrival.ts; -1 when the hub cannot tell): read it there, it is not passed.
   */
  fromServer?(message: JsonRpcMessage, raw: string): void;
  /**
   * The message whose JSON text is `json` (the very string `toClient` was given) was just written
   * to the client: its HTTP response (or an in-process consumer). Usually right after `toClient`;
   * later when the client's stream was blocked or away.
   */
  delivered?(json: string): void;
  /**
   * A stream to the client is about to be written (`stream`: its key in the session, or the
   * request id of a 2026-07-28 call): a listener for the bytes it is sent, or undefined. Asked
   * once per stream (a POST's reply, a GET stream), never per message; only one observer may
   * answer (the inspector's raw stream).
   */
  wireTap?(stream: string): WireListener | undefined;
  /**
   * The server's side of a request the hub bridges between eras (hub/legacy-bridge.ts): a message
   * the server was sent (`toServer`) or sent, in the server's era, on behalf of the client's
   * request `of` (its JSON-RPC id as the client sent it). `headers`: the modern headers it went with.
   * The hub calls it only when an observer has it: it costs nothing with capture off.
   */
  bridged?(of: JsonRpcId, toServer: boolean, message: JsonRpcMessage, raw: string | undefined, headers: Readonly<Record<string, string>> | undefined): void;
  /**
   * Telemetry traced a client's request (hub/tracing.ts): the ids of its spans, told after the
   * request came in and before the traced request goes upstream. Called only with a tracer set.
   */
  traced?(requestId: JsonRpcId, trace: TraceContext): void;
  /** A new upstream connection is in use (the first, or one that replaced a dead one). */
  upstreamOpened?(): void;
  /** An upstream connection could not be opened (a missing secret, a spawn failure). */
  upstreamFailed?(message: string): void;
  /** The current upstream connection sent its first message. */
  upstreamAnswered?(): void;
  /** The upstream connection ended by itself; `answered`: it had sent a message before. */
  upstreamClosed?(info: UpstreamClosed, answered: boolean): void;
  /** Stderr lines, HTTP exchanges, transport, re-initialization (see UpstreamEvent). */
  upstreamEvent?(event: UpstreamEvent): void;
  /** The session ended. */
  ended?(state: 'closed' | 'failed', failure: string | undefined): void;
}

export interface SessionObserver {
  sessionOpened(session: ObservedSession): SessionWatch | undefined;
}

const WATCH_METHODS = [
  'fromClient',
  'toClient',
  'toServer',
  'fromServer',
  'delivered',
  'wireTap',
  'bridged',
  'traced',
  'upstreamOpened',
  'upstreamFailed',
  'upstreamAnswered',
  'upstreamClosed',
  'upstreamEvent',
  'ended',
] as const satisfies ReadonlyArray<keyof SessionWatch>;

type AnyMethod = (...args: unknown[]) => void;

/**
 * One watch for several: each method is the only implementer's own (bound, no wrapper) when one
 * watch has it, a loop when several do, and absent when none does — so the session's optional
 * call (`watch.fromClient?.(…)`) costs nothing for what nobody observes.
 */
export function composeWatches(watches: ReadonlyArray<SessionWatch | undefined>): SessionWatch | undefined {
  const present = watches.filter((w): w is SessionWatch => w !== undefined);
  if (present.length <= 1) return present[0];
  const out: Record<string, AnyMethod> = {};
  for (const name of WATCH_METHODS) {
    const impls = present.filter((w) => typeof w[name] === 'function').map((w) => (w[name] as AnyMethod).bind(w));
    if (impls.length === 1 || (name === 'wireTap' && impls.length > 0)) out[name] = impls[0]!;
    else if (impls.length > 1)
      out[name] = (...args: unknown[]) => {
        for (const impl of impls) impl(...args);
      };
  }
  return out as SessionWatch;
}

/** Several observers as one: every observer is asked, and the answers are composed. */
export function composeObservers(observers: ReadonlyArray<SessionObserver>): SessionObserver {
  if (observers.length === 1) return observers[0]!;
  return { sessionOpened: (session) => composeWatches(observers.map((o) => o.sessionOpened(session))) };
}
