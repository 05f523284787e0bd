/**
 * A message's text as the inspector keeps it: redacted, on one line, valid JSON (or a JSON
 * string holding a prefix when the message is larger than `maxBytes`). Computed once per
 * message: both legs of a pair share it.
 */
import { exceedsDepth } from '../protocol/json-depth.js';
import type { Redactor } from './redactor.js';

/** The result of `messageText`; one object, reused (it is computed for every message). */
export interface MessageText {
  json: string;
  /** UTF-8 bytes of the message as it crossed. */
  size: number;
  truncated: boolean;
  /** `json` is ASCII only (the line log then copies it rather than encoding it). */
  ascii: boolean;
}

export function messageText(raw: string, redactor: Redactor, maxBytes: number, out: MessageText): MessageText {
  const size = Buffer.byteLength(raw);
  // Too large, or nested too deep for anything to walk (json-depth.ts): a prefix, as a JSON
  // string — so no later query, export or live subscriber ever has to walk it.
  if (size > maxBytes || exceedsDepth(raw)) {
    // Cut past the limit by the longest secret, redact, then cut: no secret survives the cut.
    const prefix = redactor.redact(raw.slice(0, maxBytes + redactor.maxNeedle)).slice(0, maxBytes);
    out.json = jsonStringLiteral(prefix);
    out.size = size;
    out.truncated = true;
    out.ascii = Buffer.byteLength(out.json) === out.json.length;
    return out;
  }
  let json = redactor.redactJsonText(raw);
  // Newlines can only be whitespace between JSON tokens (inside strings they are escaped).
  if (json.includes('\n') || json.includes('\r')) json = json.replace(/[\r\n]+/g, ' ');
  out.json = json;
  out.size = size;
  out.truncated = false;
  // Only ASCII takes one UTF-8 byte per character.
  out.ascii = json === raw ? size === raw.length : Buffer.byteLength(json) === json.length;
  return out;
}

/** What a JSON string literal must escape besides `"` and `\\`, and surrogates (a cut may split a pair). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const SPECIAL = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)` for a string, faster on the large prefixes this module cuts: V8
 * serialises a string char by char (~3 ms per MiB here), while two replaceAll passes over text
 * with no control character and no surrogate cost a third of that. Anything else takes the
 * exact path.
 */
export function jsonStringLiteral(text: string): string {
  if (text.length < 4096 || SPECIAL.test(text)) return JSON.stringify(text);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
