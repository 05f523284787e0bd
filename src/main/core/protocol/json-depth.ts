/**
 * Nesting depth of JSON text, bounded. `JSON.parse` accepts any depth, but everything that walks
 * a parsed value recursively — `JSON.stringify` first of all, around 5,000 levels — overflows the
 * stack on a deep one. The hub checks depth where it takes JSON in (an HTTP body, a child's
 * stdout line) and where the inspector captures it, so one message can neither break a session
 * nor poison what is stored.
 *
 * No MCP message needs more than a few dozen levels; MAX_JSON_DEPTH leaves a wide margin.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when `text` (JSON, or close to it) opens more than `max` arrays/objects at once. Text
 * shorter than `max` cannot, and is not scanned: the hot path's small messages cost one length
 * comparison. Strings are skipped with indexOf (long text content costs next to nothing).
 */
export function exceedsDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote (one not escaped by an odd run of backslashes).
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q === -1) return false;
        let backslashes = 0;
        for (let b = q - 1; text.charCodeAt(b) === 0x5c; b--) backslashes++;
        i = q;
        if ((backslashes & 1) === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** `JSON.stringify`, or undefined when the value is too deep to serialize (never a throw). */
export function stringifyOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}
