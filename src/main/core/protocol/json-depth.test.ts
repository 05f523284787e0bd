import { describe, expect, it } from 'vitest';
import { exceedsDepth, MAX_JSON_DEPTH, stringifyOrUndefined } from './json-depth.js';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);

describe('exceedsDepth', () => {
  it('counts arrays and objects, up to and past the bound', () => {
    expect(exceedsDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsDepth('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsDepth(nested(6000))).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ text: '['.repeat(5000) + '\\"' + '{'.repeat(5000) });
    expect(exceedsDepth(inString)).toBe(false);
    // An escaped backslash before a quote ends the string; the brackets after it count.
    const afterString = `["x\\\\",${nested(MAX_JSON_DEPTH + 5)}]`;
    expect(exceedsDepth(afterString)).toBe(true);
  });

  it('siblings do not add up: depth, not count', () => {
    const wide = `[${Array.from({ length: 5000 }, () => '[[1]]').join(',')}]`;
    expect(exceedsDepth(wide)).toBe(false);
  });

  it('short text is never deep enough to matter', () => {
    expect(exceedsDepth('[[[[[', 10)).toBe(false);
    expect(exceedsDepth('[[[[[[[[[[[', 10)).toBe(true);
  });
});

describe('stringifyOrUndefined', () => {
  it('serializes, or says it could not when the value is too deep', () => {
    expect(stringifyOrUndefined({ a: [1] })).toBe('{"a":[1]}');
    expect(stringifyOrUndefined(JSON.parse(nested(100_000)))).toBeUndefined();
  });
});
