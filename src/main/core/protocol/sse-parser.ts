/**
 * Incremental parser for `text/event-stream` (the WHATWG "event stream interpretation"), for the
 * relay's side of Streamable HTTP. It keeps what resumption needs (the last event id and the
 * server's `retry:` advice, PROTOCOL P12) and hands every dispatched event to a callback.
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
  private buffer = '';
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
    let text = chunk;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    this.buffer += text;
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 < this.buffer.length) next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        else {
          // `\r` at the end of the buffer: the line is complete; swallow a `\n` that may follow.
          next = cr + 1;
          this.pendingCr = true;
        }
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      this.line(this.buffer.slice(start, end));
      start = next;
    }
    this.buffer = start === 0 ? this.buffer : this.buffer.slice(start);
    if (this.buffer.length > this.maxLineChars) {
      throw new Error(`an SSE line is longer than ${this.maxLineChars} characters`);
    }
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
