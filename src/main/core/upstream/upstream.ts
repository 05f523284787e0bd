/**
 * An upstream connection carries JSON-RPC messages to one MCP server and back. It is the hub's
 * equivalent of the SDK's `Transport`, minus everything the hub does not need: messages arrive
 * already parsed, with their raw text when the hub can forward it without re-serializing.
 */
import type { JsonRpcMessage } from '../protocol/json-rpc.js';

export interface UpstreamClosed {
  /** A sentence a person can act on, e.g. "server 'fs' exited with code 1: <stderr tail>". */
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  stderrTail?: string;
}

/** HTTP details of one request to a remote upstream, reported for the inspector (redacted there). */
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
 * What a remote upstream exchanges with the server on its own when it re-initializes a lost
 * upstream session (P17): the replayed `initialize` and `notifications/initialized` it sends, the
 * server's answer to that initialize (which goes no further), and `opened` once the server took
 * it (a new upstream session: a restart).
 */
export type UpstreamReinitialize =
  | { step: 'sent'; message: JsonRpcMessage }
  | { step: 'answered'; message: JsonRpcMessage; raw: string }
  | { step: 'opened' };

export interface UpstreamConnection {
  /** `raw` is the message's JSON text on one line when the caller already has it. */
  send(message: JsonRpcMessage, raw?: string): void;
  /** `raw` is the JSON text the server sent, suitable to forward as is. */
  onmessage: ((message: JsonRpcMessage, raw: string) => void) | undefined;
  /**
   * An answer the connection wrote itself, for a request the server will not answer (a remote's
   * response stream closed unanswered, the server unreachable): nothing crossed the wire. Goes to
   * `onmessage` when unset. Stdio upstreams do not use it (their failures close the connection).
   */
  onlocalreply?: ((message: JsonRpcMessage, raw: string) => void) | undefined;
  /** Fired once, when the connection ends for any reason other than close(). */
  onclose: ((info: UpstreamClosed) => void) | undefined;
  /** Lines the server wrote to stderr (its log). */
  onstderr: ((line: string) => void) | undefined;
  /** Set by a session while capture is on: remote upstreams report each HTTP exchange here. */
  onhttp?: ((info: UpstreamHttpExchange) => void) | undefined;
  /** Set by a session while capture is on: remote upstreams report a re-initialization here. */
  onreinitialize?: ((step: UpstreamReinitialize) => void) | undefined;
  /**
   * Set by a session while capture is on: the transport a remote upstream settled on once the
   * server answered initialize (with `transport: auto` it may have fallen back to HTTP+SSE).
   */
  ontransport?: ((transport: 'streamable-http' | 'sse') => void) | undefined;
  readonly closed: boolean;
  close(): Promise<void>;
}
