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
    const cut = raw.slice(0, maxBytes + redactor.maxNeedle);
    const redacted = redactor.redact(cut);
    const prefix = redacted.slice(0, maxBytes);
    // Every character one UTF-8 byte: ASCII, so no surrogate pair the cut could split (a mask's
    // label is the config's and could be anything: then it is measured).
    const ascii = size === raw.length && (redacted === cut || Buffer.byteLength(redacted) === redacted.length);
    out.json = ascii ? quoteAsciiJson(prefix) : JSON.stringify(prefix);
    out.size = size;
    out.truncated = true;
    out.ascii = ascii || Buffer.byteLength(out.json) === out.json.length;
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

/**
 * `JSON.stringify(text)` for ASCII JSON text (or a piece of it), as the prefix cut above is. V8
 * serialises a string char by char (~3 ms per MiB here); in JSON text the only characters a JSON
 * string must escape are `"`, `\\` and the whitespace allowed between tokens (tab, newline,
 * carriage return: no other control character can stand unescaped in JSON), so two replaceAll
 * passes do, in a third of the time, when none of that whitespace is there.
 */
export function quoteAsciiJson(text: string): string {
  if (text.length < 4096 || text.includes('\n') || text.includes('\r') || text.includes('\t')) return JSON.stringify(text);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
