/**
 * Long base64 strings (an image's or audio's `data`, an embedded blob) elided for the JSON tree:
 * a few hundred kilobytes of base64 say nothing to a reader and bury the rest of the message.
 * Copy and the raw view keep the full text.
 */

/** Shorter strings are shown as they are. */
export const ELIDE_OVER = 256;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function isLongBase64(v: string): boolean {
  // Test a prefix and the tail only: the whole of a megabyte string need not be scanned twice.
  return v.length > ELIDE_OVER && BASE64.test(v.slice(0, 4096)) && BASE64.test(v.slice(-64));
}

function sizeText(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** `value` with each long base64 string replaced by its start and its size; `count` says how many. */
export function elideBase64(value: unknown): { value: unknown; count: number } {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!isLongBase64(v)) return v;
      count++;
      return `${v.slice(0, 48)}… (${sizeText(v.length)} of base64, elided)`;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  return count === 0 ? { value, count } : { value: out, count };
}
