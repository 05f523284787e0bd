import { describe, expect, it } from 'vitest';
import { jsonStringLiteral, messageText, type MessageText } from './message-text.js';
import { Redactor } from './redactor.js';

describe('jsonStringLiteral', () => {
  it('is JSON.stringify for every kind of text, short and long', () => {
    const pieces = ['x', '"', '\\', '\\"', '\n', '\u0000', '\u001f', '\u007f', 'é', '€', '😀', '\ud83d', '\ude00', '\u2028', '{"id":1}'];
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let t = 0; t < 200; t++) {
      // Long enough to take the fast path when nothing special is in it; some with one special character.
      const plain = Array.from({ length: 800 + rand(800) }, () => pieces[rand(5)]).join('');
      const text = rand(2) === 0 ? plain : plain + pieces[rand(pieces.length)] + plain;
      expect(jsonStringLiteral(text)).toBe(JSON.stringify(text));
    }
  });

  it('keeps a truncated prefix a valid JSON string even when the cut splits a surrogate pair', () => {
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'a'.repeat(5000) + '😀'.repeat(10) } });
    const cut = raw.indexOf('😀') + 1; // between the two halves of the first emoji
    const out: MessageText = { json: '', size: 0, truncated: false, ascii: false };
    messageText(raw, new Redactor(), cut, out);
    expect(out.truncated).toBe(true);
    expect(JSON.parse(out.json)).toBe(raw.slice(0, cut));
    expect(out.json).toBe(JSON.stringify(raw.slice(0, cut)));
  });
});
