/**
 * A JSON-RPC message's text with its top-level `id` replaced, without parsing and re-serialising
 * the rest. A hub that multiplexes (a shared child, the era bridge, the modern stdio upstream)
 * gives each request an id of its own and restores the client's on the answer; doing that with
 * `JSON.stringify({ ...message, id })` re-serialises the whole result, which for a 1 MiB tool
 * result cost more than everything else the hub does with it. The text is scanned once, strings
 * skipped with indexOf, and only the id's value is cut out and replaced.
 *
 * Only top-level members count: an `"id"` inside the result (resources and tools often have one)
 * is left alone. Like `JSON.parse`, the last of duplicate keys is the one that counts, so every
 * top-level `id` is replaced. Anything the scan does not understand (an escaped key that could
 * spell `id`, an id that is not a string, number or null, text that is not one JSON object)
 * gives `undefined`: the caller then serialises the message itself.
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

/**
 * `raw` with the value of every top-level `"id"` member replaced by `idJson` (the new id's JSON
 * text, e.g. `JSON.stringify(id)`), or undefined when it cannot tell (see the header).
 */
export function replaceTopLevelId(raw: string, idJson: string): string | undefined {
  const n = raw.length;
  let i = 0;
  while (i < n && isSpace(raw.charCodeAt(i))) i++;
  if (raw.charCodeAt(i) !== 0x7b) return undefined;
  /** [start, end) of each top-level id value. */
  const spans: number[] = [];
  let depth = 0;
  // At depth 1, whether the next string is a member's key (after `{` or `,`) or a value.
  let expectKey = false;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(raw, i);
      if (end === -1) return undefined;
      if (depth === 1 && expectKey) {
        expectKey = false;
        const length = end - i - 1;
        if (length === 2 && raw.charCodeAt(i + 1) === 0x69 && raw.charCodeAt(i + 2) === 0x64) {
          let v = end + 1;
          while (v < n && isSpace(raw.charCodeAt(v))) v++;
          if (raw.charCodeAt(v) !== 0x3a) return undefined;
          v++;
          while (v < n && isSpace(raw.charCodeAt(v))) v++;
          const valueEnd = raw.charCodeAt(v) === QUOTE ? stringEnd(raw, v) + 1 : scalarEnd(raw, v);
          if (valueEnd <= 0) return undefined;
          spans.push(v, valueEnd);
          i = valueEnd - 1;
          continue;
        }
        // A short key with an escape might spell `id` (`"\u0069d"`, at most 12 characters):
        // not worth decoding, the caller serialises instead.
        if (length <= 12 && raw.slice(i + 1, end).includes('\\')) return undefined;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) {
        // Only whitespace may follow the object.
        for (let j = i + 1; j < n; j++) if (!isSpace(raw.charCodeAt(j))) return undefined;
        break;
      }
    } else if (c === 0x2c && depth === 1) {
      expectKey = true;
    }
  }
  if (depth !== 0 || spans.length === 0) return undefined;
  let out = '';
  let from = 0;
  for (let k = 0; k < spans.length; k += 2) {
    out += raw.slice(from, spans[k]) + idJson;
    from = spans[k + 1]!;
  }
  return out + raw.slice(from);
}
