import { describe, expect, it } from 'vitest';
import { bytesHaveControl, hasControl, quoteAsciiInto } from './json-quote.js';

/** A seeded generator, so a failure is the same failure on the next run. */
function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
}

/** ASCII text without control characters: runs of plain characters broken by `"` and `\`, dense or sparse. */
function text(rand: (n: number) => number, length: number, escapeEvery: number): string {
  let out = '';
  while (out.length < length) {
    const r = rand(escapeEvery);
    out += r === 0 ? '"' : r === 1 ? '\\' : String.fromCharCode(32 + rand(95));
  }
  return out;
}

function quoted(s: string, at = 3, room = 0): string {
  const dst = Buffer.alloc(at + 2 * s.length + 2 + room, 0xee);
  const end = quoteAsciiInto(s, dst, at);
  expect(end).toBeGreaterThanOrEqual(at);
  expect(dst.subarray(0, at).every((b) => b === 0xee)).toBe(true); // nothing before `at`
  return dst.toString('latin1', at, end);
}

describe('quoteAsciiInto', () => {
  it('writes exactly JSON.stringify of ASCII text, with escapes dense, sparse, at run and window edges', () => {
    const rand = random(11);
    for (const every of [2, 5, 40, 63, 64, 65, 300, 5000, 1e9]) {
      for (const length of [0, 1, 63, 64, 65, 4095, 4096, 4097, 20_000, 70_000]) {
        const s = text(rand, length, every);
        expect(quoted(s)).toBe(JSON.stringify(s));
      }
    }
    // Escapes right at the start and end, and only escapes.
    for (const s of ['"', '\\', '""', `"${'a'.repeat(100)}\\`, '\\'.repeat(5000), `${'x'.repeat(4096)}"${'y'.repeat(70)}\\`]) expect(quoted(s)).toBe(JSON.stringify(s));
  });

  it('a JSON text of a tool result that holds JSON as text (an escape every few bytes) reads back as the text', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item-${i}`, path: `C:\\dir\\${i}.txt` }));
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(items) }] } });
    const prefix = message.slice(0, 100_000);
    expect(JSON.parse(quoted(prefix))).toBe(prefix);
  });

  it('when the buffer is short, by one byte or by most of the text, returns minus what it needs; that size then fits', () => {
    const rand = random(5);
    for (const every of [3, 70, 1e9]) {
      const s = text(rand, 9000, every);
      const need = JSON.stringify(s).length;
      for (const short of [1, 2, 3, 50, need - s.length, need - 1]) {
        expect(quoteAsciiInto(s, Buffer.alloc(7 + need - short), 7)).toBe(-need);
      }
      const dst = Buffer.alloc(7 + need);
      expect(quoteAsciiInto(s, dst, 7)).toBe(7 + need);
      expect(dst.toString('latin1', 7)).toBe(JSON.stringify(s));
    }
  });

  it('reuses its copy of the text: a shorter text after a longer one is not mixed with it', () => {
    expect(quoted('"'.repeat(10_000))).toBe(JSON.stringify('"'.repeat(10_000)));
    expect(quoted('ab')).toBe('"ab"');
  });
});

describe('hasControl', () => {
  it('finds U+0000–U+001F and nothing else', () => {
    expect(hasControl('plain "text" \\ ~\u007f')).toBe(false);
    for (const c of ['\u0000', '\u0001', '\t', '\n', '\r', '\u001f']) expect(hasControl(`a${c}b`)).toBe(true);
  });

  it('bytesHaveControl finds a byte below 0x20 at every place and alignment, and nothing else', () => {
    const backing = Buffer.alloc(80, 0x41);
    for (let offset = 0; offset < 4; offset++) {
      for (const length of [0, 1, 3, 4, 5, 31, 64]) {
        const bytes = backing.subarray(offset, offset + length);
        for (const plain of [0x20, 0x41, 0x7f, 0x80, 0x9f, 0xc3, 0xff]) {
          bytes.fill(plain);
          expect(bytesHaveControl(bytes), `${plain} at ${offset}+${length}`).toBe(false);
        }
        for (let at = 0; at < length; at++) {
          for (const control of [0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1f]) {
            bytes.fill(0xff);
            bytes[at] = control;
            expect(bytesHaveControl(bytes), `${control} at ${at} of ${offset}+${length}`).toBe(true);
          }
        }
      }
    }
    expect(bytesHaveControl(Buffer.from('é — 日本 🌍 "\\"'.repeat(1000)))).toBe(false);
  });
});
