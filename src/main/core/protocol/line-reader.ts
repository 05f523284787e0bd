/**
 * Splits a byte stream into newline-delimited JSON-RPC messages (MCP stdio framing). A line that
 * is not JSON is reported and skipped, never fatal (PROTOCOL P29); a line over the cap is dropped
 * whole so a misbehaving child cannot make the hub buffer without bound.
 */
import { isAscii } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { arrival } from './arrival.js';
import { handedOn, handingOn, WIRE_BYTES_MIN } from './wire-bytes.js';

export interface LineReaderHandlers {
  line(text: string): void;
  oversize(bytes: number): void;
}

export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;
  /** performance.now() of the chunk that brought the current line's first byte (when stamping). */
  private lineAt = -1;
  private chunkAt = -1;

  constructor(
    private readonly maxLineBytes: number,
    private readonly handlers: LineReaderHandlers,
    /** Mark each line with when its first byte came (protocol/arrival.ts): a server's stdout. */
    private readonly stamp = false,
  ) {}

  push(chunk: Buffer): void {
    if (this.stamp) this.chunkAt = performance.now();
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      this.take(chunk.subarray(start, nl), true);
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start), false);
  }

  private take(piece: Buffer, complete: boolean): void {
    if (this.size === 0) this.lineAt = this.chunkAt;
    if (!this.skipping) {
      if (this.size + piece.length > this.maxLineBytes) {
        this.skipping = true;
        this.chunks = [];
      } else {
        this.chunks.push(piece);
      }
    }
    this.size += piece.length;
    if (!complete) return;
    if (this.skipping) {
      this.handlers.oversize(this.size);
    } else {
      // One chunk is the common case: decode it without a concat copy.
      const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
      // An ASCII line (most are) decodes as latin1, a plain copy, a third faster than UTF-8
      // decoding on a 1 MiB line; the string is the same.
      const ascii = isAscii(buf);
      let text = ascii ? buf.toString('latin1') : buf.toString('utf8');
      let end = buf.length;
      if (text.endsWith('\r')) {
        text = text.slice(0, -1);
        end--;
      }
      if (text.trim() !== '') {
        if (this.stamp) {
          arrival.at = this.lineAt;
          // A large line's own bytes go with it, for the writer that forwards it (wire-bytes.ts).
          const carry = ascii && end >= WIRE_BYTES_MIN;
          if (carry) handingOn(text, end === buf.length ? buf : buf.subarray(0, end));
          try {
            this.handlers.line(text);
          } finally {
            arrival.at = -1;
            if (carry) handedOn();
          }
        } else this.handlers.line(text);
      }
    }
    this.chunks = [];
    this.size = 0;
    this.skipping = false;
  }
}
