/**
 * The bytes capture keeps, encoded once into large buffers outside the JavaScript heap: every
 * history line (when history is on) and the message text that the memory view holds. A message
 * is written once, inside its history line, and memory keeps only where it is (buffer, start,
 * end). Keeping the text as JavaScript strings instead made every captured message one more
 * object for the garbage collector to copy into the old generation: that was the largest part
 * of what capture cost the proxy.
 *
 * Lines are appended whole; a line never spans two buffers. Writers do not compute a line's
 * size first: each write checks the room left and sets `overflow` instead of writing past it,
 * and the caller starts a new buffer and writes the line again (`retry`). Bytes already handed
 * out are never changed (later lines go after them), so the history writer passes them to the
 * disk as views, without a copy.
 *
 * Buffers are reused, not left to the garbage collector: a buffer whose lines memory no longer
 * holds (`release`) and the disk has written is filled again. Allocating a new one for every
 * 256 KiB made V8 count that much more external memory each time, and a full collection of the
 * heap followed every few dozen megabytes of traffic.
 */
import { quoteAsciiInto } from '../lib/json-quote.js';

const CHUNK = 256 * 1024;
/** Spare buffers kept for reuse. */
const MAX_FREE = 4;

interface Chunk {
  readonly buf: Buffer;
  /** The highest seq written in it (-1: none yet). */
  maxSeq: number;
  /** Views of it not yet written to disk (queued or in flight). */
  held: number;
}

