import { describe, expect, it } from 'vitest';
import { formatShortDateTime, plural } from './format.js';

describe('plural', () => {
  it('says one in the singular, any other count in the plural, with thousands grouped', () => {
    expect(plural(1, 'line')).toBe('1 line');
    expect(plural(0, 'error')).toBe('0 errors');
    expect(plural(2, 'stderr line')).toBe('2 stderr lines');
    expect(plural(1234, 'file')).toBe(`${(1234).toLocaleString()} files`);
  });
});

describe('formatShortDateTime', () => {
  it('gives the day and the time to the second without the year, and a dash for no time', () => {
    const t = '2026-03-04T05:06:07.890Z';
    const text = formatShortDateTime(t);
    expect(text).toBe(new Date(t).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }));
    expect(text).not.toContain('2026');
    expect(formatShortDateTime(undefined)).toBe('—');
    expect(formatShortDateTime('not a time')).toBe('—');
  });
});
