/**
 * Server-Sent Events as a client reads them: a parser that yields events and comments as bytes
 * arrive, and a reader that takes them one at a time, each read bounded by a deadline.
 */
import type { JsonRpcMessage } from './json-rpc.js';
import { withTimeout } from './waits.js';

export interface SseEvent {
  kind: 'event';
  id: string | undefined;
  event: string | undefined;
  data: string;
  retry: number | undefined;
}
export interface SseComment {
  kind: 'comment';
  text: string;
}
export type SseItem = SseEvent | SseComment;

/** Parses an SSE byte stream into events and comments as they arrive. */
export async function* parseSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let event: string | undefined;
  let retry: number | undefined;
  let data: string[] | undefined;
  let any = false;
  const flushEvent = (): SseEvent | undefined => {
    const out = any ? ({ kind: 'event', id, event, data: (data ?? []).join('\n'), retry } as SseEvent) : undefined;
    id = undefined;
    event = undefined;
    retry = undefined;
    data = undefined;
    any = false;
    return out;
  };
  const lines = function* (final: boolean): Generator<string> {
    for (;;) {
      const nl = buffer.search(/\r\n|\n|\r/);
      if (nl === -1 || (!final && nl === buffer.length - 1 && buffer[nl] === '\r')) break;
      const len = buffer.startsWith('\r\n', nl) ? 2 : 1;
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + len);
      yield line;
    }
  };
  const onLine = (line: string): SseItem | undefined => {
    if (line === '') return flushEvent();
    if (line.startsWith(':')) return { kind: 'comment', text: line.slice(1).replace(/^ /, '') };
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    any = true;
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') (data ??= []).push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) {
      const item = onLine(line);
      if (item) yield item;
    }
  }
  buffer += decoder.decode();
  for (const line of lines(true)) {
    const item = onLine(line);
    if (item) yield item;
  }
  // An unterminated event at the end of the stream is discarded, as the SSE spec says.
}

/** Reads an SSE stream item by item, each read bounded by a deadline. */
export class SseReader {
  private readonly iterator: AsyncIterator<SseItem>;
  /** Every item read so far. */
  readonly seen: SseItem[] = [];
  ended = false;

  constructor(body: AsyncIterable<Uint8Array | string>) {
    this.iterator = parseSse(body)[Symbol.asyncIterator]();
  }

  /** The next item (event or comment), or undefined at the end of the stream. */
  async next(timeoutMs = 10_000): Promise<SseItem | undefined> {
    if (this.ended) return undefined;
    const r = await withTimeout(this.iterator.next(), timeoutMs, 'the next SSE item');
    if (r.done) {
      this.ended = true;
      return undefined;
    }
    this.seen.push(r.value);
    return r.value;
  }

  /** The next event (comments skipped), or undefined at the end. */
  async nextEvent(timeoutMs = 10_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (!item || item.kind === 'event') return item;
    }
  }

  /** The next event that carries a JSON-RPC message (priming events skipped), with its event. */
  async nextMessage(timeoutMs = 10_000): Promise<{ message: JsonRpcMessage; event: SseEvent } | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = await this.nextEvent(Math.max(1, deadline - Date.now()));
      if (!event) return undefined;
      if (event.data.trim() === '') continue;
      return { message: JSON.parse(event.data) as JsonRpcMessage, event };
    }
  }

  /** Reads to the end of the stream and returns every item read after this call. */
  async rest(timeoutMs = 10_000): Promise<SseItem[]> {
    const deadline = Date.now() + timeoutMs;
    const out: SseItem[] = [];
    for (;;) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (!item) return out;
      out.push(item);
    }
  }

  /** Stops reading (cancels the underlying body). */
  async cancel(): Promise<void> {
    this.ended = true;
    await this.iterator.return?.(undefined).catch(() => undefined);
  }
}

export function eventsOf(items: SseItem[]): SseEvent[] {
  return items.filter((i): i is SseEvent => i.kind === 'event');
}

export function messagesOf(items: SseItem[]): JsonRpcMessage[] {
  return eventsOf(items)
    .filter((e) => e.data.trim() !== '')
    .map((e) => JSON.parse(e.data) as JsonRpcMessage);
}

/** The SSE items of a body already read whole. */
export async function sseItemsOfText(text: string): Promise<SseItem[]> {
  const items: SseItem[] = [];
  const body = (async function* () {
    yield text;
  })();
  for await (const item of parseSse(body)) items.push(item);
  return items;
}
