import { describe, expect, it } from 'vitest';
import { TextChunks } from './text-chunks.js';

/** Bytes cut into pieces at the given offsets. */
function cut(bytes: Buffer, at: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    out.push(new Uint8Array(bytes.subarray(from, to)));
    from = to;
  }
  return out;
}

describe('TextChunks', () => {
  it('decodes as TextDecoder does, ASCII first, multi-byte sequences split across chunks, invalid bytes', () => {
    const texts = ['data: {"a":"plain"}\n\n', 'data: {"a":"héllo ☃ 😀"}\n\n', `${'x'.repeat(70_000)}é`, 'ascii then ünïcode then ascii again'];
    for (const text of texts) {
      const bytes = Buffer.from(text);
      for (let step = 1; step < 9; step++) {
        const at = Array.from({ length: Math.floor(bytes.length / (step * 3)) }, (_, i) => (i + 1) * step * 3 - (i % 3)).filter((x) => x < bytes.length);
        const chunks = cut(bytes, at);
        const ours = new TextChunks();
        const theirs = new TextDecoder();
        expect(chunks.map((c) => ours.decode(c)).join('')).toBe(chunks.map((c) => theirs.decode(c, { stream: true })).join(''));
      }
    }
    const bad = cut(Buffer.from([0x61, 0xc3, 0x62, 0xff, 0x63]), [2, 4]);
    const ours = new TextChunks();
    const theirs = new TextDecoder();
    expect(bad.map((c) => ours.decode(c)).join('')).toBe(bad.map((c) => theirs.decode(c, { stream: true })).join(''));
  });

  it('reads a chunk that is a view into a larger buffer by its own bytes only', () => {
    const whole = Buffer.from('0123456789');
    expect(new TextChunks().decode(whole.subarray(3, 6))).toBe('345');
  });
});
