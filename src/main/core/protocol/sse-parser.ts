/**
 * Incremental parser for `text/event-stream` (the WHATWG "event stream interpretation"), for the
 * relay's side of Streamable HTTP. It keeps what resumption needs (the last event id and the
 * server's `retry:` advice, PROTOCOL P12) and hands every dispatched event to a callback.
 *
 * Linear in the input: each chunk is scanned once for line ends, and a line that spans chunks is
 * kept as a list of pieces joined once when it ends (issue 17: re-searching a growing buffer on
 * every chunk made a 16 MiB event take seconds). Kept rather than `eventsource-parser`, which
 * forgets an `id:` sent in an event without data, where the spec (and P12's `Last-Event-ID`)
 * keeps it.
 */
export interface SseEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  data: string;
  /** The stream's last event id after this event (ids persist across events, per the spec). */
  id: string | undefined;
}

export class SseParser {
  /** The last `id:` seen (the value to send as `Last-Event-ID` when resuming). */
  lastEventId: string | undefined;
  /** The last valid `retry:` value, in milliseconds. */
  retryMs: number | undefined;
  /** Characters examined while looking for line ends, in total: linear in the input (tests check it). */
  scannedChars = 0;
  /** The start of a line whose end has not arrived yet, in the pieces it came in. */
  private partial: string[] = [];
  private partialChars = 0;
  private data: string[] = [];
  private eventType = '';
  private sawField = false;
  /** A chunk that ended in `\r` may be the first half of `\r\n`. */
  private pendingCr = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    /** Largest line accepted; a longer one is a broken stream, not something to buffer forever. */
    private readonly maxLineChars = 64 * 1024 * 1024,
  ) {}

  push(chunk: string): void {
    let start = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk.startsWith('\n')) start = 1;
    }
    // Next `\n` and `\r` at or after `start`, each searched again only once passed: every
    // character is looked at a bounded number of times however the lines fall.
    let lf = -2;
    let cr = -2;
    while (start < chunk.length) {
      if (lf !== -1 && lf < start) lf = this.find(chunk, '\n', start);
      if (cr !== -1 && cr < start) cr = this.find(chunk, '\r', start);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) break;
      this.line(this.take(chunk.slice(start, end)));
      if (end === cr) {
        if (end + 1 === chunk.length) this.pendingCr = true; // maybe `\r\n` split between chunks
        start = chunk.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.slice(start);
      this.partial.push(rest);
      this.partialChars += rest.length;
      if (this.partialChars > this.maxLineChars) {
        this.partial = [];
        this.partialChars = 0;
        throw new Error(`an SSE line is longer than ${this.maxLineChars} characters`);
      }
    }
  }

  private find(chunk: string, char: string, from: number): number {
    const at = chunk.indexOf(char, from);
    this.scannedChars += (at === -1 ? chunk.length : at + 1) - from;
    return at;
  }

  /** The whole line: the pieces kept from earlier chunks, then `tail`. */
  private take(tail: string): string {
    if (this.partial.length === 0) return tail;
    this.partial.push(tail);
    const line = this.partial.join('');
    this.partial = [];
    this.partialChars = 0;
    return line;
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.sawField = true;
        break;
      case 'event':
        this.eventType = value;
        this.sawField = true;
        break;
      case 'id':
        // An id containing NUL is ignored (spec); an empty one resets the last event id.
        if (!value.includes('\0')) this.lastEventId = value === '' ? undefined : value;
        this.sawField = true;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    if (!this.sawField) return;
    const hadData = this.data.length > 0;
    const event: SseEvent = {
      event: this.eventType === '' ? 'message' : this.eventType,
      data: this.data.join('\n'),
      id: this.lastEventId,
    };
    this.data = [];
    this.eventType = '';
    this.sawField = false;
    // The spec drops events without data; an `id:`-only event still moved lastEventId above.
    if (hadData) this.onEvent(event);
  }
}
