/**
 * Where a session's stream goes: what SseStream writes to. The endpoint's HTTP responses are
 * one kind (http-sink.ts: SSE framing on a node:http response); a session the hub drives itself
 * could have another. Messages arrive as JSON text on one line, with the event id the client
 * resumes from.
 */
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import type { PaceLimits, WireListener } from '../protocol/sse-writer.js';

export interface StreamSink {
  /** Starts the stream with the session's response headers; must reach the client at once (P10). */
  open(headers: Record<string, string>): void;
  /**
   * One JSON-RPC message (its JSON text, one line) as event `eventId`. The sink always takes it;
   * `false` says its consumer is not keeping up (an HTTP response past its high-water mark): the
   * stream then holds its producer back until `onDrain`. In-process sinks return nothing.
   * `message` is the same message parsed when the session has it at hand (not on a replay), so
   * an in-process sink need not parse the text again; it is shared, not to be changed.
   */
  message(eventId: string, json: string, message?: JsonRpcMessage): boolean | void;
  /** Called once, when a sink whose `message` returned false can take more. */
  onDrain?(listener: () => void): void;
  /**
   * False: nothing can resume this stream — an in-process consumer (the era bridge, the
   * playground), or the legacy door, whose events carry no id. What the stream is sent is then
   * not kept for a replay, and once done it is not kept for a resumption either.
   */
  readonly resumable?: boolean;
  /**
   * False while nothing was sent to the consumer (a POST's reply held until its first message,
   * http-sink.ts `replySink`): a client that leaves then holds no event id, so the stream cannot
   * be resumed and its events need not be kept. Undefined: the sink starts at `open`.
   */
  readonly started?: boolean;
  /** Bytes taken but not yet consumed (what a client that stopped reading leaves in the hub). */
  readonly backlog?: number;
  /**
   * Whether its consumer is judged stalled at these limits (protocol/write-pace.ts: by what it
   * failed to take over time, never by the size of one message). In-process sinks never are.
   */
  stalled?(limits: PaceLimits, now: number): boolean;
  /** A priming event: an id and no message, so a client can resume before any message (P9). */
  prime(eventId: string): void;
  /** Keeps an idle stream (and the proxies on its way) alive (P13). */
  keepAlive(): void;
  end(): void;
  /**
   * Records the bytes this sink writes from now on (an HTTP response: its head, each event, its
   * end), for an observer that asked to see the raw stream. In-process sinks write no bytes.
   */
  tapWire?(listener: WireListener): void;
  /** Called once when the consumer goes away (the HTTP connection closed). */
  onClose(listener: () => void): void;
}
