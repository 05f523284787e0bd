/**
 * The session's standalone GET stream (PROTOCOL P10): where the hub puts server-initiated
 * messages that belong to no open request. Kept open while the session lives; when it ends it is
 * reopened with `Last-Event-ID` after the server's `retry:` delay (P12). A server without one
 * (405, or any other refusal) is left alone: the session works without it.
 */
import { discard, HttpCallError, type HubResponse } from './hub-http.js';
import { delay, deliverJsonText, isEventStream, pump, type ReaderContext } from './response-reader.js';
import { SseParser } from '../core/index.js';

export interface GetStreamContext extends Omit<ReaderContext, 'resume'> {
  /** Opens the GET, with `Last-Event-ID` when resuming. */
  request(lastEventId: string | undefined): Promise<HubResponse>;
  /** False once the session this stream belongs to is gone or replaced. */
  current(): boolean;
  /** The hub answered 404: the session is gone (the caller re-creates it, which reopens the stream). */
  sessionLost(): void;
}

/** Consecutive failed (re)connections after which the stream is given up until the session changes. */
const MAX_FAILURES = 5;

export async function runGetStream(ctx: GetStreamContext): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let failures = 0;
  while (ctx.current() && !ctx.signal.aborted) {
    let res: HubResponse;
    try {
      res = await ctx.request(lastEventId);
    } catch (err) {
      if (ctx.signal.aborted) return;
      // The hub went away: the next client message finds it again and re-creates the session,
      // which opens a new GET stream. Retrying here would race that.
      if (err instanceof HttpCallError && err.unreachable) return;
      if (++failures >= MAX_FAILURES) return ctx.logger.warn(`giving up the GET stream: ${(err as Error).message}`);
      await delay(retryMs ?? ctx.defaultRetryMs, ctx.signal);
      continue;
    }
    const status = res.statusCode ?? 0;
    if (status === 404) {
      discard(res);
      if (lastEventId !== undefined) {
        // The event id is no longer stored: open a fresh stream instead of resuming.
        lastEventId = undefined;
        if (++failures >= MAX_FAILURES) return;
        continue;
      }
      ctx.sessionLost();
      return;
    }
    if (status !== 200 || !isEventStream(res)) {
      discard(res);
      // 405 is the spec's "no GET stream here"; anything else is treated the same, quietly.
      ctx.logger.debug(`the hub offers no GET stream (HTTP ${status})`);
      return;
    }
    failures = 0;
    const parser = new SseParser((event) => {
      if (event.event !== 'message' || event.data === '') return;
      deliverJsonText(event.data, ctx.onMessage, ctx.logger);
    });
    await pump(res, parser, ctx);
    lastEventId = parser.lastEventId ?? lastEventId;
    retryMs = parser.retryMs ?? retryMs;
    await delay(retryMs ?? ctx.defaultRetryMs, ctx.signal);
  }
}
