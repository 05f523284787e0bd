/**
 * How a value can read inside a JSON string short of `\u` escapes: as written, as JSON.stringify
 * escapes it (`\"`, `\\`, control characters), and with `/` as `\/` (JSON allows it; PHP's
 * json_encode writes it by default). One list for the two searches of raw JSON text for secrets —
 * the capture's Redactor (traffic/redactor.ts) and the secret checks (guard/secret-finder.ts) —
 * so both look for the same spellings. (A `\uXXXX` escape can spell anything: both treat text
 * that has one apart, by its parsed strings.)
 */
export function jsonSpellings(value: string): string[] {
  const variants = new Set([value]);
  const escaped = JSON.stringify(value).slice(1, -1);
  variants.add(escaped);
  if (escaped.includes('/')) variants.add(escaped.split('/').join('\\/'));
  return [...variants];
}
