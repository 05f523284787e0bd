/**
 * Nesting depth of JSON text, bounded. `JSON.parse` accepts any depth, but everything that walks
 * a parsed value recursively — `JSON.stringify` first of all, around 5,000 levels — overflows the
 * stack on a deep one. The hub checks depth where it takes JSON in (an HTTP body, a child's
 * stdout line) and where the inspector captures it, so one message can neither break a session
 * nor poison what is stored.
 *
 * No MCP message needs more than a few dozen levels; MAX_JSON_DEPTH leaves a wide margin.
 */
import { isLazyAnswer, MAX_SKIM_DEPTH } from './lazy-answer.js';

export const MAX_JSON_DEPTH = 512;

/**
 * True when `value` (parsed JSON) opens more than `max` arrays/objects at once. `textLength` is the
 * length of the text it was parsed from: a text no longer than `max` cannot, and is not walked (the
 * hot path's small messages cost one comparison).
 *
 * It walks the parsed value, not the text (JSON.parse itself is iterative in V8: it takes any
 * depth). A text scan had to look at every character of every string: 2–3 ms per MiB of a tool
 * result holding JSON as text, on the path of every message from a server. In the value a string
 * is one leaf. Recursion goes no deeper than `max` + 1.
 */
export function exceedsDepth(value: unknown, textLength: number, max = MAX_JSON_DEPTH): boolean {
  if (textLength <= max || typeof value !== 'object' || value === null) return false;
  // A large answer routed on a skim was bounded by it, and walking it would parse its result.
  if (max > MAX_SKIM_DEPTH && isLazyAnswer(value)) return false;
  return deeper(value, max - 1);
}

/** Whether `x` has a descendant object more than `left` levels below it. */
function deeper(x: object, left: number): boolean {
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const y: unknown = x[i];
      if (typeof y === 'object' && y !== null && (left === 0 || deeper(y, left - 1))) return true;
    }
    return false;
  }
  for (const key in x) {
    const y: unknown = (x as Record<string, unknown>)[key];
    if (typeof y === 'object' && y !== null && (left === 0 || deeper(y, left - 1))) return true;
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
