/**
 * The two protocol eras inside one session's pairing (exchange-tracker.ts):
 *
 * - **Input rounds** (2026-07-28 multi-round-trip requests): a server that needs input answers
 *   `resultType: "input_required"` with `inputRequests` and a `requestState`; the client retries
 *   the same method with a new id, `inputResponses` and that `requestState`. Pairing keeps
 *   the whole round trip as one exchange: the `input_required` answer adds a round instead of
 *   completing it, and the retry is recognised by its `requestState` and continues it (its id
 *   becomes an alias of the exchange, so the final answer completes it).
 * - **The server's side of a bridged exchange** (events with note `bridged`, carrying `of`, the
 *   client's request id): their seqs are listed on the exchange, and an `input_required` the
 *   server answered there is a round too (a legacy client never sees it: the hub asks it with
 *   server requests, which are linked to the exchange as its children, `parent`).
 *
 * Nothing here runs for a legacy session that bridges nothing: the tracker asks only when a
 * message says `input_required`, carries a `requestState`, or is `bridged`.
 */
import type { CaptureEra, CaptureHttp, CaptureOrigin, ExchangeBridge, InputRound } from '../../../shared/api/inspector-contract.js';
import type { Id } from './exchange-lists.js';

/** What this needs of an exchange (the tracker's Exchange). */
export interface RoundTrip {
  readonly id: string;
  readonly method: string;
  readonly requester: CaptureOrigin;
  rounds: InputRound[] | undefined;
  bridge: ExchangeBridge | undefined;
  parent: string | undefined;
}

/** What this needs of an event. */
export interface RoundEvent {
  seq: number;
  time: number;
  id?: string | number | null | undefined;
}

type Obj = Record<string, unknown>;

/** Bounds: a misbehaving server could ask for input forever. */
const MAX_ROUNDS = 32;
const MAX_BRIDGE_SEQS = 256;
const MAX_ASKS = 64;

function object(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** A modern request's `Mcp-*` headers (the redacted HTTP headers, lower-case names as node gives them). */
export function mcpHeaders(http: CaptureHttp | undefined): Record<string, string> | undefined {
  const headers = http?.headers;
  if (headers === undefined) return undefined;
  let out: Record<string, string> | undefined;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower.startsWith('mcp-') && lower !== 'mcp-session-id') (out ??= {})[lower] = headers[name]!;
  }
  return out;
}

/** The result of a response that asks for input, else undefined. */
export function inputRequired(message: unknown): Obj | undefined {
  const result = object((message as { result?: unknown } | undefined)?.result);
  return result?.resultType === 'input_required' ? result : undefined;
}

/** The `requestState` a retry carries, else undefined. */
export function retryState(message: unknown): string | undefined {
  const state = object((message as { params?: unknown } | undefined)?.params)?.requestState;
  return typeof state === 'string' ? state : undefined;
}

/** What a request is about (its tool, prompt or resource), to tell apart retries that echo no requestState. */
function targetOf(method: string, message: unknown): string {
  const params = object((message as { params?: unknown } | undefined)?.params);
  const name = params?.name ?? params?.uri;
  return typeof name === 'string' ? `${method}\u0000${name}` : method;
}

function answeredKeys(message: unknown): string[] | undefined {
  const responses = object(object((message as { params?: unknown } | undefined)?.params)?.inputResponses);
  return responses === undefined ? undefined : Object.keys(responses);
}

function paramsText(params: unknown): string {
  return JSON.stringify(params ?? {});
}

export class RoundBook<X extends RoundTrip> {
  /** Exchanges waiting for the client's retry, by the requestState it must echo. */
  private readonly byState = new Map<string, X>();
  /** Retry ids (a new JSON-RPC id per round) → the exchange they continue. */
  private readonly aliases = new Map<Id, X>();
  /**
   * Exchanges waiting for a retry when the server gave no requestState (it is optional): a retry
   * with `inputResponses` continues the latest one of the same method and target.
   */
  private waiting: Array<{ x: X; target: string }> = [];
  /** The target of each modern request (targetOf), for `waiting`. */
  private readonly targets = new WeakMap<X, string>();
  /** What the hub asked a legacy client on behalf of a modern server's input round, not yet seen. */
  private asks: Array<{ x: X; method: string; params: string }> = [];

  constructor(
    /** The era of the session's client: a bridged server side is in the other one. */
    private readonly era: CaptureEra,
  ) {}

  /** The exchange a retry id continues. */
  alias(id: Id): X | undefined {
    return this.aliases.size === 0 ? undefined : this.aliases.get(id);
  }

