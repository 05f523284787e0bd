/**
 * Pairs a session's requests with their responses, progress notifications and cancellations.
 *
 * Request ids collide across directions (the client's id 0 and the server's own sampling request
 * id 0 in one session), so an exchange is keyed by who asked (client, server or hub) and the id.
 * Each message is seen on two legs; an exchange belongs to the leg its request was first seen on
 * (the client leg for a client's request: in shared mode only that leg has the client's ids), and
 * the answer on that leg completes it. The other leg only adds the upstream timing.
 *
 * Pairing is a pure function of the event sequence, so a session read back from the history
 * files is paired by the same code as a live one.
 */
import type { CaptureDirection, CaptureEra, CaptureHttp, CaptureLeg, CaptureOrigin, ExchangeStatus, ExchangeSummary, ProgressEntry } from '../../../shared/api/inspector-contract.js';
import { APP_ORIGIN_META_KEY } from '../../../shared/protocol.js';
import { Exchange, NO_PROGRESS, paramsOf, requestTarget, toolFailure, type TrackedExchange } from './exchange.js';
import { ByRequester, OpenList, RecentRing, type Id } from './exchange-lists.js';
import { inputRequired, mcpHeaders, RoundBook } from './input-rounds.js';
import { Ring } from '../lib/ring.js';
import type { TraceContext } from '../hub/tracing.js';

export interface PairingInput {
  seq: number;
  time: number;
  leg?: CaptureLeg | undefined;
  direction?: CaptureDirection | undefined;
  origin: CaptureOrigin;
  kind: string;
  method?: string | undefined;
  id?: string | number | null | undefined;
  note?: string | undefined;
  /** On `bridged` events: the client's request id the server-side message belongs to. */
  of?: string | number | undefined;
  /** A client request's HTTP details (redacted): a modern request's Mcp-* headers are read from them. */
  http?: CaptureHttp | undefined;
  /** UTF-8 bytes of the message as it crossed (a request's size is kept on its exchange). */
  size?: number | undefined;
  /** A server's message: when its first byte arrived (epoch ms); absent or -1 when unknown. */
  firstByte?: number | undefined;
  /** A message to the client: when it was written to the client (epoch ms); absent or -1 when unknown. */
  delivered?: number | undefined;
}

const MAX_PROGRESS = 32;
/** Traces waiting for their request (a member's session is told the trace just before the request). */
const MAX_EARLY_TRACES = 64;

type Counts = Record<ExchangeStatus, number>;

function isId(v: unknown): v is string | number {
  return typeof v === 'string' || typeof v === 'number';
}

function countStatus(counts: Counts, status: ExchangeStatus): void {
  switch (status) {
    case 'ok':
      counts.ok++;
      return;
    case 'error':
      counts.error++;
      return;
    case 'cancelled':
      counts.cancelled++;
      return;
    case 'timeout':
      counts.timeout++;
      return;
    case 'orphaned':
      counts.orphaned++;
      return;
    case 'pending':
      counts.pending++;
      return;
  }
}

/** Who may have asked, in the order to look (constant arrays: one less allocation per message). */
const SERVER: readonly CaptureOrigin[] = ['server'];
const HUB_CLIENT: readonly CaptureOrigin[] = ['hub', 'client'];
const CLIENT_HUB: readonly CaptureOrigin[] = ['client', 'hub'];

export class ExchangeTracker {
  /** In request order (requestSeq grows). */
  readonly exchanges = new Ring<ExchangeSummary>();
  /** By status, over the session's life (not only what is still in the ring). */
  readonly counts: Counts = { pending: 0, ok: 0, error: 0, cancelled: 0, timeout: 0, orphaned: 0 };
  exchangesSeen = 0;
  /** The exchange the last request opened (the pipeline reads and clears it to keep its params' text). */
  opened: TrackedExchange | undefined = undefined;
  private readonly open = new ByRequester(new OpenList<Exchange>(), new OpenList<Exchange>(), new OpenList<Exchange>());
  /** Keyed by the token itself (a Map tells 1 from "1"): no key strings to build. */
  private readonly byProgress = new ByRequester(new Map<Id, Exchange>(), new Map<Id, Exchange>(), new Map<Id, Exchange>());
  /** Recently closed exchanges, for late responses and the other leg's copies. */
  private readonly recent = new ByRequester(new RecentRing<Exchange>(), new RecentRing<Exchange>(), new RecentRing<Exchange>());
  /** Input rounds and bridged server sides (input-rounds.ts). */
  private readonly rounds: RoundBook<Exchange>;
  /** Traces told before their request was seen (traced), by request id; made on first use. */
  private earlyTraces: Map<string | number, TraceContext> | undefined;

