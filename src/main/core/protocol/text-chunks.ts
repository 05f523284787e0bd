/**
 * UTF-8 chunks of a stream (an SSE body) to text, as `TextDecoder` with `{ stream: true }` gives
 * it, but ASCII chunks — nearly all of them — as Latin-1, a plain copy: a 1 MiB chunk decodes in
 * ~0.2 ms instead of ~0.55 ms. That is exact while every chunk so far was ASCII (an ASCII chunk
 * cannot end inside a multi-byte sequence, so the decoder would hold nothing back); from the first
 * chunk that is not, the decoder takes every chunk, with its state.
 */
import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';

export class TextChunks {
  private decoder: TextDecoder | undefined;

  decode(chunk: Uint8Array): string {
    if (this.decoder === undefined) {
      const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (isAscii(buf)) return buf.toString('latin1');
      this.decoder = new TextDecoder();
    }
    return this.decoder.decode(chunk, { stream: true });
  }
}
