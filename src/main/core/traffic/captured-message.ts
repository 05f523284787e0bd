/**
 * The seam between the capture pipeline and what stores its events (the inspector): every event
 * the pipeline makes — redacted, numbered, paired — is handed to one `TrafficSink`, in seq order.
 *
 * A message event is handed over as a scratch object that the pipeline fills anew for every
 * message and the sink reads during the call only (it runs for every message the hub moves: no
 * allocation, and no copy, for the handing over). What the sink keeps, it copies into its own
 * objects.
 */
import type { CaptureHttp, CaptureLeg, CaptureOrigin, ExchangeSummary } from '../../../shared/api/inspector-contract.js';
import type { CaptureNote } from './capture-tap.js';
import type { PairingInput } from './exchange-tracker.js';
import type { MessageText } from './message-text.js';
import type { TrafficSession } from './traffic-session.js';

export type MessageKind = 'request' | 'notification' | 'response';

/**
 * One message event: a message on one leg, or — a message the hub passed through unchanged — on
 * both (`twinUs >= 0`: its second leg, on the other leg, has seq + 1). It is the very object the
 * pairing was fed (PairingInput), with what the sink needs besides. Valid during the call only.
 */
export interface CapturedMessage extends PairingInput {
  /** Who wrote it: the client, the server, or the hub itself (a note, a bridge, a debug session). */
  origin: CaptureOrigin;
  kind: MessageKind;
  /** Interned (internMethod): one string per method name. */
  method: string | undefined;
  note: CaptureNote | undefined;
  /**
   * The client request's HTTP details, or a bridged message's modern headers, redacted. A
   * session's requests share one object while their details stay the same.
   */
  http: CaptureHttp | undefined;
  /** UTF-8 bytes of the message as it crossed. */
  size: number;
  /** The redacted text (valid JSON, or a JSON string holding a prefix). */
  text: MessageText;
  /** µs from this leg to the second one of a pass-through pair; -1 for a single leg. */
  twinUs: number;
  /** The exchange this message completed, if any. */
  completed: ExchangeSummary | undefined;
  /** `completed` was completed by the second leg of the pair. */
  twinCompletes: boolean;
  /** The session learned something from it (who the client is, versions, an initialize failure): its summary changed. */
  learned: boolean;
}

/**
 * Where the pipeline's events go (the inspector, inspector/inspector.ts). Called from the
 * pipeline's drain, never on the proxy path; events arrive in seq order. `session.sinkState` is
 * the sink's own slot for what it keeps per session.
 */
export interface TrafficSink {
  /** The seq of the newest event the sink already holds (its history on disk): numbering continues after it. */
  readonly lastSeq: number;
  message(session: TrafficSession, m: CapturedMessage): void;
  /** A line the server wrote to stderr, redacted. */
  stderr(session: TrafficSession, seq: number, time: number, line: string): void;
  /** One HTTP exchange with a remote server, redacted. */
  http(session: TrafficSession, seq: number, time: number, http: CaptureHttp): void;
  /**
   * A step of the session's life (opened, restarted, failed, fell back to HTTP+SSE, ended), after
   * the session's state changed; `completed`: the exchanges its end left unanswered.
   */
  lifecycle(session: TrafficSession, seq: number, time: number, text: string, completed: readonly ExchangeSummary[] | undefined): void;
  /**
   * Bytes written to the session's client (the raw stream, only while it is recorded), redacted:
   * `stream` names the response (a session's stream key, a modern call's request id).
   */
  wire?(session: TrafficSession, time: number, stream: string, kind: 'head' | 'data' | 'end', text: string): void;
}

export const otherLeg = (leg: CaptureLeg | undefined): CaptureLeg | undefined => (leg === 'client' ? 'upstream' : leg === 'upstream' ? 'client' : undefined);

const METHODS = new Map<string, string>();
/**
 * One string per method name: each parsed message brings its own copy, and events and
 * exchanges keep the name (a bounded cache: methods are few).
 */
export function internMethod(method: string): string {
  const known = METHODS.get(method);
  if (known !== undefined) return known;
  if (METHODS.size < 1000) METHODS.set(method, method);
  return method;
}