/** Buffer's own UTF-8 writer, without the argument checks of `write` (it runs for every message). */
type Utf8Write = (this: Buffer, text: string, offset: number, length: number) => number;
const utf8Write: Utf8Write =
  (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write ??
  function (this: Buffer, text: string, offset: number, length: number): number {
    return this.write(text, offset, length, 'utf8');
  };

type Latin1Write = (this: Buffer, text: string, offset: number, length: number) => number;
const latin1Write: Latin1Write =
  (Buffer.prototype as unknown as { latin1Write?: Latin1Write }).latin1Write ??
  function (this: Buffer, text: string, offset: number, length: number): number {
    return this.write(text, offset, length, 'latin1');
  };

export class LineLog {
  /** The buffer being filled, and the next free byte in it. */
  chunk: Buffer;
  pos = 0;
  /** Set when a write did not fit: the line must be written again after `retry()`. */
  overflow = false;
  private current: Chunk;
  /** Buffers in use, oldest first; the last is `current`. */
  private readonly used: Chunk[] = [];
  private readonly free: Buffer[] = [];
  /** Where the line being written started (for `retry`). */
  private lineStart = 0;
  /** The size of the buffer a line that overflowed gets next. */
  private nextSize = CHUNK;
  /**
   * Bytes the writes of this line that did not fit would have taken: its retry then gets a buffer
   * that fits at once (a 1 MiB message made four buffers, doubling from 256 KiB, and was written
   * four times).
   */
  private missing = 0;
  /** Bytes of `chunk` from here on are not yet taken for the disk. */
  private pendingStart = 0;
  private done: Buffer[] = [];
  private doneChunks: Chunk[] = [];
  private msHigh = -1;
  private msHighBytes = Buffer.alloc(0);
  private doneBytes = 0;

  /** `keep`: bytes are kept until `take()` (history on); otherwise nothing but memory refers to them. */
  constructor(private readonly keep: boolean) {
    this.current = { buf: Buffer.allocUnsafe(CHUNK), maxSeq: -1, held: 0 };
    this.chunk = this.current.buf;
    this.used.push(this.current);
  }

  /** The line just written holds events up to `seq`. */
  mark(seq: number): void {
    this.current.maxSeq = seq;
  }

  /**
   * Memory holds no event before `oldestSeq` any more: buffers that held only older lines are
   * dropped, and reused when their bytes are on disk too (else the collector frees them later).
   */
  release(oldestSeq: number): void {
    for (;;) {
      const c = this.used[0]!;
      if (c === this.current || c.maxSeq >= oldestSeq) return;
      this.used.shift();
      if (c.held === 0 && c.buf.length === CHUNK && this.free.length < MAX_FREE) this.free.push(c.buf);
    }
  }

  /** Bytes written and not yet taken (always 0 without `keep`). */
  get pendingBytes(): number {
    return this.keep ? this.doneBytes + this.pos - this.pendingStart : 0;
  }

  /** Starts a line. */
  begin(): void {
    this.lineStart = this.pos;
    this.overflow = false;
    this.missing = 0;
  }

  /**
   * Drops the partial line and moves to a buffer with room for a line larger than the one that
   * did not fit (a line larger than CHUNK gets a buffer of its own); the caller writes it again.
   */
  retry(): void {
    // What the line took, what did not fit, and room for what closes it after its message.
    const want = this.pos - this.lineStart + this.missing + 64;
    this.pos = this.lineStart;
    const size = Math.max(CHUNK, this.nextSize, want);
    this.nextSize = size * 2;
    this.cut(size);
    this.begin();
  }

  /** Ends a line that fit. */
  end(): void {
    this.nextSize = CHUNK;
  }

  /** A string of any content. */
  utf8(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > this.chunk.length - this.pos) {
      // It may still fit: measure before giving up (long messages, mostly ASCII).
      const size = Buffer.byteLength(text);
      if (size > this.chunk.length - this.pos) {
        this.fail(size);
        return;
      }
    }
    this.pos += utf8Write.call(this.chunk, text, this.pos, this.chunk.length - this.pos);
  }

  /** Bytes encoded earlier (constant parts of lines). */
  bytes(b: Buffer): void {
    const n = b.length;
    const chunk = this.chunk;
    const pos = this.pos;
    if (n > chunk.length - pos) {
      this.fail(n);
      return;
    }
    // Short pieces by hand; longer ones with TypedArray#set (a native call, and Buffer#copy's
    // argument checks cost more than the copy).
    if (n < 32) for (let i = 0; i < n; i++) chunk[pos + i] = b[i]!;
    else chunk.set(b, pos);
    this.pos = pos + n;
  }

  /**
   * A string known to be ASCII (its UTF-8 length is its length): copied as Latin-1, which is a
   * plain copy where UTF-8 encoding looks at every character.
   */
  ascii(text: string): void {
    if (text.length > this.chunk.length - this.pos) {
      this.fail(text.length);
      return;
    }
    this.pos += latin1Write.call(this.chunk, text, this.pos, text.length);
  }

  /**
   * `JSON.stringify(text)` for ASCII text without control characters (a large message's prefix,
   * kept as a JSON string), escaped straight into the buffer (lib/json-quote.ts).
   */
  asciiQuoted(text: string): void {
    const end = quoteAsciiInto(text, this.chunk, this.pos);
    if (end < 0) this.fail(-end);
    else this.pos = end;
  }

  /** A write of `bytes` did not fit: the line is written again (`retry`), in a buffer with room for it. */
  private fail(bytes: number): void {
    this.overflow = true;
    this.missing += bytes;
  }

  /** One ASCII character by its code. */
  byte(code: number): void {
    if (this.pos >= this.chunk.length) {
      this.fail(1);
      return;
    }
    this.chunk[this.pos++] = code;
  }

  /** A number as JSON writes it; non-negative integers without building a string. */
  num(n: number): void {
    if ((n | 0) === n && n >= 0) this.digits32(n, 0);
    else if (n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n) this.digits(n, 0);
    else this.utf8(String(n));
  }

  /**
   * A time or duration in ms with up to 3 decimals (the inspector keeps them to the µs): written
   * from integer µs, since turning a fractional double into text costs several times more.
   * JSON.parse of the text gives back the very same double.
   */
  ms(x: number): void {
    const us = Math.round(x * 1000);
    if (!(us >= 0 && us <= Number.MAX_SAFE_INTEGER) || us / 1000 !== x) {
      this.utf8(String(x));
      return;
    }
    if (us >= 1e12) {
      // An epoch time: its leading digits change every 1000 s and are written from a cache, the
      // rest as 6 + 3 digits.
      const high = Math.floor(us / 1e9);
      if (high !== this.msHigh) {
        this.msHigh = high;
        this.msHighBytes = Buffer.from(String(high));
      }
      this.bytes(this.msHighBytes);
      this.lowMs(us - high * 1e9);
      return;
    }
    const whole = Math.floor(us / 1000);
    const frac = us - whole * 1000;
    this.digits32(whole, 0);
    if (frac === 0) return;
    this.byte(46); // .
    this.digits32(frac, 3);
  }

  /** `dddddd.ddd` from µs below 10^9 (trailing zeros are valid JSON and parse the same). */
  private lowMs(low: number): void {
    const buf = this.chunk;
    const p = this.pos;
    if (10 > buf.length - p) {
      this.fail(10);
      return;
    }
    let x = low | 0;
    for (let i = 9; i >= 0; i--) {
      if (i === 6) {
        buf[p + 6] = 46; // .
        continue;
      }
      const q = (x / 10) | 0;
      buf[p + i] = 48 + x - q * 10;
      x = q;
    }
    this.pos = p + 10;
  }

  /**
   * Takes everything written since the last take, as views for the disk; `written` must be
   * called once the disk has them (their buffers can be reused after that).
   */
  take(): { buffers: Buffer[]; written: () => void } {
    this.hold();
    const buffers = this.done;
    const chunks = this.doneChunks;
    this.done = [];
    this.doneChunks = [];
    this.doneBytes = 0;
    return { buffers, written: () => chunks.forEach((c) => c.held--) };
  }

  /** Forgets what was written since the last take: it will not go to the disk. */
  discard(): void {
    for (const c of this.doneChunks) c.held--;
    this.done = [];
    this.doneChunks = [];
    this.doneBytes = 0;
    this.pendingStart = this.pos;
  }

  /** Queues the current buffer's new bytes for the disk. */
  private hold(): void {
    if (this.pos <= this.pendingStart) return;
    this.done.push(this.chunk.subarray(this.pendingStart, this.pos));
    this.doneChunks.push(this.current);
    this.current.held++;
    this.doneBytes += this.pos - this.pendingStart;
    this.pendingStart = this.pos;
  }

  /** Writes `n` (a non-negative integer up to 2^53) with at least `width` digits. */
  private digits(n: number, width: number): void {
    if (n < 1e9) {
      this.digits32(n, width);
      return;
    }
    // Integer arithmetic works on 32 bits: write the part above 10^9, then 9 digits.
    const high = Math.floor(n / 1e9);
    this.digits32(high, width > 9 ? width - 9 : 0);
    this.digits32(n - high * 1e9, 9);
  }

  /** Writes `n` (a non-negative integer below 2^31) with at least `width` digits. */
  private digits32(n: number, width: number): void {
    let len = 1;
    for (let x = n; x >= 10; x = (x / 10) | 0) len++;
    if (len < width) len = width;
    if (len > this.chunk.length - this.pos) {
      this.fail(len);
      return;
    }
    const buf = this.chunk;
    let p = this.pos + len;
    let x = n | 0;
    for (let i = 0; i < len; i++) {
      const q = (x / 10) | 0;
      buf[--p] = 48 + x - q * 10;
      x = q;
    }
    this.pos += len;
  }

  private cut(size: number): void {
    if (this.keep) this.hold();
    const buf = size === CHUNK ? (this.free.pop() ?? Buffer.allocUnsafe(CHUNK)) : Buffer.allocUnsafe(size);
    this.current = { buf, maxSeq: this.current.maxSeq, held: 0 };
    this.used.push(this.current);
    this.chunk = buf;
    this.pos = 0;
    this.pendingStart = 0;
  }
}
