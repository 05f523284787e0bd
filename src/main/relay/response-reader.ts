/**
 * Reads what the hub answers a POST with — one JSON body or an SSE stream (PROTOCOL P6) — and
 * hands each JSON-RPC message on. An SSE stream that breaks before every response of its
 * requests came is resumed with `GET` + `Last-Event-ID`, after the server's `retry:` delay (P12).
 */
import { StringDecoder } from 'node:string_decoder';
import { idKey, type JsonRpcId } from '../core/index.js';
import type { Logger } from '../core/index.js';
import { headerValue, readText, type HubResponse } from './hub-http.js';
import type { FlowControl } from './output-flow.js';
import { SseParser } from '../core/index.js';
import { scanMessage, scannedResponseId, type ScannedMessage } from './message-scan.js';

export interface ReaderContext {
  logger: Logger;
  /** Called with each message's JSON text and what a scan of it found. */
  onMessage: MessageHandler;
  /** Opens the resumption GET, or resolves undefined when the stream cannot be resumed any more. */
  resume(lastEventId: string): Promise<HubResponse | undefined>;
  /** Delay before a resumption when the server gave no `retry:`. */
  defaultRetryMs: number;
  /** Set when the relay is shutting down: stop reading and resuming. */
  signal: AbortSignal;
  /** Registers an open response so shutdown can cut it. Returns an unregister function. */
  track(res: HubResponse): () => void;
  /** Backpressure from the client: when blocked, a stream is paused until the output drains. */
  flow?: FlowControl;
}

/** Most resumption attempts in a row that bring no message. */
const MAX_IDLE_RESUMES = 3;

export function isEventStream(res: HubResponse): boolean {
  return (headerValue(res, 'content-type') ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * Reads a response to a POST that carried the requests `ids`, and resolves with the ids whose
 * response never came (the caller answers those with an error).
 */
export async function readPostResponse(res: HubResponse, ids: readonly JsonRpcId[], ctx: ReaderContext): Promise<JsonRpcId[]> {
  const pending = new Map(ids.map((id) => [idKey(id), id]));
  const onMessage: MessageHandler = (raw, message) => {
    const id = responseId(message);
    if (id !== undefined) pending.delete(idKey(id));
    ctx.onMessage(raw, message);
  };
  if (!isEventStream(res)) {
    const text = await readText(res, Number.MAX_SAFE_INTEGER);
    if (text.trim() !== '') deliverJsonText(text, onMessage, ctx.logger);
    return [...pending.values()];
  }
  let current: HubResponse | undefined = res;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let idle = 0;
  while (current) {
    const parser = new SseParser((event) => {
      if (event.event !== 'message' || event.data === '') return; // priming events carry only an id
      idle = -1;
      deliverJsonText(event.data, onMessage, ctx.logger);
    });
    await pump(current, parser, ctx, () => pending.size === 0);
    lastEventId = parser.lastEventId ?? lastEventId;
    retryMs = parser.retryMs ?? retryMs;
    if (pending.size === 0 || ctx.signal.aborted || lastEventId === undefined) break;
    idle = idle < 0 ? 0 : idle + 1;
    if (idle >= MAX_IDLE_RESUMES) break;
    await delay(retryMs ?? ctx.defaultRetryMs, ctx.signal);
    if (ctx.signal.aborted) break;
    current = await ctx.resume(lastEventId).catch((err: Error) => {
      ctx.logger.warn(`could not resume a stream: ${err.message}`);
      return undefined;
    });
  }
  return [...pending.values()];
}

/** Feeds a response's body to an SSE parser until it ends, breaks, or `done()` says enough. */
export function pump(res: HubResponse, parser: SseParser, ctx: Pick<ReaderContext, 'track' | 'logger' | 'flow'>, done: () => boolean = () => false): Promise<void> {
  return new Promise((resolve) => {
    const untrack = ctx.track(res);
    let finished = false;
    /** null: about to be armed. */
    let grace: NodeJS.Timeout | null | undefined;
    let cancelResume: (() => void) | undefined;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      if (grace) clearTimeout(grace);
      cancelResume?.();
      untrack();
      resolve();
    };
    const decoder = new StringDecoder('utf8');
    const onData = (chunk: Buffer): void => {
      if (finished) return;
      try {
        parser.push(decoder.write(chunk));
      } catch (err) {
        ctx.logger.warn(`dropping a broken event stream: ${(err as Error).message}`);
        res.destroy();
        finish();
        return;
      }
      // Every response is in: a server that keeps the stream open past that gets a moment to end
      // it, then the connection is cut so it does not sit idle forever.
      // (Checked after the rest of this socket read is parsed: the stream's end usually came with it.)
      if (done() && grace === undefined) {
        grace = null;
        queueMicrotask(() => {
          if (finished) return;
          grace = setTimeout(() => {
            res.destroy();
            finish();
          }, 1000);
          grace.unref();
        });
      }
      // The client is not reading: leave the rest in the socket (TCP holds the hub back) until
      // stdout drains. What this chunk carried is out already; nothing is dropped.
      const flow = ctx.flow;
      if (flow?.blocked && !finished && cancelResume === undefined) {
        res.pause();
        cancelResume = flow.onDrain(() => {
          cancelResume = undefined;
          if (!finished) res.resume();
        });
      }
    };
    res.read({ data: onData, end: finish });
  });
}

/**
 * Hands on one JSON text from the hub (an SSE event's data, or a JSON body) as it came, with what
 * a scan of it found: no parse. Data that spans lines is made one line for stdio by turning its
 * line breaks into spaces (raw ones can only be whitespace between tokens in JSON). Only a batch
 * (2025-03-26), or text the scan cannot read, is parsed: to split it, or to say why it is skipped.
 */
export function deliverJsonText(text: string, onMessage: MessageHandler, logger: Logger): void {
  const one = text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, ' ') : text;
  const scanned = scanMessage(one);
  if (scanned) return onMessage(one, scanned);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    logger.warn(`skipped a message from the hub that is not JSON: ${text.slice(0, 200)}`);
    return;
  }
  if (!Array.isArray(value)) return onMessage(one, undefined); // JSON, not JSON-RPC: the client judges it
  for (const m of value) {
    const raw = JSON.stringify(m);
    onMessage(raw, scanMessage(raw));
  }
}

/** Gets each message's text (one line) and what a scan of it found (undefined: not JSON-RPC). */
export type MessageHandler = (raw: string, message: ScannedMessage | undefined) => void;

/** The id of a JSON-RPC response, or undefined for anything else. */
export function responseId(message: ScannedMessage | undefined): JsonRpcId | undefined {
  return scannedResponseId(message);
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