  constructor(
    private readonly session: string,
    private readonly server: string,
    private readonly maxExchanges: number,
    private readonly client: () => string | undefined,
    /** Applied to every text copied out of a message (error messages, reasons): redaction. */
    private readonly scrub: (text: string) => string = (t) => t,
    /** The era of the session's client. */
    private readonly era: CaptureEra = 'legacy',
  ) {
    this.rounds = new RoundBook(era);
  }

  /** Feeds one event and its parsed message; returns the exchange it completed (one at most). */
  observe(e: PairingInput, message: unknown): TrackedExchange | undefined {
    if (e.note === 'bridged') return this.bridged(e, message);
    if (e.kind === 'request' && e.method !== undefined && isId(e.id)) return this.request(e, e.method, e.id, message);
    if (e.kind === 'response' && isId(e.id)) return this.response(e, e.id, message);
    if (e.kind === 'notification' && e.method === 'notifications/cancelled') return this.cancelled(e, message);
    if (e.kind === 'notification' && e.method === 'notifications/progress') this.progress(e, message);
    return undefined;
  }

  /**
   * The hub traced a client's request it forwarded (hub/tracing.ts): its exchange keeps the ids.
   * Where the request is seen only as it goes upstream (a profile member's session: the trace is
   * told just before), the ids wait for it (a few, briefly: the request follows at once).
   */
  traced(id: string | number, ctx: TraceContext): void {
    const x = this.pending('client', id);
    if (x !== undefined) {
      x.traceContext = ctx;
      return;
    }
    const early = (this.earlyTraces ??= new Map());
    if (early.size >= MAX_EARLY_TRACES) early.delete(early.keys().next().value!);
    early.set(id, ctx);
  }

  /** Up to `limit` exchanges whose request came after `seq`, oldest first. */
  exchangesAfter(seq: number, limit: number): ExchangeSummary[] {
    const out: ExchangeSummary[] = [];
    const ring = this.exchanges;
    for (let i = ring.firstIndexWhere((x) => x.requestSeq > seq); i < ring.length && out.length < limit; i++) out.push(ring.at(i)!);
    return out;
  }

  /**
   * Drops the oldest finished exchanges whose request came before `seq`: the session's events
   * before it have left memory, and its exchanges go with them (the history files still have
   * both). It stops at one still open, which must stay to be paired.
   */
  dropBefore(seq: number): void {
    const ring = this.exchanges;
    for (let x = ring.first; x !== undefined && x.requestSeq < seq && x.status !== 'pending'; x = ring.first) ring.shift();
  }

  /** The session ended: whatever is still open was never answered. */
  endSession(time: number, reason: string): TrackedExchange[] {
    const out: TrackedExchange[] = [];
    const open = [...this.open.client.values(), ...this.open.server.values(), ...this.open.hub.values()].sort((a, b) => a.requestSeq - b.requestSeq);
    for (const x of open) out.push(this.close(x, 'orphaned', time, undefined, RoundBook.waitingForInput(x) ? 'the client never retried with the input the server asked for' : reason));
    return out;
  }

  /** The server's side of a bridged exchange: kept on the client's exchange it belongs to. */
  private bridged(e: PairingInput, message: unknown): undefined {
    const of = e.of;
    if (!isId(of)) return undefined;
    const x = this.pending('client', of) ?? this.rounds.alias(of) ?? this.pending('hub', of);
    if (x === undefined) return undefined;
    if (e.kind === 'request' && e.direction === 'to-server' && !x.seenOnOtherLeg) x.otherLegRequest(e.time);
    if (this.rounds.bridged(x, e, message)) x.otherLegResponse(e.time);
    return undefined;
  }

