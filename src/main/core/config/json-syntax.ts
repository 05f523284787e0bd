/**
 * Where a JSON text goes wrong, said so a person can fix it: a line, a column, and a hint for the
 * usual slips (trailing commas, comments, single quotes, leading zeros) that editors and READMEs
 * produce. `JSON.parse` messages differ between V8 versions, often carry no position ("Unexpected
 * end of JSON input") and quote the text, which may hold a secret; so positions come from
 * `jsonc-parser` (the parser the client-config editor uses too) and messages from here. One
 * function for `config.json`, pasted snippets and every client's config file (issue 13 item 10).
 */
import { getLocation, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export interface JsonSyntaxError {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  offset: number;
}

export interface JsonSyntaxOptions {
  /**
   * JSONC, as VS Code, Zed and Gemini read their settings: comments and trailing commas are
   * allowed. Default false: JSON as `JSON.parse` reads it.
   */
  jsonc?: boolean;
}

/** The first syntax error in `text`, or undefined when it is valid. */
export function findJsonSyntaxError(
  text: string,
  options: JsonSyntaxOptions = {},
): JsonSyntaxError | undefined {
  const jsonc = options.jsonc === true;
  const errors: ParseError[] = [];
  try {
    parse(text, errors, {
      disallowComments: !jsonc,
      allowTrailingComma: jsonc,
      allowEmptyContent: false,
    });
  } catch (err) {
    // jsonc-parser recurses per nesting level; thousands of levels overflow the stack.
    if (err instanceof RangeError)
      return { message: 'the JSON is nested too deeply to check', offset: 0, line: 1, column: 1 };
    throw err;
  }
  const first = errors[0];
  if (!first) return undefined;
  const { message, offset } = explain(text, first);
  return { message, offset, ...lineAndColumn(text, offset) };
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The character at `offset`, named without quoting more of the text (it may be a secret). */
function found(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the file';
  const code = text.charCodeAt(offset);
  if (
    code < 0x20 ||
    code === 0x7f ||
    code === 0xa0 ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200b)
  ) {
    return `the invisible character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${text[offset]}'`;
}

/** The offset of the last non-whitespace character before `offset`, or -1. */
function previousSignificant(text: string, offset: number): number {
  let at = offset - 1;
  while (at >= 0 && /\s/.test(text[at]!)) at--;
  return at;
}

/** Whether the error sits in an array (its path ends in an index) rather than an object. */
function inArray(text: string, offset: number): boolean {
  return typeof getLocation(text, offset).path.at(-1) === 'number';
}

function explain(text: string, error: ParseError): { message: string; offset: number } {
  const { offset, length } = error;
  const token = text.slice(offset, offset + length);
  const at = (message: string, where = offset): { message: string; offset: number } => ({
    message,
    offset: where,
  });
  // By name: jsonc-parser's ParseErrorCode is a const enum, which isolated modules cannot read.
  const code = printParseErrorCode(error.error);
  switch (code) {
    case 'InvalidSymbol':
      if (text[offset] === "'")
        return at('strings and property names must use double quotes (") in JSON');
      return at(`expected a value but found ${found(text, offset)}`);
    case 'InvalidNumberFormat':
      return at('invalid number');
    case 'PropertyNameExpected':
    case 'ValueExpected': {
      const before = previousSignificant(text, offset);
      if (before === -1 && text.slice(offset).trim() === '') return at('the file is empty');
      const close = text[offset];
      if (text[before] === ',' && (close === '}' || close === ']'))
        return at(`trailing comma: JSON does not allow a comma before ${close}`, before);
      if (code === 'PropertyNameExpected')
        return at(`expected a property name in double quotes but found ${found(text, offset)}`);
      return at(`expected a value but found ${found(text, offset)}`);
    }
    case 'ColonExpected':
      return at(`expected ':' after the property name but found ${found(text, offset)}`);
    case 'CommaExpected': {
      // `01`: jsonc-parser reads a number `0`, then wonders why `1` follows.
      if (
        /\d/.test(text[offset] ?? '') &&
        text[offset - 1] === '0' &&
        !/[\d.eE]/.test(text[offset - 2] ?? '')
      ) {
        return at('numbers must not start with 0 in JSON (no leading zeros)', offset - 1);
      }
      return at(
        `expected ',' or '${inArray(text, offset) ? ']' : '}'}' but found ${found(text, offset)}`,
      );
    }
    case 'CloseBraceExpected':
      return at(`expected ',' or '}' but found ${found(text, offset)}`);
    case 'CloseBracketExpected':
      return at(`expected ',' or ']' but found ${found(text, offset)}`);
    case 'EndOfFileExpected':
      return at(`unexpected ${found(text, offset)} after the end of the JSON value`);
    case 'InvalidCommentToken':
      return at('comments are not allowed in JSON');
    case 'UnexpectedEndOfComment':
      return at('a comment is not closed (missing */)');
    case 'UnexpectedEndOfString': {
      const end = offset + length;
      if (end < text.length)
        return at(
          'line break inside a string (missing closing quote? or write it as an escape like \\n)',
          end,
        );
      return at('unterminated string (missing closing quote)');
    }
    case 'UnexpectedEndOfNumber':
      return at('the number ends too early (digits missing after ".", "e" or "-")');
    case 'InvalidUnicode': {
      const escape = /\\u(?![0-9a-fA-F]{4})/.exec(token);
      return at('invalid \\u escape: expected 4 hex digits', offset + (escape?.index ?? 0));
    }
    case 'InvalidEscapeCharacter': {
      // Escaped backslashes (`\\`) are blanked first, same length, so `\\x` is not read as `\x`.
      const bad = /\\[^"\\/bfnrtu]/.exec(token.replace(/\\\\/g, '__'));
      return at('invalid escape in string (write a backslash as \\\\)', offset + (bad?.index ?? 0));
    }
    case 'InvalidCharacter': {
      let control = 0;
      while (control < token.length && token.charCodeAt(control) >= 0x20) control++;
      return at(
        'control character inside a string (write it as an escape like \\t)',
        offset + (control < token.length ? control : 0),
      );
    }
    default:
      return at('invalid JSON');
  }
}
