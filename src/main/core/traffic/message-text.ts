/**
 * A message's text as the inspector keeps it: redacted, on one line, valid JSON (or a JSON
 * string holding a prefix when the message is larger than `maxBytes`). Computed once per
 * message: both legs of a pair share it.
 */
import { exceedsDepth } from '../protocol/json-depth.js';
import { hasControl } from '../lib/json-quote.js';
import type { Redactor } from './redactor.js';

/**
 * How a `MessageText`'s `text` is written: JSON text (`utf8`; `ascii` when every character is
 * ASCII, so the line log copies it rather than encoding it), or `quote`: a large message's ASCII
 * prefix without control characters, kept as a JSON string, which the line log quotes as it
 * writes it (`jsonOf` makes that JSON string where a string is wanted).
 */
export type TextForm = 'utf8' | 'ascii' | 'quote';

/** The result of `messageText`; one object, reused (it is computed for every message). */
export interface MessageText {
  /** The redacted message as JSON text, or (form `quote`) the prefix that is kept of it. */
  text: string;
  form: TextForm;
  /** UTF-8 bytes of the message as it crossed. */
  size: number;
  truncated: boolean;
}

/** The kept text as JSON (a prefix kept in form `quote` becomes its JSON string here). */
export function jsonOf(t: MessageText): string {
  return t.form === 'quote' ? JSON.stringify(t.text) : t.text;
}

/**
 * What the inspector keeps of a message (`raw`: JSON text, as it crossed or as the hub wrote it;
 * `value`: the message parsed from it, when there is one), into `out`.
 */
export function messageText(raw: string, value: unknown, redactor: Redactor, maxBytes: number, out: MessageText): MessageText {
  const size = Buffer.byteLength(raw);
  // Too large, or nested too deep for anything to walk (json-depth.ts): a prefix, as a JSON
  // string — so no later query, export or live subscriber ever has to walk it.
  if (size > maxBytes || exceedsDepth(value, raw.length)) {
    // Cut past the limit by the longest secret, redact, then cut: no secret survives the cut.
    const cut = raw.slice(0, maxBytes + redactor.maxNeedle);
    const redacted = redactor.redact(cut);
    const prefix = redacted.slice(0, maxBytes);
    out.size = size;
    out.truncated = true;
    // Every character one UTF-8 byte: ASCII, so no surrogate pair the cut could split (a mask's
    // label is the config's and could be anything: then it is measured). JSON text has no control
    // characters but the whitespace between tokens (tab, newline, carriage return), which the byte
    // quoting does not escape; a mask's label has none either (the redactor replaces them), but
    // that is looked at rather than assumed, and only when a mask went in.
    const ascii = size === raw.length && (redacted === cut || Buffer.byteLength(redacted) === redacted.length);
    if (ascii && !prefix.includes('\n') && !prefix.includes('\r') && !prefix.includes('\t') && (redacted === cut || !hasControl(prefix))) {
      out.text = prefix;
      out.form = 'quote';
      return out;
    }
    const json = JSON.stringify(prefix);
    out.text = json;
    out.form = Buffer.byteLength(json) === json.length ? 'ascii' : 'utf8';
    return out;
  }
  let json = redactor.redactJsonText(raw);
  // Newlines can only be whitespace between JSON tokens (inside strings they are escaped).
  if (json.includes('\n') || json.includes('\r')) json = json.replace(/[\r\n]+/g, ' ');
  out.text = json;
  out.size = size;
  out.truncated = false;
  // Only ASCII takes one UTF-8 byte per character.
  out.form = (json === raw ? size === raw.length : Buffer.byteLength(json) === json.length) ? 'ascii' : 'utf8';
  return out;
}
