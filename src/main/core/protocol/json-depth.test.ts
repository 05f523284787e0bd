import { describe, expect, it } from 'vitest';
import { exceedsDepth, MAX_JSON_DEPTH, stringifyOrUndefined } from './json-depth.js';
import { LAZY_MIN, lazyAnswer, MAX_SKIM_DEPTH, resultPending } from './lazy-answer.js';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);
/** Parsed, with the length of its text: as the hub checks what it read. */
const deep = (text: string, max?: number): boolean => exceedsDepth(JSON.parse(text), text.length, max);

describe('exceedsDepth', () => {
  it('takes a large answer routed on a skim as bounded by it, and does not parse it to find out', () => {
    const text = `{"jsonrpc":"2.0","id":1,"result":${'['.repeat(MAX_SKIM_DEPTH)}"${'x'.repeat(LAZY_MIN)}"${']'.repeat(MAX_SKIM_DEPTH)}}`;
    const answer = lazyAnswer(text)!;
    expect(exceedsDepth(answer, text.length)).toBe(false);
    expect(resultPending(answer)).toBe(true);
    // A bound below the skim's is still walked (and then the result is parsed).
    expect(exceedsDepth(answer, text.length, MAX_SKIM_DEPTH - 1)).toBe(true);
  });

  it('counts arrays and objects, up to and past the bound', () => {
    expect(deep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(deep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(deep('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(deep('{"a":'.repeat(MAX_JSON_DEPTH) + '1' + '}'.repeat(MAX_JSON_DEPTH))).toBe(false);
    // Far deeper than any stack: JSON.parse takes it, the walk stops at the bound.
    expect(deep(nested(1_000_000))).toBe(true);
  });

  it('brackets inside strings are text, escaped quotes included', () => {
    expect(deep(JSON.stringify({ text: '['.repeat(5000) + '\\"' + '{'.repeat(5000) }))).toBe(false);
    expect(deep(`["x\\\\",${nested(MAX_JSON_DEPTH + 5)}]`)).toBe(true);
    // A tool result holding deep JSON as text is one string.
    expect(deep(JSON.stringify({ result: { content: [{ type: 'text', text: nested(10_000) }] } }))).toBe(false);
  });

  it('siblings do not add up: depth, not count; the deep one may be the last of many', () => {
    expect(deep(`[${Array.from({ length: 5000 }, () => '[[1]]').join(',')}]`)).toBe(false);
    expect(deep(`{${Array.from({ length: 300 }, (_, i) => `"k${i}":{"a":[1]}`).join(',')},"last":${nested(MAX_JSON_DEPTH)}}`)).toBe(true);
  });

  it('short text is never deep enough to matter, and is not walked', () => {
    expect(deep('[[[[[]]]]]', 10)).toBe(false);
    expect(deep('[[[[[[[[[[[]]]]]]]]]]]', 10)).toBe(true);
    // The text's length decides whether to walk: a short text is not looked at at all.
    expect(exceedsDepth(JSON.parse(nested(20)), 10, 10)).toBe(false);
    expect(exceedsDepth('a string', 10_000)).toBe(false);
    expect(exceedsDepth(null, 10_000)).toBe(false);
  });
});

describe('stringifyOrUndefined', () => {
  it('serializes, or says it could not when the value is too deep', () => {
    expect(stringifyOrUndefined({ a: [1] })).toBe('{"a":[1]}');
    expect(stringifyOrUndefined(JSON.parse(nested(100_000)))).toBeUndefined();
  });
});
