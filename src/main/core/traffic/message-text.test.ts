import { describe, expect, it } from 'vitest';
import { messageText, quoteAsciiJson, type MessageText } from './message-text.js';
import { Redactor } from './redactor.js';

describe('quoteAsciiJson', () => {
  it('is JSON.stringify for ASCII JSON text, short and long, with and without whitespace between tokens', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const values = [{ a: 'x"y\\z' }, ['\\"', 1, null], 'plain', { id: 3, text: '\u0001\u001f\u007f' }];
    for (let t = 0; t < 200; t++) {
      const value = Array.from({ length: 100 + rand(400) }, () => values[rand(values.length)]);
      const text = JSON.stringify(value, null, rand(4) === 0 ? '\t' : rand(2) === 0 ? 2 : undefined);
      const piece = text.slice(0, rand(text.length) + 1); // a prefix, as a cut takes
      expect(quoteAsciiJson(piece)).toBe(JSON.stringify(piece));
    }
  });
});

describe('messageText', () => {
  it('keeps a truncated prefix a valid JSON string even when the cut splits a surrogate pair', () => {
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'a'.repeat(5000) + '😀'.repeat(10) } });
    const cut = raw.indexOf('😀') + 1; // between the two halves of the first emoji
    const out: MessageText = { json: '', size: 0, truncated: false, ascii: false };
    messageText(raw, new Redactor(), cut, out);
    expect(out.truncated).toBe(true);
    expect(JSON.parse(out.json)).toBe(raw.slice(0, cut));
    expect(out.json).toBe(JSON.stringify(raw.slice(0, cut)));
  });

  it('keeps an ASCII message over the limit as an exact JSON string of its prefix, with a secret masked', () => {
    const secret = 'sk-live-0123456789';
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: `${'y'.repeat(6000)} ${secret} "quoted" \\ back` } });
    const redactor = new Redactor();
    redactor.setSource('store', [{ label: 'key', value: secret }]);
    const out: MessageText = { json: '', size: 0, truncated: false, ascii: false };
    messageText(raw, redactor, raw.length - 5, out);
    expect(out.truncated).toBe(true);
    expect(out.ascii).toBe(true);
    const kept = JSON.parse(out.json) as string;
    expect(kept).not.toContain(secret);
    expect(kept).toContain('[secret:key]');
    expect(out.json).toBe(JSON.stringify(kept));
  });
});
