/**
 * A session's timeline, built incrementally from captured events: one row per exchange (request
 * with its answer), notification, stderr line or lifecycle change. Rows keep metadata only (no
 * message bodies: those are fetched when a row is opened), so 100k-message sessions stay small.
 * Mutable on purpose — appending 1,000 messages a second must not copy the array each time; the
 * store publishes a version number instead.
 *
 * What happens during a call belongs to it: its progress notifications update the call's row
 * (x / total) and are nested under it, one row each, as are the requests the server makes
 * meanwhile (sampling, elicitation, roots) and its log messages. Stdio carries no link between
 * them, so the row is found as the hub routes them: the progress token, else the oldest call
 * still running.
 *
 * The modern era (2026-07-28): a call the server answers `input_required` and the client retries
 * (with a new id, `inputResponses` and the echoed `requestState`) stays one row, its rounds
 * nested under it; the server's side of a call the hub bridged between eras (events with note
 * `bridged`) belongs to the call's row too, not rows of its own.
 */
import { APP_ORIGIN_META_KEY } from '../../shared/protocol.js';
import type { CaptureEvent, CaptureOrigin, ExchangeStatus, ExchangeSummary } from '../../shared/api/inspector-contract.js';

export interface RowProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

export interface TimelineRow {
  /** Seq of the event that created the row (for an exchange: its request's first sighting). */
  seq: number;
  kind: 'exchange' | 'notification' | 'stderr' | 'lifecycle';
  time: number;
  origin: CaptureOrigin;
  method?: string | undefined;
  /** What the call is about: the tool, prompt or resource (URI) it names. */
  target?: string | undefined;
  status?: ExchangeStatus | undefined;
  /** A tool that answered with `isError: true`. */
  isError?: boolean | undefined;
  latencyMs?: number | undefined;
  requestSize?: number | undefined;
  responseSize?: number | undefined;
  responseSeq?: number | undefined;
  /** stderr line or lifecycle text; for a failed exchange, the error message. */
  text?: string | undefined;
  /** Latest progress of a running call, and how many notifications it had. */
  progress?: RowProgress | undefined;
  progressCount?: number | undefined;
  /** Index of the call this row happened during (nested under it). */
  parent?: number | undefined;
  /** Indexes of the rows nested under this one. */
  children?: number[] | undefined;
  /** A multi-round-trip call: how many times the server asked for input. */
  rounds?: number | undefined;
  /** For an input round's row: the input the server asked for (methods), and whether the client retried. */
  asked?: string[] | undefined;
  /** Messages of the server's side of a call the hub bridged between eras. */
  bridged?: number | undefined;
  /** A call an MCP App made from the playground (its `_meta["patchbay/origin"]`), not the person. */
  byApp?: true | undefined;
}

const FAILED: ReadonlySet<ExchangeStatus> = new Set(['error', 'timeout', 'orphaned']);

export function isErrorRow(row: TimelineRow): boolean {
  return row.status !== undefined && FAILED.has(row.status);
}

/** Notifications that belong to the call in flight (the hub puts them on its stream). */
const NESTED_NOTIFICATIONS = new Set(['notifications/message']);

function params(e: CaptureEvent): Record<string, unknown> | undefined {
  const p = (e.message as { params?: unknown } | undefined)?.params;
  return p !== null && typeof p === 'object' ? (p as Record<string, unknown>) : undefined;
}

/** The tool, prompt or resource a request names. */
export function targetOf(method: string | undefined, p: Record<string, unknown> | undefined): string | undefined {
  if (!p || !method) return undefined;
  if (typeof p.name === 'string' && (method === 'tools/call' || method === 'prompts/get')) return p.name;
  if (typeof p.uri === 'string' && method.startsWith('resources/')) return p.uri;
  if (method === 'completion/complete') {
    const ref = p.ref as { name?: unknown; uri?: unknown } | undefined;
    const arg = p.argument as { name?: unknown } | undefined;
    const what = typeof ref?.name === 'string' ? ref.name : typeof ref?.uri === 'string' ? ref.uri : undefined;
    return what && typeof arg?.name === 'string' ? `${what} · ${arg.name}` : what;
  }
  return undefined;
}