  private request(e: PairingInput, method: string, id: string | number, message: unknown): TrackedExchange | undefined {
    const requester: CaptureOrigin = e.origin;
    const continued = requester === 'server' ? undefined : this.rounds.alias(id);
    // The other leg of a retry already continuing its exchange (a pass-through pair).
    if (continued !== undefined && continued.firstLeg !== e.leg) return undefined;
    if (requester !== 'server' && this.rounds.retry(e, method, id, message) !== undefined) return undefined;
    const existing = this.pending(requester, id);
    if (existing && existing.firstLeg !== e.leg && !existing.seenOnOtherLeg) {
      existing.otherLegRequest(e.time);
      return undefined;
    }
    const completed = existing ? this.close(existing, 'orphaned', e.time, undefined, 'its id was reused by a new request') : undefined;
    const x = new Exchange(this.session, this.server, requester, id, method, e.time, e.seq, e.leg);
    if (this.earlyTraces !== undefined && requester === 'client') {
      const ctx = this.earlyTraces.get(id);
      if (ctx !== undefined) {
        x.traceContext = ctx;
        this.earlyTraces.delete(id);
      }
    }
    const client = this.client();
    if (client !== undefined) x.client = client;
    x.era = this.era;
    if (this.era === 'modern') {
      if (e.http !== undefined) x.headers = mcpHeaders(e.http);
      this.rounds.opened(x, message);
    }
    if (requester === 'server') {
      const parent = this.rounds.parentOf(method, message);
      if (parent !== undefined) x.parent = parent.id;
      else x.enclosing = this.oldestOpenCall()?.id;
    }
    const params = paramsOf(message);
    x.target = requestTarget(method, params);
    x.requestBytes = e.size;
    const meta = params?._meta as { progressToken?: unknown; [APP_ORIGIN_META_KEY]?: unknown } | undefined;
    // The playground marks the calls an MCP App it renders made (playground-session.ts).
    if (meta?.[APP_ORIGIN_META_KEY] === 'app' && requester === 'client') x.madeBy = 'app';
    if (meta && isId(meta.progressToken)) {
      x.progressToken = meta.progressToken;
      this.byProgress.of(requester).set(meta.progressToken, x);
    }
    this.open.of(requester).add(x);
    this.opened = x;
    this.exchanges.push(x);
    this.counts.pending++;
    this.exchangesSeen++;
    while (this.exchanges.length > this.maxExchanges) {
      const old = this.exchanges.shift() as Exchange;
      if (old.status === 'pending') {
        // Dropped from memory before it completed: it can no longer be paired.
        this.forget(old);
        this.counts.pending--;
      }
    }
    return completed;
  }

