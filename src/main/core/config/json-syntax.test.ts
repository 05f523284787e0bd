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
      ' {"a": [1, {"b": "\\u00e9\\n\\\\"}], "c": false} \n',
    ]) {
      expect(findJsonSyntaxError(text), text).toBeUndefined();
    }
  });

  it.each([
    // the case, line, column, the hint
    [
      'trailing comma in an object',
      '{\n  "a": 1,\n}',
      2,
      9,
      'trailing comma: JSON does not allow a comma before }',
    ],
    [
      'trailing comma in an array',
      '{"a": [1, 2, ]}',
      1,
      12,
      'trailing comma: JSON does not allow a comma before ]',
    ],
    [
      'missing comma between properties',
      '{\n  "a": 1\n  "b": 2\n}',
      3,
      3,
      "expected ',' or '}' but found '\"'",
    ],
    [
      'missing comma between array items',
      '{"a": [1 2]}',
      1,
      10,
      "expected ',' or ']' but found '2'",
    ],
    ['a line comment', '{\n  // note\n  "a": 1\n}', 2, 3, 'comments are not allowed in JSON'],
    ['a block comment', '{"a": 1 /* note */}', 1, 9, 'comments are not allowed in JSON'],
    ['a single-quoted property name', "{'a': 1}", 1, 2, 'must use double quotes'],
    ['a single-quoted value', '{"a": \'x\'}', 1, 7, 'must use double quotes'],
    ['an array closed by }', '{"a": [1, 2}', 1, 12, "expected ',' or ']' but found '}'"],
    [
      'the end of the file inside an object',
      '{"a": 1',
      1,
      8,
      "expected ',' or '}' but found the end of the file",
    ],
    ['a line break inside a string', '{"a": "x\ny"}', 1, 9, 'line break inside a string'],
    [
      'a control character inside a string',
      '{"a": "x\ty"}',
      1,
      9,
      'control character inside a string',
    ],
    ['an unterminated string', '{"a": "abc', 1, 7, 'unterminated string'],
    ['a bad escape', '{"a": "ok\\\\ \\x"}', 1, 13, 'invalid escape in string'],
    ['a short \\u escape', '{"a": "\\u12"}', 1, 8, 'invalid \\u escape'],
    ['a leading zero', '{"a": 01}', 1, 7, 'numbers must not start with 0'],
    ['a number cut short', '{"a": 1.}', 1, 7, 'the number ends too early'],
    ['a misspelt literal', '{"a": tru}', 1, 7, "expected a value but found 't'"],
    ['a second value', '{} {}', 1, 4, "unexpected '{' after the end of the JSON value"],
    ['an empty file', '   \n ', 2, 2, 'the file is empty'],
    ['a missing colon', '{"a" 1}', 1, 6, "expected ':' after the property name"],
    [
      'a non-breaking space between values',
      '{"a":1}\u00a0',
      1,
      8,
      'the invisible character U+00A0',
    ],
  ])('%s: line %i…', (_case, text, line, column, message) => {
    const found = findJsonSyntaxError(text as string);
    expect(found?.message).toContain(message);
    expect(found).toMatchObject({ line, column });
  });

  it('never quotes more than one character of the text (a config may hold a pasted key)', () => {
    const found = findJsonSyntaxError('{"env": {"KEY": sk-live-1234567890}}');
    expect(found?.message).toBe("expected a value but found 's'");
  });

  it('JSONC: comments and trailing commas are fine, the rest is still checked', () => {
    expect(
      findJsonSyntaxError('{\n  // note\n  "a": [1, 2,],\n}', { jsonc: true }),
    ).toBeUndefined();
    expect(findJsonSyntaxError('{"a": 1 /* open', { jsonc: true })?.message).toContain(
      'a comment is not closed',
    );
    expect(findJsonSyntaxError('{"a" 1}', { jsonc: true })).toMatchObject({ line: 1, column: 6 });
  });

  it('reports a document nested too deeply to check instead of crashing', () => {
    expect(findJsonSyntaxError('['.repeat(100_000))?.message).toContain('nested too deeply');
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
      '{,}',
      '"\\/"',
      '-0.5E-3',
      '{"a":1}\u000b',
      'NaN',
      '[1]]',
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