/** What a notification says, in a few words (a log line's level and text, the resource that changed). */
function notificationSummary(method: string | undefined, p: Record<string, unknown> | undefined): string | undefined {
  if (!p) return undefined;
  if (method === 'notifications/message') {
    const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
    return `${typeof p.level === 'string' ? p.level : 'log'}: ${data ?? ''}`.slice(0, 160);
  }
  if (method === 'notifications/resources/updated' && typeof p.uri === 'string') return p.uri;
  if (method === 'notifications/cancelled' && p.requestId !== undefined) return `request ${String(p.requestId)}${typeof p.reason === 'string' ? `: ${p.reason}` : ''}`.slice(0, 160);
  return undefined;
}

/** A progress notification in a few words: `3 / 8 · step 3`. */
function progressText(p: RowProgress): string {
  const amount = p.total !== undefined ? `${p.progress} / ${p.total}` : String(p.progress);
  return p.message ? `${amount} · ${p.message}`.slice(0, 160) : amount;
}

type Id = string | number;

function object(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
const key = (origin: CaptureOrigin, id: Id | null | undefined): string => `${origin}:${typeof id === 'number' ? 'n' : 's'}${String(id)}`;

export class TimelineModel {
  readonly rows: TimelineRow[] = [];
  /** Row index by the seq of any event that belongs to it (request, response, progress). */
  private readonly bySeq = new Map<number, number>();
  /** Requests not answered yet: `${origin}:${id}` → row index (in request order). */
  private readonly open = new Map<string, number>();
  /** Client calls still running, oldest first: where a server's own requests belong. */
  private readonly running = new Set<number>();
  private readonly byProgressToken = new Map<string, number>();
  /** Calls waiting for a retry with input: by requestState, else by `method target` (the state is optional). */
  private readonly awaiting = new Map<string, { call: number; round: number }>();
  private readonly methodSet = new Set<string>();
  private readonly targetSet = new Set<string>();
  /** Rows nested under another: while none is, the view needs no display list. */
  nested = 0;
  /** The longest latency of any answered call (the scale of the latency bars). */
  maxLatency = 0;
  lastSeq = 0;

  get methods(): string[] {
    return [...this.methodSet].sort();
  }

  /** Tool, prompt and resource names seen, sorted. */
  get targets(): string[] {
    return [...this.targetSet].sort();
  }

  indexOfSeq(seq: number): number | undefined {
    return this.bySeq.get(seq);
  }

  add(events: readonly CaptureEvent[]): void {
    for (const e of events) this.addOne(e);
  }

  private addOne(e: CaptureEvent): void {
    if (e.seq <= this.lastSeq) return; // replayed after a reconnect: seen already
    this.lastSeq = e.seq;
    switch (e.kind) {
      case 'stderr':
        this.push({ seq: e.seq, kind: 'stderr', time: e.time, origin: e.origin, text: e.text ?? '' });
        break;
      case 'lifecycle':
        this.push({ seq: e.seq, kind: 'lifecycle', time: e.time, origin: e.origin, text: e.text ?? e.note ?? 'session changed' });
        break;
      case 'request':
        if (e.note === 'bridged') this.bridged(e);
        else this.request(e);
        break;
      case 'notification':
        this.notification(e);
        break;
      case 'response': {
        if (e.note === 'bridged') {
          this.bridged(e);
          break;
        }
        // Either leg of an answer leads to its row (a search hit on the server's leg too).
        const candidates: CaptureOrigin[] = e.direction === 'to-server' ? ['server'] : ['client', 'hub'];
        for (const origin of candidates) {
          const index = this.open.get(key(origin, e.id));
          if (index !== undefined) {
            this.bySeq.set(e.seq, index);
            if (e.leg === 'client') this.inputRound(e, index);
            break;
          }
        }
        break;
      }
      default:
        break;
    }
    if (e.exchanges) for (const x of e.exchanges) this.complete(x, e);
  }

  private request(e: CaptureEvent): void {
    const k = key(e.origin, e.id);
    const seen = this.open.get(k);
    if (seen !== undefined) {
      // The same request on its second leg (client → hub → server): one row, not two.
      this.bySeq.set(e.seq, seen);
      return;
    }
    const p = params(e);
    if (this.awaiting.size > 0 && e.origin === 'client' && p?.inputResponses !== undefined && this.retry(e, k, p)) return;
    const row: TimelineRow = { seq: e.seq, kind: 'exchange', time: e.time, origin: e.origin, method: e.method, status: 'pending', requestSize: e.size };
    const target = targetOf(e.method, p);
    if (target !== undefined) {
      row.target = target;
      this.targetSet.add(target);
    }
    if (e.origin === 'server') this.nestUnderRunning(row);
    const index = this.push(row);
    this.open.set(k, index);
    if (e.method) this.methodSet.add(e.method);
    if (e.origin === 'client') {
      this.running.add(index);
      const meta = p?._meta as { progressToken?: unknown; [APP_ORIGIN_META_KEY]?: unknown } | undefined;
      if (meta?.[APP_ORIGIN_META_KEY] === 'app') row.byApp = true;
      const token = meta?.progressToken;
      if (typeof token === 'string' || typeof token === 'number') this.byProgressToken.set(String(token), index);
    }
  }

  private notification(e: CaptureEvent): void {
    if (!firstLeg(e)) return;
    if (e.method === 'notifications/progress') {
      const p = params(e);
      const token = p?.progressToken;
      const index = typeof token === 'string' || typeof token === 'number' ? this.byProgressToken.get(String(token)) : undefined;
      if (index !== undefined) {
        const row = this.rows[index]!;
        const progress: RowProgress = { progress: Number(p?.progress ?? 0), total: typeof p?.total === 'number' ? p.total : undefined, message: typeof p?.message === 'string' ? p.message : undefined };
        row.progress = progress;
        row.progressCount = (row.progressCount ?? 0) + 1;
        // Each notification is also a row of its own, nested under its call: listable, searchable
        // and in the method filter, while the call's row shows the latest.
        this.push({ seq: e.seq, kind: 'notification', time: e.time, origin: e.origin, method: e.method, requestSize: e.size, target: progressText(progress), parent: index });
        this.methodSet.add(e.method);
        return;
      }
    }
    const row: TimelineRow = { seq: e.seq, kind: 'notification', time: e.time, origin: e.origin, method: e.method, requestSize: e.size };
    const summary = notificationSummary(e.method, params(e));
    if (summary !== undefined) row.target = summary;
    if (e.origin === 'server' && e.method !== undefined && NESTED_NOTIFICATIONS.has(e.method)) this.nestUnderRunning(row);
    this.push(row);
    if (e.method) this.methodSet.add(e.method);
  }

  /** An `input_required` answer to a call: a round row nested under it; the call waits for the retry. */
  private inputRound(e: CaptureEvent, call: number): void {
    const result = object((e.message as { result?: unknown } | undefined)?.result);
    if (result?.resultType !== 'input_required') return;
    const requests = Object.values(object(result.inputRequests) ?? {}).map((r) => object(r)?.method).filter((m): m is string => typeof m === 'string');
    const row = this.rows[call]!;
    row.rounds = (row.rounds ?? 0) + 1;
    const round = this.push({ seq: e.seq, kind: 'notification', time: e.time, origin: 'server', method: 'input required', target: requests.join(', '), status: 'pending', asked: requests, parent: call });
    const state = result.requestState;
    this.awaiting.set(typeof state === 'string' ? `state:${state}` : `target:${row.method ?? ''} ${row.target ?? ''}`, { call, round });
  }

  /** A client request with `inputResponses`: the retry of a call waiting for input, when one is. */
  private retry(e: CaptureEvent, k: string, p: Record<string, unknown>): boolean {
    const state = p.requestState;
    const byState = typeof state === 'string' ? `state:${state}` : undefined;
    const byTarget = `target:${e.method ?? ''} ${targetOf(e.method, p) ?? ''}`;
    const waiting = (byState !== undefined ? this.awaiting.get(byState) : undefined) ?? this.awaiting.get(byTarget);
    if (waiting === undefined) return false;
    this.awaiting.delete(byState !== undefined && this.awaiting.has(byState) ? byState : byTarget);
    this.open.set(k, waiting.call);
    this.bySeq.set(e.seq, waiting.call);
    const round = this.rows[waiting.round]!;
    round.status = 'ok';
    round.responseSeq = e.seq;
    return true;
  }

  /** The server's side of a bridged call: part of the call's row (found by the client's request id). */
  private bridged(e: CaptureEvent): void {
    const index = this.open.get(key('client', e.of)) ?? this.open.get(key('hub', e.of));
    if (index === undefined) return;
    this.bySeq.set(e.seq, index);
    const row = this.rows[index]!;
    row.bridged = (row.bridged ?? 0) + 1;
    // A legacy client never sees the server's input_required: its round is on the server's side.
    if (e.kind === 'response' && e.direction === 'to-client') this.inputRound(e, index);
    if (e.kind === 'request' && e.direction === 'to-server' && params(e)?.inputResponses !== undefined) {
      for (const [k, waiting] of this.awaiting) {
        if (waiting.call !== index) continue;
        this.awaiting.delete(k);
        this.rows[waiting.round]!.status = 'ok';
        this.rows[waiting.round]!.responseSeq = e.seq;
      }
    }
  }

  /** Nests a server's message under the oldest call still running, as the hub routes it. */
  private nestUnderRunning(row: TimelineRow): void {
    for (const parent of this.running) {
      row.parent = parent;
      return;
    }
  }

  private complete(x: ExchangeSummary, e: CaptureEvent): void {
    let index = this.bySeq.get(x.requestSeq);
    if (index === undefined) {
      // Its request is older than what was loaded (the session's memory was trimmed): show it anyway.
      index = this.push({ seq: x.requestSeq, kind: 'exchange', time: x.startedAt, origin: x.requester, method: x.method });
      this.methodSet.add(x.method);
    }
    const row = this.rows[index]!;
    row.status = x.status;
    row.latencyMs = x.latencyMs;
    if (x.latencyMs !== undefined && x.latencyMs > this.maxLatency) this.maxLatency = x.latencyMs;
    if (x.isError) row.isError = true;
    if (e.kind === 'response') {
      row.responseSize = e.size;
      row.responseSeq = e.seq;
      this.bySeq.set(e.seq, index);
    }
    if (x.error) row.text = x.error.message;
    else if (x.reason) row.text = x.reason;
    this.open.delete(key(x.requester, x.requestId));
    for (const round of x.rounds ?? []) if (round.retryId !== undefined) this.open.delete(key(x.requester, round.retryId));
    this.running.delete(index);
  }

  private push(row: TimelineRow): number {
    const index = this.rows.push(row) - 1;
    this.bySeq.set(row.seq, index);
    if (row.parent !== undefined) {
      const parent = this.rows[row.parent]!;
      (parent.children ??= []).push(index);
      this.nested++;
    }
    return index;
  }
}

/** A message crosses two legs; the row is made where it enters the hub. */
function firstLeg(e: CaptureEvent): boolean {
  if (e.origin === 'client') return e.leg === 'client';
  if (e.origin === 'server') return e.leg === 'upstream';
  return true;
}
