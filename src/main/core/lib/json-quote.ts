/**
 * A JSON string of ASCII text, escaped byte by byte into a buffer: what the capture keeps of a
 * message larger than its limit (a prefix, as a JSON string, so the history line stays JSON).
 *
 * Why not in JavaScript strings: rewriting the text (`replaceAll` of `\` and `"`) cost 0.5 ms per
 * MiB when the text had few of them and 40–65 ms per MiB when it had many — a tool result holding
 * JSON as text, where every quote is escaped, stalled the hub's one thread for that long — and it
 * left several MiB of strings for the garbage collector. `JSON.stringify` costs ~1.3 ms per MiB and
 * a string of its own. Here the text is copied once (a Latin-1 copy: a memcpy), then escaped into
 * the destination: runs between escapes are copied whole (found with `indexOf`, a native search),
 * and where escapes are dense a plain byte loop takes over. ~0.1 ms per MiB with few escapes, ~1 ms
 * with many, and no garbage.
 */

/** Runs shorter than this are not worth a native call: the byte loop takes them. */
const SHORT_RUN = 64;
/** Bytes the byte loop takes at a time before looking for a long run again. */
const WINDOW = 4096;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The copy of the text, reused (kept up to this size; a larger one is made per call). */
const KEEP_SCRATCH = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(0);
/**
 * The text the scratch holds: a line that did not fit is quoted again at once into a larger
 * buffer (line-log.ts `retry`), and its text need not be copied twice. Kept as the scratch is.
 */
let scratchText: string | undefined;

type Latin1Write = (this: Buffer, text: string, offset: number, length: number) => number;
const latin1Write: Latin1Write =
  (Buffer.prototype as unknown as { latin1Write?: Latin1Write }).latin1Write ??
  function (this: Buffer, text: string, offset: number, length: number): number {
    return this.write(text, offset, length, 'latin1');
  };

/** `text`'s bytes (ASCII: one per character) in a buffer valid until the next call. */
function bytesOf(text: string): Buffer {
  if (text === scratchText) return scratch;
  const n = text.length;
  let buf = scratch;
  if (buf.length < n) {
    buf = Buffer.allocUnsafeSlow(n);
    if (n <= KEEP_SCRATCH) scratch = buf;
  }
  latin1Write.call(buf, text, 0, n);
  scratchText = buf === scratch ? text : undefined;
  return buf;
}

/**
 * Writes `JSON.stringify(text)` into `dst` at `at` and returns where it ends. When `dst` has no
 * room for it, returns minus the bytes it needs (what was written past `at` is then garbage), so
 * the caller can get a buffer that fits at once. `text` must be ASCII without control characters
 * (U+0000–U+001F): the only characters to escape are then `"` and `\`, and their escapes are the
 * ones JSON.stringify writes.
 */
export function quoteAsciiInto(text: string, dst: Buffer, at: number): number {
  const n = text.length;
  const limit = dst.length;
  const src = bytesOf(text).subarray(0, n);
  // Out of room: from then on the bytes are only counted (`j` goes on as if written).
  let counting = at + n + 2 > limit;
  let j = at;
  if (!counting) dst[j] = QUOTE;
  j++;
  // The next `"` and `\` at or after i (n: none); searched again only once i has passed them.
  let nextQuote = -1;
  let nextSlash = -1;
  let i = 0;
  while (i < n) {
    if (nextQuote < i) {
      nextQuote = src.indexOf(QUOTE, i);
      if (nextQuote < 0) nextQuote = n;
    }
    if (nextSlash < i) {
      nextSlash = src.indexOf(BACKSLASH, i);
      if (nextSlash < 0) nextSlash = n;
    }
    const k = nextQuote < nextSlash ? nextQuote : nextSlash;
    if (k - i >= SHORT_RUN || k === n) {
      // A long run (or the rest): copied whole, then its escape.
      const escaped = k < n ? 2 : 0;
      if (!counting && j + (k - i) + escaped > limit) counting = true;
      if (!counting) {
        dst.set(src.subarray(i, k), j);
        if (escaped !== 0) {
          dst[j + k - i] = BACKSLASH;
          dst[j + k - i + 1] = src[k]!;
        }
      }
      j += k - i + escaped;
      i = escaped !== 0 ? k + 1 : k;
      continue;
    }
    // Escapes close together: byte by byte for a window.
    const stop = i + WINDOW < n ? i + WINDOW : n;
    if (!counting && j + 2 * (stop - i) > limit) {
      // Maybe not room for every byte escaped: each checked, counting from the first that does not fit.
      for (; i < stop; i++) {
        const c = src[i]!;
        const w = c === QUOTE || c === BACKSLASH ? 2 : 1;
        if (j + w > limit) {
          counting = true;
          break;
        }
        if (w === 2) dst[j++] = BACKSLASH;
        dst[j++] = c;
      }
      continue;
    }
    if (counting) {
      for (; i < stop; i++) {
        const c = src[i]!;
        j += c === QUOTE || c === BACKSLASH ? 2 : 1;
      }
      continue;
    }
    for (; i < stop; i++) {
      const c = src[i]!;
      if (c === QUOTE || c === BACKSLASH) dst[j++] = BACKSLASH;
      dst[j++] = c;
    }
  }
  if (!counting && j + 1 > limit) counting = true;
  if (counting) return -(j + 1 - at);
  dst[j++] = QUOTE;
  return j;
}

/** Whether `text` has a control character (U+0000–U+001F), which `quoteAsciiInto` does not escape. */
export function hasControl(text: string): boolean {
  return CONTROL.test(text);
}
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f]/;

/**
 * Whether `bytes` hold a byte below 0x20 — in UTF-8 text exactly the control characters, since
 * every byte of a multi-byte character is 0x80 or above. Four bytes at a time: a word has a byte
 * below n (n ≤ 0x80) iff `(w - n·0x01010101) & ~w & 0x80808080` is not zero ("hasless", Bit
 * Twiddling Hacks). 0.14 ms per MiB, where `hasControl`'s RegExp takes 0.25–0.5 on the same text.
 */
export function bytesHaveControl(bytes: Uint8Array): boolean {
  let i = 0;
  const end = bytes.length;
  // Bytes up to a 4-byte boundary, then whole words, then the rest.
  for (; i < end && (bytes.byteOffset + i) % 4 !== 0; i++) if (bytes[i]! < 0x20) return true;
  if (i === end) return false;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (end - i) >> 2);
  // Four words a turn into four accumulators (a quarter faster than one), the mask once at the end.
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let w = 0;
  for (const whole = words.length & ~3; w < whole; w += 4) {
    const x = words[w]!;
    const y = words[w + 1]!;
    const z = words[w + 2]!;
    const u = words[w + 3]!;
    a |= (x - 0x20202020) & ~x;
    b |= (y - 0x20202020) & ~y;
    c |= (z - 0x20202020) & ~z;
    d |= (u - 0x20202020) & ~u;
  }
  for (; w < words.length; w++) a |= (words[w]! - 0x20202020) & ~words[w]!;
  if (((a | b | c | d) & 0x80808080) !== 0) return true;
  for (i += words.length * 4; i < end; i++) if (bytes[i]! < 0x20) return true;
  return false;
}
