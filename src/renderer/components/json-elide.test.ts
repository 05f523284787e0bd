import { describe, expect, it } from 'vitest';
import { elideBase64 } from './json-elide.js';

describe('elideBase64', () => {
  it('elides a long base64 string and keeps the rest, and says how many', () => {
    const data = 'iVBORw0KGgo'.padEnd(4000, 'A') + '==';
    const message = { result: { content: [{ type: 'image', mimeType: 'image/png', data }, { type: 'text', text: 'a chart' }] } };
    const { value, count } = elideBase64(message);
    expect(count).toBe(1);
    const content = (value as typeof message).result.content;
    expect(content[0]!.data).toMatch(/^iVBORw0KGgo.*… \(3\.9 KB of base64, elided\)$/);
    expect(content[0]!.data!.length).toBeLessThan(100);
    expect(content[1]).toEqual({ type: 'text', text: 'a chart' });
  });
  it('leaves ordinary text, short strings and prose alone (the same object back)', () => {
    const message = { text: 'hello world '.repeat(100), id: 'abc123', n: 1 };
    expect(elideBase64(message)).toEqual({ value: message, count: 0 });
    expect(elideBase64(message).value).toBe(message);
  });
});
