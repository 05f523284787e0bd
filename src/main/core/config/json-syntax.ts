/**
 * Finds where a JSON text goes wrong. `JSON.parse` messages differ between V8 versions and
 * often carry no position at all ("Unexpected end of JSON input"), but a person fixing a config
 * by hand needs a line and a column, and a hint for the usual slips (trailing commas, comments,
 * single quotes) that editors and READMEs produce.
 */

export interface JsonSyntaxError {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  offset: number;
}

const MAX_DEPTH = 512;

class Fail extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new Scanner(text).document();
    return undefined;
  } catch (err) {
    if (!(err instanceof Fail)) throw err;
    return { message: err.message, offset: err.offset, ...lineAndColumn(text, err.offset) };
  }
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

class Scanner {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.ws();
    if (this.pos >= this.text.length) throw new Fail('the file is empty', this.pos);
    this.value(0);
    this.ws();
    if (this.pos < this.text.length) {
      throw new Fail(`unexpected ${this.describe()} after the end of the JSON value`, this.pos);
    }
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) throw new Fail('nesting is too deep', this.pos);
    const ch = this.text[this.pos];
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    if (ch === "'") throw new Fail('strings must use double quotes (") in JSON', this.pos);
    throw new Fail(`expected a value but found ${this.describe()}`, this.pos);
  }

  private object(depth: number): void {
    this.pos++; // {
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.pos] !== '"') {
        if (this.text[this.pos] === "'")
          throw new Fail('property names must use double quotes (") in JSON', this.pos);
        throw new Fail(
          `expected a property name in double quotes but found ${this.describe()}`,
          this.pos,
        );
      }
      this.string();
      this.ws();
      if (this.text[this.pos] !== ':')
        throw new Fail(
          `expected ':' after the property name but found ${this.describe()}`,
          this.pos,
        );
      this.pos++;
      this.ws();
      this.value(depth + 1);
      this.ws();
      const ch = this.text[this.pos];
      if (ch === '}') {
        this.pos++;
        return;
      }
      if (ch !== ',')
        throw new Fail(
          `expected ',' or '}' after a property value but found ${this.describe()}`,
          this.pos,
        );
      const comma = this.pos;
      this.pos++;
      this.ws();
      if (this.text[this.pos] === '}')
        throw new Fail('trailing comma: JSON does not allow a comma before }', comma);
    }
  }

  private array(depth: number): void {
    this.pos++; // [
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      this.value(depth + 1);
      this.ws();
      const ch = this.text[this.pos];
      if (ch === ']') {
        this.pos++;
        return;
      }
      if (ch !== ',')
        throw new Fail(
          `expected ',' or ']' after an array element but found ${this.describe()}`,
          this.pos,
        );
      const comma = this.pos;
      this.pos++;
      this.ws();
      if (this.text[this.pos] === ']')
        throw new Fail('trailing comma: JSON does not allow a comma before ]', comma);
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos++; // opening quote
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (Number.isNaN(code)) throw new Fail('unterminated string', start);
      if (code === 0x22) {
        this.pos++;
        return;
      }
      if (code < 0x20) {
        const what = code === 10 ? 'line break' : 'control character';
        throw new Fail(
          `${what} inside a string (missing closing quote? or write it as an escape like \\n)`,
          this.pos,
        );
      }
      if (code === 0x5c) {
        const next = this.text[this.pos + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
            throw new Fail('invalid \\u escape: expected 4 hex digits', this.pos);
          }
          this.pos += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) {
          throw new Fail('invalid escape in string (write a backslash as \\\\)', this.pos);
        }
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
  }

  private number(): void {
    const re = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    re.lastIndex = this.pos;
    const match = re.exec(this.text);
    if (!match) throw new Fail('invalid number', this.pos);
    this.pos += match[0].length;
  }

  private ws(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        this.pos++;
        continue;
      }
      if (ch === '/' && (this.text[this.pos + 1] === '/' || this.text[this.pos + 1] === '*')) {
        throw new Fail('comments are not allowed in JSON', this.pos);
      }
      return;
    }
  }

  private describe(): string {
    if (this.pos >= this.text.length) return 'the end of the file';
    const ch = this.text[this.pos];
    return `'${ch}'`;
  }
}
