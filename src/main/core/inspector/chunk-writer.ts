/**
 * Text encoded straight into large buffers, piece by piece: a history line is written as its
 * head, then the message text (already flat: it is the string the hub received), then its tail,
 * with no intermediate concatenation of the whole line or batch, and no second copy to encode it.
 */
const CHUNK = 256 * 1024;

/** Buffer's own UTF-8 writer, without the argument checks of `write` (it runs for every event). */
type Utf8Write = (this: Buffer, text: string, offset: number, length: number) => number;
const utf8Write: Utf8Write =
  (Buffer.prototype as unknown as { utf8Write?: Utf8Write }).utf8Write ??
  function (this: Buffer, text: string, offset: number, length: number): number {
    return this.write(text, offset, length, 'utf8');
  };
/** A remainder smaller than this is not worth keeping: start a new chunk. */
const MIN_REMAINDER = 8 * 1024;

export class ChunkWriter {
  private chunk = Buffer.allocUnsafe(CHUNK);
  private pos = 0;
  private done: Buffer[] = [];
  private doneBytes = 0;

  /** Bytes written and not yet taken. */
  get bytes(): number {
    return this.doneBytes + this.pos;
  }

  write(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > this.chunk.length - this.pos) {
      this.cut();
      if (text.length * 3 > this.chunk.length) {
        const big = Buffer.from(text, 'utf8');
        this.done.push(big);
        this.doneBytes += big.length;
        return;
      }
    }
    this.pos += utf8Write.call(this.chunk, text, this.pos, this.chunk.length - this.pos);
  }

  /** Everything written so far, as buffers; the writer is then empty. */
  take(): Buffer[] {
    this.cut();
    const out = this.done;
    this.done = [];
    this.doneBytes = 0;
    return out;
  }

  private cut(): void {
    if (this.pos > 0) {
      this.done.push(this.chunk.subarray(0, this.pos));
      this.doneBytes += this.pos;
      this.chunk = this.chunk.subarray(this.pos);
      this.pos = 0;
    }
    if (this.chunk.length < MIN_REMAINDER) this.chunk = Buffer.allocUnsafe(CHUNK);
  }
}
