/**
 * A message's text as the inspector keeps it: redacted, on one line, valid JSON (or a JSON
 * string holding a prefix when the message is larger than `maxMessageBytes`). Computed once per
 * message: the two legs of a pass-through message share it (TextCache).
 */
import type { Redactor } from './redactor.js';

export interface MessageText {
  json: string;
  /** UTF-8 bytes of the message as it crossed. */
  size: number;
  truncated: boolean;
}

export function messageText(raw: string, redactor: Redactor, maxBytes: number): MessageText {
  const size = Buffer.byteLength(raw);
  if (size > maxBytes) {
    // Cut past the limit by the longest secret, redact, then cut: no secret survives the cut.
    const prefix = redactor.redact(raw.slice(0, maxBytes + redactor.maxNeedle)).slice(0, maxBytes);
    return { json: JSON.stringify(prefix), size, truncated: true };
  }
  const redacted = redactor.redactJson(raw);
  let json = redacted.valid ? redacted.text : JSON.stringify(redacted.text);
  // Newlines can only be whitespace between JSON tokens (inside strings they are escaped).
  if (json.includes('\n') || json.includes('\r')) json = json.replace(/[\r\n]+/g, ' ');
  return { json, size, truncated: false };
}

interface Entry {
  key: unknown;
  text: MessageText;
  seq: number;
}

/** The last few message texts by identity (the raw string or the message object the hub passed). */
export class TextCache {
  private readonly entries: Array<Entry | undefined> = [undefined, undefined, undefined, undefined];
  private next = 0;

  get(key: unknown): Entry | undefined {
    for (const e of this.entries) if (e !== undefined && e.key === key) return e;
    return undefined;
  }

  put(key: unknown, text: MessageText, seq: number): void {
    this.entries[this.next] = { key, text, seq };
    this.next = (this.next + 1) % this.entries.length;
  }
}
