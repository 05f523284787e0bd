/**
 * An upstream connection carries JSON-RPC messages to one MCP server and back. It is the hub's
 * equivalent of the SDK's `Transport`, minus everything the hub does not need: messages arrive
 * already parsed, with their raw text when the hub can forward it without re-serializing.
 *
 * One owner (a session) sets the three callbacks; nothing else touches them.
 */
import type { JsonRpcId, JsonRpcMessage } from '../protocol/json-rpc.js';

export interface UpstreamClosed {
  /** A sentence a person can act on, e.g. "server 'fs' exited with code 1: <stderr tail>". */
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  stderrTail?: string;
}

/** HTTP details of one request to a remote upstream (credentials already masked). */
export interface UpstreamHttpExchange {
  method: string;
  url: string;
  status?: number;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  /** JSON-RPC ids of the messages the request carried, when known. */
  ids?: Array<string | number>;
}

/**
 * What a connection reports besides messages, for observers (the inspector, server status):
 * - `stderr`: a line the server wrote to stderr (its log);
 * - `http`: one HTTP exchange with a remote server;
 * - `transport`: the transport a remote settled on once it answered initialize (with
 *   `transport: auto` it may have fallen back to HTTP+SSE);
 * - `reinitialize`: what a remote connection exchanges on its own when it re-initializes a lost
 *   upstream session (P17): the replayed `initialize` and `notifications/initialized` it sends
 *   (`sent`), the server's answer to that initialize, which goes no further (`answered`), and
 *   `opened` once the server took it (a new upstream session: a restart);
 * - `notice`: a line for the session's timeline from a check beside the path (the secret checks,
 *   guard/secret-guard.ts: which secret, where, and what was done);
 * - `bridged`: what a connection that bridges eras (modern-bridge-upstream.ts) sent the server or
 *   got from it in the server's era, on behalf of the client's request `of` — sent only while an
 *   observer listens (`onevent` set).
 */
export type UpstreamEvent =
  | { type: 'stderr'; line: string }
  | { type: 'http'; exchange: UpstreamHttpExchange }
  | { type: 'transport'; transport: 'streamable-http' | 'sse' }
  | { type: 'notice'; text: string }
  | { type: 'reinitialize'; step: 'sent'; message: JsonRpcMessage }
  | { type: 'reinitialize'; step: 'answered'; message: JsonRpcMessage; raw: string }
  | { type: 'reinitialize'; step: 'opened' }
  | { type: 'bridged'; of: JsonRpcId; toServer: boolean; message: JsonRpcMessage; raw?: string | undefined; headers?: Readonly<Record<string, string>> | undefined };

/**
 * Who a session's (or a 2026-07-28 call's) client is, as the audit trail names one (audit-entry.ts
 * `auditClientName`): the client token's label, `relay` when `patchbay relay` opened it, how it
 * came (`streamable-http`, `sse`, `playground`…), and the name it gives itself (clientInfo).
 */
export interface ClientIdentity {
  readonly principal?: string;
  readonly via?: 'relay';
  readonly transport: string;
  readonly name?: string;
}

/** Who answered a request in the server's place on purpose (nothing failed): a bridge between eras, or a secret check. */
export type HubAnswer = 'bridge' | 'policy';

export interface UpstreamConnection {
  /** `raw` is the message's JSON text on one line when the caller already has it. */
  send(message: JsonRpcMessage, raw?: string): void;
  /**
   * A message for the session. `raw` is the JSON text to forward as is. `local` marks an answer
   * the connection wrote itself for a request the server will not answer: `true` when something
   * failed (a remote's response stream closed unanswered, the server unreachable), or what
   * answered on purpose (`policy`: the server's secret check blocked the request). Nothing
   * crossed the wire either way.
   */
  onmessage: ((message: JsonRpcMessage, raw: string, local: boolean | HubAnswer) => void) | undefined;
  /**
   * Fired once, when the connection ends by itself (not through close()): a stdio child exited,
   * or the child a shared connection belongs to did. Remote connections never end by themselves:
   * a remote failure is reported per request (a `local` answer) and the next request reconnects.
   */
  onclose: ((info: UpstreamClosed) => void) | undefined;
  /** Everything else worth observing (see UpstreamEvent); may stay unset. */
  onevent: ((event: UpstreamEvent) => void) | undefined;
  readonly closed: boolean;
  /** The last lines the server wrote to stderr, for an error message (stdio servers). */
  readonly stderrTail?: string;
  /**
   * Flow control: the session's client is not reading, so deliver no more messages until
   * `resume()` (a stdio child's stdout is paused: the OS pipe fills and the child's writes block,
   * backpressure the server feels). Absent on connections that cannot be held back for one
   * session (a shared child, a remote): there the hub's per-stream cap bounds what it buffers.
   */
  pause?(): void;
  resume?(): void;
  close(): Promise<void>;
}
