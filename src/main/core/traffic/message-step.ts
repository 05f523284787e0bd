/**
 * One queued message through the pipeline (traffic.ts): numbered, redacted, paired on one leg or
 * — a message the hub passed through unchanged — on both, then handed to the sink and its
 * completed exchange to the subscribers. It runs for every message the hub moves, so it works on
 * scratch objects of its own (no allocation to hand a message over), and it redacts a message's
 * whole text only when a sink stores it, or the session learns from it.
 */
import type { CaptureHttp } from '../../../shared/api/inspector-contract.js';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import type { BridgedDetail, TapItem } from './capture-tap.js';
import { internMethod, otherLeg, type CapturedMessage, type MessageKind } from './captured-message.js';
import type { TrackedExchange } from './exchange.js';
import { clientHttp } from './http-capture.js';
import { jsonOf, messageText, type MessageText } from './message-text.js';
import type { Completion } from './observed-exchange.js';
import { epochMs } from './clock.js';
import type { Traffic } from './traffic.js';
import type { TrafficSession } from './traffic-session.js';

/** What is kept of a message that no raw text came with and that cannot be serialized (too deep). */
const TOO_DEEP = JSON.stringify('[not captured: the message nests JSON too deeply to serialize]');

/** Header names in lower case, as node:http gives a client's (so both sides read alike). */
function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

function newText(): MessageText {
  return { text: '', form: 'utf8', size: 0, truncated: false };
}

function newInput(text: MessageText): CapturedMessage {
  return { seq: 0, time: 0, leg: undefined, direction: undefined, origin: 'client', kind: 'request', method: undefined, id: undefined, note: undefined, of: undefined, http: undefined, size: 0, text, twinUs: -1, completed: undefined, twinCompletes: false, learned: false, firstByte: -1, delivered: -1 };
}

function completion(kind: string): Completion {
  return kind === 'response' ? 'response' : kind === 'request' ? 'request' : 'cancel';
}

export class MessageStep {
  /** Scratch objects (one each, refilled for every message): what pairing and the sink read. */
  private readonly text = newText();
  private readonly spare = newText();
  private readonly first = newInput(this.text);
  private readonly second = newInput(this.text);
  /** The message being processed (its text, and the message parsed), and whether `text` holds its redacted text yet. */
  private raw = '';
  private value: unknown = undefined;
  private textReady = false;
  /** The redacted text of the message being processed, for the session to learn from (made once). */
  private readonly json = (): string => jsonOf(this.redacted());

  constructor(private readonly traffic: Traffic) {}

  /**
   * A message, on one leg or (a pair) on both: one event either way. Both legs are paired in
   * order, the second with its own seq (the next) and time.
   */
  message(session: TrafficSession, item: TapItem, time: number): void {
    const traffic = this.traffic;
    const storing = traffic.sink !== undefined;
    const m = item.message!;
    const isCall = 'method' in m;
    const kind: MessageKind = isCall ? ('id' in m ? 'request' : 'notification') : 'response';
    // A bridged message is the server's side of an exchange: what the hub sent it, what it answered.
    const bridged = item.note === 'bridged';
    const origin = bridged ? (item.toServer ? 'hub' : 'server') : item.note !== undefined ? 'hub' : !item.toServer ? 'server' : session.identity.debug ? 'hub' : 'client';
    const direction = item.toServer ? 'to-server' : 'to-client';
    const seq = traffic.nextSeq();
    this.raw = item.raw ?? stringifyOrUndefined(m) ?? TOO_DEEP;
    this.value = m;
    this.textReady = false;
    const size = storing ? this.redacted().size : Buffer.byteLength(this.raw);
    let http: CaptureHttp | undefined;
    if (item.req !== undefined && storing) {
      session.lastHttp = clientHttp(session.lastHttp, item.req, item.status, traffic.redactor);
      http = session.lastHttp.http;
    }
    let of: string | number | undefined;
    if (bridged) {
      const detail = item.detail as BridgedDetail;
      of = detail.of;
      if (detail.headers !== undefined && storing) http = { headers: traffic.redactor.redactHeaders(lowerCaseNames(detail.headers)) };
    }
    // Pairing and the sink see plain objects of one shape.
    const first = this.first;
    first.seq = seq;
    first.time = time;
    first.leg = item.leg;
    first.direction = direction;
    first.origin = origin;
    first.kind = kind;
    first.method = isCall ? internMethod(m.method) : undefined;
    first.id = 'id' in m ? m.id : undefined;
    first.note = item.note;
    first.of = of;
    first.http = http;
    first.size = size;
    // The marks only observers read: a server's first byte, a message's delivery to the client.
    first.firstByte = item.tb >= 0 ? epochMs(item.tb) : -1;
    first.delivered = item.leg === 'client' && item.td >= 0 ? epochMs(item.td) : -1;
    const tracker = session.tracker;
    const holdParams = kind === 'request' && traffic.textsWanted;
    if (holdParams) tracker.opened = undefined;
    let completed = tracker.observe(first, m);
    if (holdParams && tracker.opened !== undefined) traffic.holdParams(session, tracker.opened, m);
    let twinUs = -1;
    let twinCompletes = false;
    if (item.t2 >= 0) {
      const second = this.second;
      second.seq = seq + 1;
      second.time = epochMs(item.t2);
      second.leg = otherLeg(item.leg);
      second.direction = direction;
      second.origin = origin;
      second.kind = kind;
      second.method = first.method;
      second.id = first.id;
      second.size = size;
      second.firstByte = -1;
      second.delivered = second.leg === 'client' && item.td >= 0 ? epochMs(item.td) : -1;
      const more = tracker.observe(second, m);
      if (more !== undefined && completed !== undefined) {
        // Both legs completed exchanges (not a case the hub produces): two events, then.
        this.emit(session, first, m, -1, completed, false);
        traffic.nextSeq();
        this.emit(session, second, m, -1, more, false);
        return;
      }
      traffic.nextSeq();
      twinUs = Math.round(second.time * 1000) - Math.round(time * 1000);
      if (more !== undefined) {
        completed = more;
        twinCompletes = true;
      }
    }
    this.emit(session, first, m, twinUs, completed, twinCompletes);
  }

  /** The session learns from the event, the sink gets it, the subscribers its exchange. */
  private emit(session: TrafficSession, e: CapturedMessage, m: JsonRpcMessage, twinUs: number, completed: TrackedExchange | undefined, twinCompletes: boolean): void {
    const learned = session.learn(e, twinUs >= 0, this.json);
    const sink = this.traffic.sink;
    if (sink !== undefined) {
      e.twinUs = twinUs;
      e.completed = completed;
      e.twinCompletes = twinCompletes;
      e.learned = learned;
      sink.message(session, e);
    }
    if (completed !== undefined) this.traffic.completed(session, completed, completion(e.kind), e.note, m, e.size);
  }

  /** The message's redacted text (made on first use). */
  private redacted(): MessageText {
    if (!this.textReady) {
      messageText(this.raw, this.value, this.traffic.redactor, this.traffic.limits.maxMessageBytes, this.text);
      this.textReady = true;
    }
    return this.text;
  }

  /** A value (a request's params, an answer's result) as redacted JSON text, cut as a stored message is. */
  redactedText(value: unknown): string {
    const raw = stringifyOrUndefined(value);
    return jsonOf(messageText(raw ?? TOO_DEEP, raw === undefined ? undefined : value, this.traffic.redactor, this.traffic.limits.maxMessageBytes, this.spare));
  }
}
