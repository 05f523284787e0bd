import { describe, expect, it } from 'vitest';
import { plural } from './format.js';

describe('plural', () => {
  it('says one in the singular, any other count in the plural, with thousands grouped', () => {
    expect(plural(1, 'line')).toBe('1 line');
    expect(plural(0, 'error')).toBe('0 errors');
    expect(plural(2, 'stderr line')).toBe('2 stderr lines');
    expect(plural(1234, 'file')).toBe(`${(1234).toLocaleString()} files`);
  });
});
