/**
 * Finds the table headers of a TOML text with their line numbers, without a full parser: it
 * tracks strings (multi-line ones included), comments and open brackets, so a line starting
 * with `[` inside a multi-line array or string is never taken for a header. The edit built on
 * this is verified with a real TOML parser afterwards.
 */

export interface TomlHeader {
  /** 0-based line index. */
  line: number;
  /** Decoded key path, e.g. ['mcp_servers', 'github']. */
  path: string[];
  /** `[[array.of.tables]]`. */
  array: boolean;
}

interface ScanState {
  multi: '"""' | "'''" | undefined;
  depth: number;
}

export function scanTomlHeaders(lines: readonly string[]): TomlHeader[] {
  const headers: TomlHeader[] = [];
  const state: ScanState = { multi: undefined, depth: 0 };
  lines.forEach((line, index) => {
    let pos = 0;
    if (state.multi) {
      const close = findClose(line, 0, state.multi);
      if (close < 0) return;
      state.multi = undefined;
      pos = close;
    } else if (state.depth === 0) {
      const header = parseHeader(line);
      if (header) {
        headers.push({ line: index, ...header });
        return;
      }
    }
    scanValue(line, pos, state);
  });
  return headers;
}

/** Index just after the closing delimiter, or -1 if the line does not close it. */
function findClose(line: string, from: number, delimiter: '"""' | "'''"): number {
  for (let i = from; i < line.length; i++) {
    if (delimiter === '"""' && line[i] === '\\') {
      i++;
      continue;
    }
    if (line.startsWith(delimiter, i)) {
      // A closing delimiter may be followed by up to two more quotes that belong to the string.
      let end = i + 3;
      while (end < line.length && line[end] === delimiter[0] && end < i + 5) end++;
      return end;
    }
  }
  return -1;
}

function scanValue(line: string, from: number, state: ScanState): void {
  for (let i = from; i < line.length; i++) {
    const ch = line[i];
    if (ch === '#') return;
    if (ch === '"' || ch === "'") {
      const triple = ch === '"' ? '"""' : "'''";
      if (line.startsWith(triple, i)) {
        const close = findClose(line, i + 3, triple);
        if (close < 0) {
          state.multi = triple;
          return;
        }
        i = close - 1;
        continue;
      }
      i = skipString(line, i);
      continue;
    }
    if (ch === '[' || ch === '{') state.depth++;
    else if ((ch === ']' || ch === '}') && state.depth > 0) state.depth--;
  }
}

/** Index of the closing quote of the single-line string starting at `start`. */
function skipString(line: string, start: number): number {
  const quote = line[start];
  for (let i = start + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] === quote) return i;
  }
  return line.length;
}

/** `[a.b]` or `[[a.b]]` at the start of a line (after whitespace), or undefined. */
export function parseHeader(line: string): { path: string[]; array: boolean } | undefined {
  const match = /^\s*\[/.exec(line);
  if (!match) return undefined;
  let i = match[0].length;
  const array = line[i] === '[';
  if (array) i++;
  const path: string[] = [];
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const key = readKey(line, i);
    if (!key) return undefined;
    path.push(key.value);
    i = key.end;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '.') {
      i++;
      continue;
    }
    if (line[i] !== ']') return undefined;
    if (array && line[i + 1] !== ']') return undefined;
    return { path, array };
  }
}

function readKey(line: string, start: number): { value: string; end: number } | undefined {
  const ch = line[start];
  if (ch === '"') {
    const end = skipString(line, start);
    if (end >= line.length) return undefined;
    return { value: decodeBasic(line.slice(start + 1, end)), end: end + 1 };
  }
  if (ch === "'") {
    const end = line.indexOf("'", start + 1);
    if (end < 0) return undefined;
    return { value: line.slice(start + 1, end), end: end + 1 };
  }
  const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(start));
  return bare ? { value: bare[0], end: start + bare[0].length } : undefined;
}

function decodeBasic(body: string): string {
  return body.replace(/\\(U[0-9A-Fa-f]{8}|u[0-9A-Fa-f]{4}|.)/g, (_all, esc: string) => {
    if (esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
    return simple[esc] ?? esc;
  });
}