  /**
   * A client request that carries a `requestState` this book issued a round for: records the
   * retry on the round and returns the exchange it continues (undefined: a request of its own).
   */
  retry(e: RoundEvent, method: string, id: Id, message: unknown): X | undefined {
    if (this.byState.size === 0 && this.waiting.length === 0) return undefined;
    const state = retryState(message);
    let x = state === undefined ? undefined : this.byState.get(state);
    if (x !== undefined) this.byState.delete(state!);
    else if (answeredKeys(message) !== undefined) {
      const target = targetOf(method, message);
      let i = this.waiting.length - 1;
      while (i >= 0 && this.waiting[i]!.target !== target) i--;
      if (i >= 0) x = this.waiting.splice(i, 1)[0]!.x;
    }
    if (x === undefined || x.method !== method) return undefined;
    const round = x.rounds?.[x.rounds.length - 1];
    if (round !== undefined && round.retrySeq === undefined) this.retried(round, e, id, message);
    this.aliases.set(id, x);
    return x;
  }

  /**
   * An `input_required` answer to `x` (`result`): a new round. `viaBridge`: it was the server's
   * answer to a bridge whose client is legacy — the hub will ask the client with server requests,
   * which are then linked to `x` (parentOf).
   */
  round(x: X, e: RoundEvent, result: Obj, viaBridge: boolean): void {
    const requested = object(result.inputRequests) ?? {};
    const requests: InputRound['requests'] = [];
    for (const [key, r] of Object.entries(requested)) {
      const method = object(r)?.method;
      if (typeof method !== 'string') continue;
      requests.push({ key, method });
      if (viaBridge && this.asks.length < MAX_ASKS) this.asks.push({ x, method, params: paramsText(object(r)?.params) });
    }
    const rounds = (x.rounds ??= []);
    if (rounds.length < MAX_ROUNDS) rounds.push({ seq: e.seq, time: e.time, requests });
    const state = result.requestState;
    if (viaBridge) return;
    if (typeof state === 'string') this.byState.set(state, x);
    else this.waiting.push({ x, target: this.targets.get(x) ?? x.method });
  }

  /** A modern client's request opened `x` (modern sessions only: the target for retries without requestState). */
  opened(x: X, message: unknown): void {
    this.targets.set(x, targetOf(x.method, message));
  }

  /**
   * A server request: when it is what a bridge asks a legacy client for one of an input round's
   * requests (same method and params), the exchange it belongs to.
   */
  parentOf(method: string, message: unknown): X | undefined {
    if (this.asks.length === 0) return undefined;
    const params = paramsText(object(message)?.params);
    let i = this.asks.findIndex((a) => a.method === method && a.params === params);
    if (i < 0) i = this.asks.findIndex((a) => a.method === method);
    if (i < 0) return undefined;
    const [ask] = this.asks.splice(i, 1);
    return ask!.x;
  }

  /**
   * A `bridged` event of `x`: what the server was sent or answered in its own era. Returns true
   * when it is the server's final answer (for the upstream timing).
   */
  bridged(x: X, e: RoundEvent & { kind: string; direction?: string | undefined }, message: unknown): boolean {
    const bridge = (x.bridge ??= { era: this.era === 'modern' ? 'legacy' : 'modern', seqs: [] });
    if (bridge.seqs.length < MAX_BRIDGE_SEQS) bridge.seqs.push(e.seq);
    if (e.kind === 'request' && e.direction === 'to-server' && (retryState(message) !== undefined || answeredKeys(message) !== undefined)) {
      // The hub retried the server's input round with the legacy client's answers.
      const round = x.rounds?.[x.rounds.length - 1];
      if (round !== undefined && round.retrySeq === undefined) this.retried(round, e, e.id, message);
      return false;
    }
    if (e.kind !== 'response' || e.direction !== 'to-client' || e.id === undefined) return false;
    // The server's answer to the bridge's request (not the client's answer to a server request).
    if (x.requester !== 'client' && x.requester !== 'hub') return false;
    const result = inputRequired(message);
    if (result !== undefined) {
      this.round(x, e, result, this.era === 'legacy');
      return false;
    }
    return true;
  }

  /** The exchange is over: forget its retry ids, its open state and its unseen asks. */
  forget(x: X): void {
    for (const round of x.rounds ?? []) if (round.retryId !== undefined && this.aliases.get(round.retryId) === x) this.aliases.delete(round.retryId);
    if (this.byState.size > 0) for (const [state, y] of this.byState) if (y === x) this.byState.delete(state);
    if (this.asks.length > 0) this.asks = this.asks.filter((a) => a.x !== x);
    if (this.waiting.length > 0) this.waiting = this.waiting.filter((w) => w.x !== x);
  }

  /** True when the exchange's last round is still waiting for the client's retry. */
  static waitingForInput(x: { readonly rounds?: InputRound[] | undefined }): boolean {
    const last = x.rounds?.[x.rounds.length - 1];
    return last !== undefined && last.retrySeq === undefined;
  }

  private retried(round: InputRound, e: RoundEvent, id: string | number | null | undefined, message: unknown): void {
    round.retrySeq = e.seq;
    if (typeof id === 'string' || typeof id === 'number') round.retryId = id;
    const keys = answeredKeys(message);
    if (keys !== undefined) round.answered = keys;
  }
}
