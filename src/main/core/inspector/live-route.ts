/**
 * `GET /api/inspector/live`: every captured event as server-sent events, resumable by cursor
 * (`?cursor=<seq>` or `Last-Event-ID`). A subscriber first catches up — from the history files
 * for what memory no longer holds, then from memory — and only then listens live; the switch
 * happens in one synchronous step, so no event falls between, and seq order makes each one
 * arrive exactly once. A subscriber that stops reading is disconnected rather than buffered
 * without bound: it reconnects with its cursor and misses nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspectorLiveStream, type CaptureEvent } from '../../../shared/api/inspector-contract.js';
import { sendJson } from '../protocol/http-util.js';
import { SseWriter } from '../protocol/sse-writer.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { historyEvents } from './history-read.js';
import type { Inspector } from './inspector.js';
import { legJson } from './event-line.js';
import type { CapturedLeg, StoredEvent } from './stored-event.js';

export interface LiveRouteOptions {
  keepAliveMs?: number;
  /** Unsent bytes a live subscriber may fall behind by before it is disconnected. */
  maxBufferedBytes?: number;
}

interface Filter {
  server?: string | undefined;
  session?: string | undefined;
  view: 'events' | 'exchanges';
}

export function inspectorLiveRoute(inspector: Inspector, options: LiveRouteOptions = {}): HttpRoute {
  return {
    prefix: '/api/inspector',
    auth: 'token',
    handle: (req, res, path, cors) => {
      if (path !== inspectorLiveStream.path) return sendJson(res, 404, { ok: false, code: 'not_found', message: `No inspector endpoint ${path}; the live stream is ${inspectorLiveStream.path}` }, cors);
      if (req.method !== 'GET') return sendJson(res, 405, { ok: false, code: 'method_not_allowed', message: 'the live stream is GET' }, { ...cors, Allow: 'GET' });
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw: Record<string, string> = Object.fromEntries(url.searchParams);
      const lastEventId = req.headers['last-event-id'];
      if (raw.cursor === undefined && typeof lastEventId === 'string' && lastEventId !== '') raw.cursor = lastEventId;
      const parsed = inspectorLiveStream.query.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(query)'}: ${i.message}`).join('; ');
        return sendJson(res, 400, { ok: false, code: 'invalid_input', message: `Invalid live stream query: ${problems}` }, cors);
      }
      const { cursor, ...filter } = parsed.data;
      void new LiveSubscriber(inspector, req, res, filter, options).start(cursor, cors);
    },
  };
}

/** Resolves when the socket can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

class LiveSubscriber {
  private last = 0;
  private closed = false;
  private off: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly writer: SseWriter;

  constructor(
    private readonly inspector: Inspector,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly filter: Filter,
    private readonly options: LiveRouteOptions,
  ) {
    this.writer = new SseWriter(res);
  }

  async start(cursor: number | undefined, cors: Record<string, string>): Promise<void> {
    const res = this.res;
    const writer = this.writer;
    writer.open(cors);
    res.once('close', () => this.stop());
    this.timer = setInterval(() => writer.comment('keepalive'), this.options.keepAliveMs ?? 15_000);
    this.timer.unref();
    const now = this.inspector.lastSeq;
    const complete = cursor === undefined || cursor <= now;
    this.last = cursor === undefined || cursor > now ? now : cursor;
    writer.event(JSON.stringify({ cursor: this.last, complete }), undefined, 'ready');
    try {
      await this.catchUp();
    } catch (err) {
      writer.event(JSON.stringify({ message: `could not replay history: ${(err as Error).message}` }), undefined, 'error');
      writer.end();
    }
  }

  private stop(): void {
    this.closed = true;
    this.off?.();
    clearInterval(this.timer);
  }

  private accept(e: CaptureEvent | CapturedLeg): boolean {
    const f = this.filter;
    if (f.server !== undefined && e.server !== f.server) return false;
    if (f.session !== undefined && e.session !== f.session) return false;
    return f.view === 'events' || (e.exchanges !== undefined && e.exchanges.length > 0);
  }

  private send(seq: number, data: string): void {
    this.writer.event(data, String(seq), 'capture');
  }

  /** Catches up from history and memory, then listens live; see the file comment. */
  private async catchUp(): Promise<void> {
    const { inspector } = this;
    for (;;) {
      if (this.closed) return;
      const oldest = inspector.memory.oldestSeq ?? inspector.lastSeq + 1;
      if (this.last < oldest - 1) {
        const before = this.last;
        if (inspector.writer) {
          await inspector.writer.settled();
          for await (const e of historyEvents(inspector.historyDir, { after: this.last })) {
            if (this.closed) return;
            if (e.seq >= (inspector.memory.oldestSeq ?? Infinity)) break;
            this.last = e.seq;
            if (this.accept(e)) this.send(e.seq, JSON.stringify(e));
            if (this.res.writableNeedDrain) await drained(this.res);
          }
        }
        if (this.last === before) {
          // Neither memory nor disk has these any more (dropped, or past retention).
          const to = (inspector.memory.oldestSeq ?? inspector.lastSeq + 1) - 1;
          this.writer.event(JSON.stringify({ from: before + 1, to }), undefined, 'gap');
          this.last = to;
        }
        continue;
      }
      const batch = inspector.memory.all.after(this.last, 512);
      if (batch.length === 0) {
        // Caught up: listen from here, in the same synchronous step.
        this.off = inspector.onEvent((e) => this.live(e));
        return;
      }
      for (const e of batch) {
        this.last = e.seq;
        if (this.accept(e)) this.send(e.seq, legJson(e));
      }
      if (this.res.writableNeedDrain) await drained(this.res);
    }
  }

  private live(e: StoredEvent): void {
    if (this.closed || e.lastSeq <= this.last) return;
    if (e.seq > this.last && this.accept(e)) this.send(e.seq, legJson(e));
    if (e.paired) {
      const twin = e.twin();
      if (this.accept(twin)) this.send(twin.seq, legJson(twin));
    }
    this.last = e.lastSeq;
    if (this.res.writableLength > (this.options.maxBufferedBytes ?? 16 * 1024 * 1024)) {
      // Too far behind: drop the connection; the client resumes from its cursor.
      this.stop();
      this.req.socket.destroy();
    }
  }
}
