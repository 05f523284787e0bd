/**
 * One HTTP/1.1 response from the hub, read straight off the socket (hub-http.ts): the status line
 * and headers, then the body as raw byte chunks framed by Content-Length, chunked transfer coding,
 * or the connection's end. The relay is a byte pump: nothing here copies, decodes or buffers more
 * than the framing needs, and a paused response pauses its socket (TCP then holds the hub back).
 */
import type { Socket } from 'node:net';

/** Where a response's body goes: one reader per response. */
export interface BodySink {
  data(chunk: Buffer): void;
  /** The body ended: whole (`complete`), or cut (the connection broke, or the reader destroyed it). */
  end(complete: boolean): void;
}

/** Body bytes held while no reader is attached yet, before the socket is paused. */
const UNREAD_LIMIT = 1024 * 1024;

export class HubResponse {
  /** True once the whole body arrived, as its framing says. */
  complete = false;
  private sink: BodySink | undefined;
  private unread: Buffer[] = [];
  private unreadBytes = 0;
  private ended: boolean | undefined;
  private paused = false;

  constructor(
    readonly statusCode: number,
    /** Lower-case names; the first value of a repeated header. */
    readonly headers: Readonly<Record<string, string>>,
    private readonly socket: Socket,
  ) {}

  /** Attaches the body's reader; what arrived before is handed over at once. */
  read(sink: BodySink): void {
    if (this.sink) throw new Error('a response body has one reader');
    this.sink = sink;
    const held = this.unread;
    this.unread = [];
    this.unreadBytes = 0;
    for (const chunk of held) sink.data(chunk);
    if (!this.paused) this.socket.resume();
    if (this.ended !== undefined) sink.end(this.ended);
  }

  /** Stops reading the socket until resume(). Bytes of the chunk being handed over still arrive. */
  pause(): void {
    if (this.ended !== undefined) return; // its socket may serve another request by now
    this.paused = true;
    this.socket.pause();
  }

  resume(): void {
    this.paused = false;
    if (this.ended === undefined) this.socket.resume();
  }

  /** Cuts the response (and its connection, which cannot be reused half-read). */
  destroy(): void {
    if (this.ended !== undefined) return;
    this.socket.destroy();
    this.finish(false);
  }

  /** @internal hub-http.ts: a body chunk. */
  push(chunk: Buffer): void {
    if (this.ended !== undefined) return;
    if (this.sink) return this.sink.data(chunk);
    this.unread.push(chunk);
    this.unreadBytes += chunk.length;
    if (this.unreadBytes > UNREAD_LIMIT) this.socket.pause();
  }

  /** @internal hub-http.ts: the body ended. */
  finish(complete: boolean): void {
    if (this.ended !== undefined) return;
    this.ended = complete;
    this.complete = complete;
    this.sink?.end(complete);
  }
}

export interface ResponseHead {
  statusCode: number;
  headers: Record<string, string>;
  /** Bytes of body to come; -1: chunked; -2: until the connection ends. */
  length: number;
  keepAlive: boolean;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** Longest status line and headers accepted (the hub sends a few hundred bytes). */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * HTTP/1.1 response framing, fed socket chunks. Calls `head` once the headers are in (1xx
 * interim responses are skipped), `body` with each run of body bytes, and `done` when the body
 * is complete. Throws on a malformed response.
 */
export class ResponseParser {
  private pending: Buffer | undefined;
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'close' | 'done' = 'head';
  private remaining = 0;

  constructor(
    private readonly method: string,
    private readonly on: { head(head: ResponseHead): void; body(chunk: Buffer): void; done(): void },
  ) {}

  get finished(): boolean {
    return this.state === 'done';
  }

  /** True while the body runs until the connection ends (no length, not chunked). */
  get untilClose(): boolean {
    return this.state === 'close';
  }

  /** Bytes received after the response ended (a misbehaving server): the connection is not reused. */
  get leftover(): boolean {
    return this.pending !== undefined && this.pending.length > 0;
  }

  push(input: Buffer): void {
    const buf = this.pending && this.pending.length > 0 ? Buffer.concat([this.pending, input]) : input;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length) {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(HEAD_END, at);
          if (end === -1) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new Error('the response headers are too large');
            this.pending = buf.subarray(at);
            return;
          }
          const head = parseHead(buf.toString('latin1', at, end), this.method);
          at = end + 4;
          if (head === undefined) continue; // 1xx: the real response follows
          this.on.head(head);
          if (head.length === 0) this.complete();
          else if (head.length === -1) this.state = 'chunk-size';
          else if (head.length === -2) this.state = 'close';
          else {
            this.state = 'length';
            this.remaining = head.length;
          }
          break;
        }
        case 'length':
        case 'chunk-data': {
          const take = Math.min(this.remaining, buf.length - at);
          this.on.body(buf.subarray(at, at + take));
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            if (this.state === 'length') this.complete();
            else this.state = 'chunk-crlf';
          }
          break;
        }
        case 'chunk-crlf':
        case 'chunk-size':
        case 'trailers': {
          const eol = buf.indexOf(CRLF, at);
          if (eol === -1) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new Error('a chunk header is too large');
            this.pending = buf.subarray(at);
            return;
          }
          const line = buf.toString('latin1', at, eol);
          at = eol + 2;
          if (this.state === 'chunk-crlf') {
            if (line !== '') throw new Error('a chunk is longer than its size says');
            this.state = 'chunk-size';
          } else if (this.state === 'trailers') {
            if (line === '') this.complete();
          } else {
            const size = parseInt(line, 16); // chunk extensions after ';' are ignored
            if (!Number.isFinite(size) || size < 0 || !/^[0-9a-fA-F]/.test(line)) throw new Error('a chunk size is not hexadecimal');
            if (size === 0) this.state = 'trailers';
            else {
              this.state = 'chunk-data';
              this.remaining = size;
            }
          }
          break;
        }
        case 'close':
          this.on.body(at === 0 ? buf : buf.subarray(at));
          return;
        case 'done':
          this.pending = buf.subarray(at);
          return;
      }
    }
  }

  /** The connection ended: true when that completes the body (a body without a length). */
  end(): boolean {
    if (this.state === 'close') {
      this.complete();
      return true;
    }
    return this.state === 'done';
  }

  private complete(): void {
    this.state = 'done';
    this.on.done();
  }
}

/** Status line and headers; undefined for an interim 1xx response. */
function parseHead(text: string, method: string): ResponseHead | undefined {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status) throw new Error(`not an HTTP/1.x response: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`);
  const statusCode = Number(status[2]);
  if (statusCode >= 100 && statusCode < 200 && statusCode !== 101) return undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  const connection = (headers.connection ?? '').toLowerCase();
  let keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  let length: number;
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) length = 0;
  else if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) length = -1;
  else if (headers['content-length'] !== undefined) {
    length = Number(headers['content-length']);
    if (!Number.isSafeInteger(length) || length < 0) throw new Error('a bad Content-Length');
  } else {
    length = -2;
    keepAlive = false;
  }
  return { statusCode, headers, length, keepAlive };
}
