import { describe, expect, it } from 'vitest';
import { compileRule, globToRegExp } from './item-filter.js';

describe('item rules', () => {
  it('true, false, an allow list, allow and deny (deny wins)', () => {
    expect(compileRule(undefined).allows('x')).toBe(true);
    expect(compileRule(false).allows('x')).toBe(false);
    const allow = compileRule(['read_*', 'list']);
    expect([allow.allows('read_file'), allow.allows('list'), allow.allows('write_file')]).toEqual([true, true, false]);
    const both = compileRule({ allow: ['*'], deny: ['delete_*', 'drop'] });
    expect([both.allows('get'), both.allows('delete_repo'), both.allows('drop')]).toEqual([true, false, false]);
    expect(both.deniedBy('delete_repo')).toBe('delete_*');
    expect(both.deniedBy('drop')).toBeUndefined();
  });

  it('globs: * any run (slashes too), ? one character, the rest literal', () => {
    expect(globToRegExp('file:///*').test('file:///a/b.txt')).toBe(true);
    expect(globToRegExp('a?c').test('abc')).toBe(true);
    expect(globToRegExp('a.c').test('abc')).toBe(false);
    expect(globToRegExp('(x)+').test('(x)+')).toBe(true);
  });
});
