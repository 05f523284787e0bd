import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

function collect(max = 1024) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const reader = new LineReader(max, { line: (l) => lines.push(l), oversize: (n) => oversize.push(n) });
  return { reader, lines, oversize };
}

describe('LineReader (P29 framing)', () => {
  it('splits lines across chunk boundaries and strips CR', () => {
    const { reader, lines } = collect();
    reader.push(Buffer.from('{"a":1}\n{"b"'));
    reader.push(Buffer.from(':2}\r\n\n{"c":3}'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    reader.push(Buffer.from('\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
  it('decodes a UTF-8 character split across chunks', () => {
    const { reader, lines } = collect();
    const bytes = Buffer.from('{"t":"é✓"}\n');
    reader.push(bytes.subarray(0, 8));
    reader.push(bytes.subarray(8));
    expect(lines).toEqual(['{"t":"é✓"}']);
  });
  it('drops a line over the cap whole and goes on with the next', () => {
    const { reader, lines, oversize } = collect(16);
    reader.push(Buffer.from('x'.repeat(10)));
    reader.push(Buffer.from('y'.repeat(10) + '\n{"ok":1}\n'));
    expect(oversize).toEqual([20]);
    expect(lines).toEqual(['{"ok":1}']);
  });
});
