/**
 * A server reached in the modern era (MCP 2026-07-28): no session, every request on its own. The
 * hub hands each modern request to a ModernUpstream and hears back the notifications that belong
 * to it and its final answer. Implementations: modern-stdio.ts (one child, requests multiplexed),
 * modern-remote.ts (a POST per request), the bridge that serves a modern client from a legacy
 * server (bridge/legacy-bridge.ts), and a profile's aggregate (profiles/modern-aggregate.ts).
 */
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.js';
import type { ClientIdentity, HubAnswer, UpstreamEvent } from './upstream.js';

export interface ModernCallRequest {
  /** The client's request, its id included. */
  message: JsonRpcRequest;
  /** Its JSON text on one line, when the hub has it. */
  raw: string | undefined;
  /**
   * The modern headers as the client sent them (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
   * `Mcp-Param-*`), already checked against the body: an HTTP upstream forwards them.
   */
  headers: Readonly<Record<string, string>>;
  /** The client id of the client token the request came with (`cursor`), if any: a profile's on-demand tools may differ per client. */
  client?: string;
  /** Who the client is, for what observes the call on the server's side (a secret check's audit line). */
  who?: ClientIdentity;
}

export interface ModernCallHandlers {
  /** A notification of this call: progress, a log message, or one on a `subscriptions/listen` stream. */
  notification(message: JsonRpcNotification, raw: string): void;
  /**
   * The final answer (the call is over). `local`: the hub wrote it — the server will not answer
   * (its child died, it could not be reached or refused the credentials: a failure the server's
   * status shows), or, with `answered`, the hub answered on purpose and nothing failed: a bridge
   * between eras itself (`bridge`: a `server/discover` from the legacy session's initialize, a
   * method the era removed, a refused `requestState`), or the server's secret check (`policy`: a
   * request it blocked). `status`: the HTTP status a remote answered an error with (400, 404 …),
   * to pass on.
   */
  response(message: JsonRpcResponse, raw: string, info: ModernAnswerInfo): void;
  /** A `subscriptions/listen` stream the server ended without a response. */
  ended?(): void;
  /**
   * For observers, set only while one listens: what a bridge between eras (bridge/legacy-bridge.ts)
   * sent the server or got from it for this call, in the server's era.
   */
  wire?(toServer: boolean, message: JsonRpcMessage, raw: string | undefined): void;
  /**
   * For observers, set only while one listens: what the upstream reports besides messages while
   * this call is in flight — the HTTP exchange of its POST (a remote), the lines the server's
   * child writes to stderr meanwhile (stdio; a child serves every modern client, so each call in
   * flight hears them). Building an HTTP exchange's record copies and masks its headers: done
   * only when this is set.
   */
  event?(event: UpstreamEvent): void;
}

export interface ModernAnswerInfo {
  local: boolean;
  status?: number;
  answered?: HubAnswer;
}

export interface ModernCall {
  /** The client gave up (closed its stream) or a deadline passed: tell the server, expect nothing more. */
  cancel(reason: string): void;
}

export interface ModernUpstream {
  call(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall;
  /**
   * True for a bridge that serves the call from a server of the other era (hub/legacy-bridge.ts):
   * the server never sees the client's request as it is, and reports its own side through `wire`.
   */
  readonly translates?: boolean;
  close(): Promise<void>;
}
