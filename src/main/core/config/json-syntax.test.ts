import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax.js';

describe('findJsonSyntaxError', () => {
  it('accepts valid JSON of every kind', () => {
    for (const text of [
      '{}',
      '[]',
      '"x"',
      '-1.5e+3',
      'true',
      'null',
      ' {"a": [1, {"b": "\\u00e9\\n"}], "c": false} \n',
    ]) {
      expect(findJsonSyntaxError(text), text).toBeUndefined();
    }
  });

  it.each([
    ['{\n  "a": 1,\n}', 2, 9, 'trailing comma'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ['{\n  // note\n  "a": 1\n}', 2, 3, 'comments are not allowed'],
    ["{'a': 1}", 1, 2, 'double quotes'],
    ['{"a": \'x\'}', 1, 7, 'double quotes'],
    ['{"a": [1, 2}', 1, 12, "expected ',' or ']'"],
    ['{"a": 1', 1, 8, 'the end of the file'],
    ['{"a": "x\ny"}', 1, 9, 'line break inside a string'],
    ['{"a": 01}', 1, 8, "expected ',' or '}'"],
    ['{"a": tru}', 1, 7, 'expected a value'],
    ['{} {}', 1, 4, 'after the end of the JSON value'],
    ['   \n ', 2, 2, 'the file is empty'],
    ['{"a": "\\x"}', 1, 8, 'invalid escape'],
  ])('locates the error in %j at line %i, column %i', (text, line, column, message) => {
    const found = findJsonSyntaxError(text);
    expect(found).toMatchObject({ line, column });
    expect(found?.message).toContain(message);
  });

  it('agrees with JSON.parse on what is valid', () => {
    const samples = [
      '{"a":1}',
      '{"a":1,}',
      '[1,,2]',
      '"\\u12"',
      '1.',
      '.5',
      '-',
      '{"a" 1}',
      '[',
      '{"a":{"b":[]}}',
    ];
    for (const text of samples) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonSyntaxError(text) === undefined, text).toBe(valid);
    }
  });
});
