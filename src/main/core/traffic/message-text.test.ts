import { describe, expect, it } from 'vitest';
import { LineLog } from '../inspector/line-log.js';
import { jsonOf, messageText, type MessageText } from './message-text.js';
import { Redactor } from './redactor.js';

function fresh(): MessageText {
  return { text: '', form: 'utf8', size: 0, truncated: false };
}

/** The bytes the line log writes for a kept text, in its form (what history and memory hold). */
function written(t: MessageText): string {
  const log = new LineLog(false);
  for (;;) {
    log.begin();
    const start = log.pos;
    if (t.form === 'ascii') log.ascii(t.text);
    else if (t.form === 'quote') log.asciiQuoted(t.text);
    else log.utf8(t.text);
    if (!log.overflow) return log.chunk.toString('utf8', start, log.pos);
    log.retry();
  }
}

describe('messageText', () => {
  it('keeps a truncated prefix a valid JSON string even when the cut splits a surrogate pair', () => {
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'a'.repeat(5000) + '😀'.repeat(10) } });
    const cut = raw.indexOf('😀') + 1; // between the two halves of the first emoji
    const out = messageText(raw, JSON.parse(raw), new Redactor(), cut, fresh());
    expect(out.truncated).toBe(true);
    expect(out.form).not.toBe('quote');
    expect(JSON.parse(jsonOf(out))).toBe(raw.slice(0, cut));
    expect(written(out)).toBe(JSON.stringify(raw.slice(0, cut)));
  });

  it('keeps an ASCII message over the limit as an exact JSON string of its prefix, with a secret masked', () => {
    const secret = 'sk-live-0123456789';
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: `${'y'.repeat(6000)} ${secret} "quoted" \\ back` } });
    const redactor = new Redactor();
    redactor.setSource('store', [{ label: 'key', value: secret }]);
    const out = messageText(raw, JSON.parse(raw), redactor, raw.length - 5, fresh());
    expect(out.truncated).toBe(true);
    expect(out.form).toBe('quote');
    const kept = JSON.parse(jsonOf(out)) as string;
    expect(kept).not.toContain(secret);
    expect(kept).toContain('[secret:key]');
    expect(written(out)).toBe(JSON.stringify(kept));
  });

  it('a large result holding JSON as text (escapes every few bytes) is kept as its prefix, quoted as JSON.stringify would', () => {
    const items = Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `item-${i}`, path: `C:\\data\\${i}.json`, ok: i % 2 === 0 }));
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: JSON.stringify(items) }] } });
    const limit = 1024 * 1024;
    expect(raw.length).toBeGreaterThan(limit);
    const out = messageText(raw, JSON.parse(raw), new Redactor(), limit, fresh());
    expect(out).toMatchObject({ form: 'quote', truncated: true, size: raw.length });
    expect(written(out)).toBe(JSON.stringify(raw.slice(0, limit)));
  });

  it('a prefix with whitespace between tokens (tabs, newlines) is quoted by JSON.stringify, which escapes them', () => {
    const pretty = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'z'.repeat(3000) } }, null, '\t');
    const out = messageText(pretty, JSON.parse(pretty), new Redactor(), 2000, fresh());
    expect(out.form).toBe('ascii');
    expect(out.text).toBe(JSON.stringify(pretty.slice(0, 2000)));
    expect(written(out)).toBe(out.text);
  });

  it('a message within the limit is its own JSON text, ASCII or not', () => {
    const raw = '{"jsonrpc":"2.0","id":1,"result":{"text":"plain"}}';
    expect(messageText(raw, JSON.parse(raw), new Redactor(), 1000, fresh())).toMatchObject({ text: raw, form: 'ascii', truncated: false });
    const wide = '{"jsonrpc":"2.0","id":1,"result":{"text":"héllo"}}';
    expect(messageText(wide, JSON.parse(wide), new Redactor(), 1000, fresh())).toMatchObject({ text: wide, form: 'utf8', size: Buffer.byteLength(wide) });
  });
});
