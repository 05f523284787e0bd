/**
 * Reading what the inspector captured: sessions (live and past), a session's events and
 * exchanges, and search. Memory answers first; the history files answer for what memory no
 * longer holds (older events, sessions from before a restart).
 */
import type { CaptureEvent, Exchange, ExchangeSummary, InspectorSession, InspectorSessionState } from '../../../shared/api/inspector-contract.js';
import { ApiError } from '../api/api-registry.js';
import { Exchange as TrackerExchange } from '../traffic/exchange.js';
import { ExchangeTracker } from '../traffic/exchange-tracker.js';
import { fileEvents, historyEvents, listHistoryFiles } from './history-read.js';
import type { Inspector } from './inspector.js';
import { exchangeSummary, toApiEvent, type CapturedLeg } from './stored-event.js';

export interface SessionFilter {
  server?: string | undefined;
  client?: string | undefined;
  state?: InspectorSessionState | undefined;
  since?: number | string | undefined;
  until?: number | string | undefined;
  limit: number;
  offset: number;
}

/** Exchanges rebuilt from history are bounded too (a huge session is paged, not loaded whole). */
const MAX_REBUILT_EXCHANGES = 100_000;

function millis(t: number | string | undefined): number | undefined {
  return t === undefined ? undefined : typeof t === 'number' ? t : Date.parse(t);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One event of a bridged exchange's server side, as `inspector.exchanges.list` (full) returns it. */
function serverMessage(seq: number, e: CaptureEvent | undefined): NonNullable<Exchange['serverMessages']>[number] {
  const out: NonNullable<Exchange['serverMessages']>[number] = { seq };
  if (e?.direction !== undefined) out.direction = e.direction;
  if (e?.message !== undefined) out.message = e.message;
  if (e?.http?.headers !== undefined) out.headers = e.http.headers;
  return out;
}

export class InspectorQueries {
  constructor(private readonly inspector: Inspector) {}

  async listSessions(f: SessionFilter): Promise<{ sessions: InspectorSession[]; total: number }> {
    await this.inspector.historyReady;
    // What is still queued (drains run in batches) counts too.
    this.inspector.flush();
    const { memory } = this.inspector;
    const since = millis(f.since);
    const until = millis(f.until);
    const client = f.client?.toLowerCase();
    const all = [...[...memory.sessions.values()].map((r) => r.summary(true)), ...memory.past.values()].filter(
      (s) =>
        (f.server === undefined || s.server === f.server) &&
        (f.state === undefined || s.state === f.state) &&
        (client === undefined || (s.client?.name.toLowerCase().includes(client) ?? false)) &&
        (since === undefined || (s.endedAt ?? Infinity) >= since) &&
        (until === undefined || s.startedAt <= until),
    );
    all.sort((a, b) => b.startedAt - a.startedAt);
    return { sessions: all.slice(f.offset, f.offset + f.limit), total: all.length };
  }

  async session(id: string): Promise<InspectorSession> {
    await this.inspector.historyReady;
    this.inspector.flush();
    const s = this.inspector.memory.summary(id);
    if (!s) throw new ApiError('session_not_found', `No captured session '${id}' (it may have expired from history); list them with inspector.sessions.list`);
    return s;
  }

  /** Captured events in seq order, after a cursor, optionally of one session or server. */
  async events(q: { session?: string | undefined; server?: string | undefined; after?: number | undefined; limit: number }): Promise<{ events: CaptureEvent[]; next?: number }> {
    if (q.session !== undefined) await this.session(q.session);
    this.inspector.flush();
    const after = q.after ?? 0;
    const accept = (e: { session: string; server: string }): boolean => (q.session === undefined || e.session === q.session) && (q.server === undefined || e.server === q.server);
    const out: CaptureEvent[] = [];
    const oldest = this.inspector.memory.oldestSeq;
    let last = after;
    if (this.inspector.writer && (oldest === undefined || after < oldest - 1)) {
      await this.inspector.writer.settled();
      const needle = q.session !== undefined ? `"session":"${q.session}"` : undefined;
      for await (const e of historyEvents(this.inspector.historyDir, { after, accept, ...(needle ? { line: (l: string) => l.includes(needle) } : {}) })) {
        if (oldest !== undefined && e.seq >= oldest) break;
        out.push(e);
        last = e.seq;
        if (out.length >= q.limit) return { events: out, next: last };
      }
    }
    const record = q.session !== undefined ? this.inspector.memory.sessions.get(q.session) : undefined;
    const ring = record && record.events.first && record.events.first.seq <= last + 1 ? record.events : this.inspector.memory.all;
    for (const e of ring.after(last, q.limit - out.length, accept)) out.push(toApiEvent(e));
    return out.length >= q.limit ? { events: out, next: out[out.length - 1]!.seq } : { events: out };
  }

  /** Every event of one session (memory when it holds them all, else the history files). */
  async sessionEvents(id: string): Promise<CaptureEvent[]> {
    const summary = await this.session(id);
    this.inspector.flush();
    const record = this.inspector.memory.sessions.get(id);
    if (record && summary.firstSeq !== undefined && record.events.first?.seq === summary.firstSeq) return [...record.events].map(toApiEvent);
    const out: CaptureEvent[] = [];
    for (;;) {
      const page = await this.events({ session: id, after: out[out.length - 1]?.seq, limit: 5000 });
      out.push(...page.events);
      if (page.next === undefined) return out;
    }
  }

  async exchanges(q: { session: string; after?: number | undefined; limit: number; full: boolean }): Promise<{ exchanges: Exchange[]; next?: number }> {
    const summary = await this.session(q.session);
    this.inspector.flush();
    const record = this.inspector.memory.sessions.get(q.session);
    const after = q.after ?? -1;
    let page: ExchangeSummary[];
    let eventAt: (seq: number) => CaptureEvent | undefined;
    const ring = record?.tracker.exchanges;
    if (record && ring && (record.tracker.exchangesSeen === ring.length || (ring.first !== undefined && after >= ring.first.requestSeq))) {
      page = record.tracker.exchangesAfter(after, q.limit);
      eventAt = (seq) => {
        const e = record.events.find(seq) ?? this.inspector.memory.find(seq);
        return e === undefined ? undefined : toApiEvent(e);
      };
    } else {
      const rebuilt = await this.rebuildPage(summary, after, q.limit, q.full);
      page = rebuilt.page;
      eventAt = (seq) => rebuilt.messages.get(seq);
    }
    const messages = (seq: number): unknown => eventAt(seq)?.message;
    const exchanges: Exchange[] = page.map((x) => {
      const full: Exchange = exchangeSummary(x);
      if (q.full) {
        full.request = messages(x.requestSeq);
        if (x.responseSeq !== undefined) full.response = messages(x.responseSeq);
        if (x.rounds !== undefined) full.roundMessages = x.rounds.map((r) => ({ inputRequired: messages(r.seq), ...(r.retrySeq !== undefined ? { retry: messages(r.retrySeq) } : {}) }));
        if (x.bridge !== undefined) full.serverMessages = x.bridge.seqs.map((seq) => serverMessage(seq, eventAt(seq)));
      }
      return full;
    });
    const last = page[page.length - 1];
    return page.length >= q.limit && last ? { exchanges, next: last.requestSeq } : { exchanges };
  }

  /**
   * A page of exchanges that memory no longer holds, paired again from the session's events
   * (history, then memory) from the cursor on: as far as it takes for the page's exchanges to be
   * answered, not the whole session (a click on one old exchange, or an export paging a long
   * session, would otherwise read it all again for every page).
   */
  private async rebuildPage(summary: InspectorSession, after: number, limit: number, full: boolean): Promise<{ page: ExchangeSummary[]; messages: Map<number, CaptureEvent> }> {
    const tracker = new ExchangeTracker(summary.id, summary.server, MAX_REBUILT_EXCHANGES, () => summary.client?.name, undefined, summary.era ?? 'legacy');
    const messages = new Map<number, CaptureEvent>();
    // From the cursor's own event on: when the first event after it is the second leg of a
    // pass-through pair, the pair's first leg must be seen first (or it would pair as a request
    // of its own); an exchange that starts at the cursor is then left out of the page.
    let cursor = after - 1;
    for (;;) {
      const read = await this.events({ session: summary.id, after: cursor, limit: 5000 });
      for (const e of read.events) {
        const done = tracker.observe(e, e.message);
        // The marks only the written exchange has (first byte, delivery) come back with it.
        const marks = done === undefined ? undefined : e.exchanges?.find((x) => x.requestSeq === done.requestSeq)?.timing;
        if (marks !== undefined && done instanceof TrackerExchange) done.restoreMarks(marks);
        if (full) messages.set(e.seq, e);
      }
      if (read.next === undefined) break;
      cursor = read.next;
      const page = tracker.exchangesAfter(after, limit);
      if (page.length >= limit && page.every((x) => x.status !== 'pending')) return { page, messages };
    }
    if (summary.state !== 'live') tracker.endSession(summary.endedAt ?? summary.startedAt, 'the session ended before an answer');
    return { page: tracker.exchangesAfter(after, limit), messages };
  }

  /** Case-insensitive substring search over messages and stderr, newest first. */
  async search(q: { query: string; server?: string | undefined; session?: string | undefined; limit: number; history: boolean }): Promise<{ hits: CaptureEvent[]; truncated: boolean }> {
    this.inspector.flush();
    const pattern = new RegExp(escapeRegExp(q.query), 'i');
    const wanted = (e: { session: string; server: string }): boolean => (q.server === undefined || e.server === q.server) && (q.session === undefined || e.session === q.session);
    const hits: CaptureEvent[] = [];
    const matches = (e: CapturedLeg): boolean => {
      const json = e.json;
      return (json !== undefined && pattern.test(json)) || (e.text !== undefined && pattern.test(e.text));
    };
    for (const e of this.inspector.memory.all.reversed()) {
      if (!wanted(e) || !matches(e)) continue;
      hits.push(toApiEvent(e));
      if (hits.length >= q.limit) return { hits, truncated: true };
    }
    if (!q.history || !this.inspector.writer) return { hits, truncated: false };
    await this.inspector.writer.settled();
    const oldest = this.inspector.memory.oldestSeq ?? Infinity;
    const files = await listHistoryFiles(this.inspector.historyDir);
    for (let i = files.length - 1; i >= 0; i--) {
      const f = files[i]!;
      if (f.firstSeq >= oldest) continue;
      const found: CaptureEvent[] = [];
      for await (const e of fileEvents(f.path, { line: (l) => pattern.test(l), accept: wanted })) {
        if (e.seq >= oldest) break;
        const body = e.message === undefined ? '' : typeof e.message === 'string' ? e.message : JSON.stringify(e.message);
        if (pattern.test(body) || (e.text !== undefined && pattern.test(e.text))) found.push(e);
      }
      for (const e of found.reverse()) {
        hits.push(e);
        if (hits.length >= q.limit) return { hits, truncated: true };
      }
    }
    return { hits, truncated: false };
  }
}