  private response(e: PairingInput, id: string | number, message: unknown): TrackedExchange | undefined {
    const candidates = e.direction === 'to-server' ? SERVER : e.leg === 'upstream' ? HUB_CLIENT : CLIENT_HUB;
    // Open exchanges first (as the hub itself routes: its own waiters, then the client's).
    let x: Exchange | undefined;
    for (const who of candidates) x ??= this.pending(who, id);
    if (e.direction === 'to-client') x ??= this.rounds.alias(id);
    for (const who of candidates) x ??= this.recent.of(who).find(id);
    if (!x) return undefined;
    if (x.status !== 'pending') {
      // Cancelled or timed out already: the server's answer came late, and the hub dropped it.
      if (e.leg !== x.firstLeg && x.lateResponseSeq === undefined && x.status !== 'ok' && x.status !== 'error') x.lateResponseSeq = e.seq;
      return undefined;
    }
    if (e.leg !== x.firstLeg) {
      x.otherLegResponse(e.time);
      if (e.firstByte !== undefined && e.firstByte >= 0) x.firstByteAt(e.firstByte);
      return undefined;
    }
    // A multi-round-trip request asks for input: a round of the same exchange, not its end.
    const asks = e.direction === 'to-client' ? inputRequired(message) : undefined;
    if (asks !== undefined) {
      this.rounds.round(x, e, asks, false);
      return undefined;
    }
    const error = (message as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    let status: ExchangeStatus = error ? 'error' : 'ok';
    if (e.note === 'timeout') status = 'timeout';
    else if (e.note === 'upstream-closed' || e.note === 'session-closed') status = 'orphaned';
    let reason = status !== 'ok' && status !== 'error' && error && typeof error.message === 'string' ? this.scrub(error.message) : undefined;
    if (status === 'ok' && x.method === 'tools/call') {
      const failure = toolFailure(message);
      if (failure !== undefined) {
        status = 'error';
        x.isError = true;
        if (failure !== '') reason = this.scrub(failure);
      }
    }
    const done = this.close(x, status, e.time, e.seq, reason);
    if (e.delivered !== undefined && e.delivered >= 0) x.deliveredAt(e.delivered);
    if (error && typeof error.code === 'number' && typeof error.message === 'string') x.error = { code: error.code, message: this.scrub(error.message) };
    return done;
  }

  private cancelled(e: PairingInput, message: unknown): TrackedExchange | undefined {
    const params = paramsOf(message);
    const requestId = params?.requestId;
    if (!isId(requestId)) return undefined;
    // The hub cancels a client's request when it times out, on the client's behalf.
    const requesters = e.direction === 'to-server' ? CLIENT_HUB : SERVER;
    for (const who of requesters) {
      const x = this.pending(who, requestId);
      if (!x) continue;
      x.cancelSeq ??= e.seq;
      if (e.note === 'timeout') return undefined;
      if (e.leg !== x.firstLeg && e.origin !== 'hub') return undefined;
      const reason = typeof params?.reason === 'string' ? this.scrub(params.reason) : undefined;
      return this.close(x, 'cancelled', e.time, undefined, reason);
    }
    return undefined;
  }

  private progress(e: PairingInput, message: unknown): void {
    const params = paramsOf(message);
    const token = params?.progressToken;
    if (!isId(token)) return;
    const requesters = e.direction === 'to-client' ? CLIENT_HUB : SERVER;
    for (const who of requesters) {
      const x = this.byProgress.of(who).get(token);
      if (!x || e.leg !== x.firstLeg) continue;
      const entry: ProgressEntry = { seq: e.seq, time: e.time };
      if (typeof params?.progress === 'number') entry.progress = params.progress;
      if (typeof params?.total === 'number') entry.total = params.total;
      if (typeof params?.message === 'string') entry.message = this.scrub(params.message);
      if (x.progress === NO_PROGRESS) x.progress = [];
      x.progress.push(entry);
      if (x.progress.length > MAX_PROGRESS) x.progress.shift();
      x.progressCount++;
      return;
    }
  }

  private close(x: Exchange, status: ExchangeStatus, time: number, responseSeq: number | undefined, reason: string | undefined): TrackedExchange {
    this.forget(x);
    this.counts.pending--;
    countStatus(this.counts, status);
    x.finish(status, time, responseSeq, reason);
    if (x.client === undefined) {
      // The client's own initialize is answered before its name is known to the session.
      const client = this.client();
      if (client !== undefined) x.client = client;
    }
    this.recent.of(x.requester).add(x);
    return x;
  }

  /**
   * The oldest request of the client (or the hub in its place) still open: where the hub sends a
   * server's request that names no request of its own (a stdio server's sampling during a call).
   * Server requests are rare, and few calls are open at a time: a scan.
   */
  private oldestOpenCall(): Exchange | undefined {
    let oldest: Exchange | undefined;
    for (const list of [this.open.client, this.open.hub]) for (const x of list.values()) if (oldest === undefined || x.requestSeq < oldest.requestSeq) oldest = x;
    return oldest;
  }

  /** The open exchange of a requester with this id. */
  private pending(requester: CaptureOrigin, id: Id): Exchange | undefined {
    return this.open.of(requester).get(id);
  }

  /** No longer open (the caller closes it or drops it). */
  private forget(x: Exchange): void {
    this.open.of(x.requester).delete(x);
    if (x.rounds !== undefined || x.bridge !== undefined) this.rounds.forget(x);
    const token = x.progressToken;
    if (token !== undefined) {
      const byProgress = this.byProgress.of(x.requester);
      if (byProgress.get(token) === x) byProgress.delete(token);
    }
  }
}
