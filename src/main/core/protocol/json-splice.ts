/**
 * Small edits to a JSON-RPC message's text without parsing and re-serialising the rest. A hub
 * that multiplexes (a shared child, the era bridge, the modern stdio upstream) gives each request
 * an id of its own and restores the client's on the answer, and the era bridge adds `resultType`
 * to a legacy result; doing either with `JSON.stringify` re-serialises the whole result, which for
 * a 1 MiB tool result cost more than everything else the hub does with it. The text is scanned
 * once, strings skipped with indexOf, and only the piece that changes is cut and replaced.
 *
 * Only top-level members count: an `"id"` inside the result (resources and tools often have one)
 * is left alone. Like `JSON.parse`, the last of duplicate keys is the one that counts. Anything
 * the scan does not understand (an escaped key that could spell a name it looks for, text that is
 * not one JSON object) gives `undefined`: the caller then serialises the message itself.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that closes the string opening at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) return -1;
    let backslashes = 0;
    for (let b = q - 1; text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if ((backslashes & 1) === 0) return q;
    from = q + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** End (exclusive) of the scalar value starting at `start` (a number or a literal), or -1. */
function scalarEnd(text: string, start: number): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || isSpace(c)) break;
    if (c === 0x7b || c === 0x5b || c === QUOTE) return -1;
  }
  return i === start ? -1 : i;
}

/** End (exclusive) of the object or array opening at `open`, or -1. */
function containerEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

/** Where a top-level member's value lies: `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The value spans of the top-level members named `names` (every occurrence, in order), or
 * undefined when `raw` is not one JSON object this scan understands.
 */
function topLevelValues(raw: string, names: readonly string[]): Map<string, Span[]> | undefined {
  const n = raw.length;
  let i = 0;
  while (i < n && isSpace(raw.charCodeAt(i))) i++;
  if (raw.charCodeAt(i) !== 0x7b) return undefined;
  const found = new Map<string, Span[]>();
  // An escaped key this short might spell a name looked for (`"\u0069d"`): not worth decoding.
  const longestEscaped = 6 * Math.max(...names.map((x) => x.length));
  i++;
  while (i < n && isSpace(raw.charCodeAt(i))) i++;
  if (raw.charCodeAt(i) === 0x7d) return onlySpaceAfter(raw, i) ? found : undefined; // `{}`
  for (;;) {
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    if (raw.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = stringEnd(raw, i);
    if (keyEnd === -1) return undefined;
    const key = raw.slice(i + 1, keyEnd);
    if (key.length <= longestEscaped && key.includes('\\')) return undefined;
    let v = keyEnd + 1;
    while (v < n && isSpace(raw.charCodeAt(v))) v++;
    if (raw.charCodeAt(v) !== 0x3a) return undefined;
    v++;
    while (v < n && isSpace(raw.charCodeAt(v))) v++;
    const c = raw.charCodeAt(v);
    const end = c === QUOTE ? stringEnd(raw, v) + 1 : c === 0x7b || c === 0x5b ? containerEnd(raw, v) : scalarEnd(raw, v);
    if (end <= 0) return undefined;
    if (names.includes(key)) {
      const spans = found.get(key);
      if (spans) spans.push({ start: v, end });
      else found.set(key, [{ start: v, end }]);
    }
    i = end;
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    const sep = raw.charCodeAt(i);
    if (sep === 0x2c) {
      i++;
      continue;
    }
    if (sep !== 0x7d) return undefined;
    return onlySpaceAfter(raw, i) ? found : undefined;
  }
}

/** Only whitespace follows the object that closes at `close`. */
function onlySpaceAfter(raw: string, close: number): boolean {
  for (let j = close + 1; j < raw.length; j++) if (!isSpace(raw.charCodeAt(j))) return false;
  return true;
}

/** `raw` with the given spans replaced by `texts` (spans in order, not overlapping). */
export function splice(raw: string, edits: ReadonlyArray<{ span: Span; text: string }>): string {
  let out = '';
  let from = 0;
  for (const { span, text } of edits) {
    out += raw.slice(from, span.start) + text;
    from = span.end;
  }
  return out + raw.slice(from);
}

/**
 * `raw` with the value of every top-level `"id"` member replaced by `idJson` (the new id's JSON
 * text, e.g. `JSON.stringify(id)`), or undefined when it cannot tell (see the header). The id it
 * replaces must be a string, a number or null.
 */
export function replaceTopLevelId(raw: string, idJson: string): string | undefined {
  const edits = topLevelIdEdits(raw, idJson);
  return edits && splice(raw, edits);
}

/** The edits `replaceTopLevelId` makes (to apply to the text's bytes too: wire-bytes.ts), or undefined. */
export function topLevelIdEdits(raw: string, idJson: string): Array<{ span: Span; text: string }> | undefined {
  const spans = topLevelValues(raw, ['id'])?.get('id');
  if (!spans) return undefined;
  for (const s of spans) {
    const c = raw.charCodeAt(s.start);
    if (c === 0x7b || c === 0x5b) return undefined;
  }
  return spans.map((span) => ({ span, text: idJson }));
}

/**
 * `raw` with members added at the start of its top-level `result` object (`fields`: name → value,
 * serialised here), or undefined when there is no single result object to add them to.
 */
export function addResultFields(raw: string, fields: Readonly<Record<string, unknown>>): string | undefined {
  const spans = topLevelValues(raw, ['result'])?.get('result');
  if (!spans || spans.length !== 1) return undefined;
  const span = spans[0]!;
  if (raw.charCodeAt(span.start) !== 0x7b) return undefined;
  let members = '';
  for (const name in fields) members += `${members ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(fields[name])}`;
  if (!members) return raw;
  let k = span.start + 1;
  while (isSpace(raw.charCodeAt(k))) k++;
  const empty = raw.charCodeAt(k) === 0x7d;
  const at = { start: span.start + 1, end: span.start + 1 };
  return splice(raw, [{ span: at, text: empty ? members : `${members},` }]);
}
