/**
 * A large answer from a server, routed on a skim of its text and parsed when something reads its
 * `result` (issue 27: 1 MiB results).
 *
 * Between a child's last byte and the client's first the hub did one thing per MiB that cost more
 * than everything else it does in series: `JSON.parse` of the line, about 1 ms per MiB, only to
 * learn the answer's id. The answer goes out as the server's own bytes (wire-bytes.ts) and the
 * result is read by observers in the inspector's drain, after the reply (off the client's path;
 * docs/performance.md, "seventh", says why not parsing at all cost more). So a line of
 * `LAZY_MIN` characters or more is skimmed instead: the whole text is validated as JSON without
 * building anything (strings crossed with `indexOf`, their escapes checked one by one, control
 * characters found by one scan of its bytes), and the message object gets `jsonrpc` and `id` as values
 * and `result` as an accessor that parses its span on first read and then holds the value (an
 * own, enumerable data property from then on: spread, `JSON.stringify`, `in` and `structuredClone`
 * all see the same object as if it had been parsed whole).
 *
 * What has to stay true is that nothing accepted here would have been refused: the skim gives up
 * (`undefined`: the caller parses as before, with every check it makes) on anything but a plain
 * answer — `{"jsonrpc":"2.0","id":…,"result":…}` in any order, no other member, no duplicate, no
 * escaped key — and on anything that would make it slower than the parse it replaces: many escapes
 * (a tool result holding JSON as text) or many small values. It also gives up beyond
 * `MAX_SKIM_DEPTH` levels, well inside the depth bound (json-depth.ts), so a lazy answer never
 * needs that check. Tests compare it with `JSON.parse` on generated and broken texts.
 */
import { bytesHaveControl, hasControl } from '../lib/json-quote.js';
import { isId, type JsonRpcId, type JsonRpcResponse } from './json-rpc.js';

/** Lines at least this long are skimmed; below, `JSON.parse` costs less than the bookkeeping. */
export const LAZY_MIN = 64 * 1024;

/** Deeper than this, the skim gives up (the parse and its depth check take over). */
export const MAX_SKIM_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Where an answer's result is in its text: what the accessor parses, and what `withId` carries on. */
interface ResultSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const SPAN = Symbol('patchbay.lazyResult');

class GiveUp extends Error {}
const giveUp = new GiveUp();

/** Skims one JSON text; each method throws `giveUp` on anything it does not take. */
class Skim {
  p = 0;
  /**
   * The first `"` / `\` at or after the position each was last looked for from (so each is looked
   * for once per occurrence, not once per string: a text of many strings stays linear). -1: not
   * looked for yet; a backslash of Infinity: there is none further on.
   */
  private quote = -1;
  private backslash = -1;
  private escapes = 0;
  private values = 0;

  constructor(readonly text: string) {}

  spaces(): void {
    const t = this.text;
    // Tabs and CRs are JSON whitespace too, but the line would fail the control test anyway.
    while (t.charCodeAt(this.p) === 0x20) this.p++;
  }

  expect(c: number): void {
    if (this.text.charCodeAt(this.p) !== c) throw giveUp;
    this.p++;
  }

  /** A string at `p` (its opening quote); `p` ends after its closing quote. */
  string(): void {
    const t = this.text;
    this.expect(QUOTE);
    for (;;) {
      if (this.quote < this.p) {
        this.quote = t.indexOf('"', this.p);
        if (this.quote === -1) throw giveUp;
      }
      if (this.backslash !== Infinity && this.backslash < this.p) {
        const b = t.indexOf('\\', this.p);
        this.backslash = b === -1 ? Infinity : b;
      }
      if (this.quote < this.backslash) {
        this.p = this.quote + 1;
        return;
      }
      // An escape before the closing quote. Dense escapes (JSON held as text) are the parse's.
      if (++this.escapes > 64 + (this.p >> 7)) throw giveUp;
      const at = this.backslash;
      const c = t.charCodeAt(at + 1);
      if (c === QUOTE || c === BACKSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) {
        this.p = at + 2;
      } else if (c === 0x75) {
        HEX4.lastIndex = at + 2;
        if (!HEX4.test(t)) throw giveUp;
        this.p = at + 6;
      } else {
        throw giveUp;
      }
    }
  }

  /** One JSON value at `p` (after spaces); `p` ends after it. Iterative: `open` holds `[` / `{`. */
  value(): void {
    const t = this.text;
    const open: number[] = [];
    for (;;) {
      // A value is expected here.
      if (++this.values > 256 + (this.p >> 8)) throw giveUp;
      this.spaces();
      const c = t.charCodeAt(this.p);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        this.p++;
        this.spaces();
        const close = c === 0x7b ? 0x7d : 0x5d;
        if (t.charCodeAt(this.p) === close) {
          this.p++;
        } else {
          if (open.length === MAX_SKIM_DEPTH) throw giveUp;
          open.push(c);
          if (c === 0x7b) this.member();
          continue;
        }
      } else if (c === QUOTE) {
        this.string();
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        NUMBER.lastIndex = this.p;
        if (!NUMBER.test(t)) throw giveUp;
        this.p = NUMBER.lastIndex;
      } else if (c === 0x74 ? t.startsWith('true', this.p) : c === 0x66 ? t.startsWith('false', this.p) : c === 0x6e && t.startsWith('null', this.p)) {
        this.p += c === 0x66 ? 5 : 4;
      } else {
        throw giveUp;
      }
      // After a value: close what it ends, or a comma and the next one.
      for (;;) {
        if (open.length === 0) return;
        this.spaces();
        const inside = open[open.length - 1]!;
        const d = t.charCodeAt(this.p);
        if (d === 0x2c /* , */) {
          this.p++;
          if (inside === 0x7b) this.member();
          break;
        }
        if (d !== (inside === 0x7b ? 0x7d : 0x5d)) throw giveUp;
        this.p++;
        open.pop();
      }
    }
  }

  /** An object member's key and colon; its value is next. */
  private member(): void {
    this.spaces();
    this.string();
    this.spaces();
    this.expect(0x3a /* : */);
  }
}

/**
 * The answer in `text` with its `result` parsed on first read, or undefined when the skim gives up
 * (too short, not a plain answer, not valid JSON, or not one the skim is quicker on): parse it.
 * `bytes`, the UTF-8 the text was decoded from when the caller has them, make the control
 * character test a word-at-a-time scan instead of a RegExp on the text (0.14 against 0.5 ms per MiB).
 */
export function lazyAnswer(text: string, bytes?: Uint8Array): JsonRpcResponse | undefined {
  if (text.length < LAZY_MIN) return undefined;
  const skim = new Skim(text);
  const members: Array<[key: string, start: number, end: number]> = [];
  try {
    skim.spaces();
    skim.expect(0x7b);
    for (;;) {
      skim.spaces();
      const keyAt = skim.p;
      skim.string();
      const key = text.slice(keyAt + 1, skim.p - 1);
      if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return undefined;
      if (members.some(([k]) => k === key)) return undefined;
      skim.spaces();
      skim.expect(0x3a);
      skim.spaces();
      const start = skim.p;
      skim.value();
      members.push([key, start, skim.p]);
      skim.spaces();
      if (text.charCodeAt(skim.p) === 0x2c) {
        skim.p++;
        continue;
      }
      skim.expect(0x7d);
      break;
    }
    skim.spaces();
    if (skim.p !== text.length) return undefined;
  } catch (err) {
    if (err === giveUp) return undefined;
    throw err;
  }
  if (members.length !== 3) return undefined;
  // Inside strings only: between tokens the skim took nothing but spaces.
  if (bytes !== undefined ? bytesHaveControl(bytes) : hasControl(text)) return undefined;
  const answer = {} as Record<string, unknown>;
  for (const [key, start, end] of members) {
    if (key === 'result') {
      defineLazyResult(answer, { text, start, end });
      continue;
    }
    const value: unknown = JSON.parse(text.slice(start, end));
    // As classify (json-rpc.ts) takes them; a null id (an answer to a request that could not be read) is left to it.
    if (key === 'jsonrpc' ? value !== '2.0' : !isId(value)) return undefined;
    answer[key] = value;
  }
  return answer as unknown as JsonRpcResponse;
}

/**
 * One getter and setter for every lazy answer, reading the span from the answer itself: answers
 * with the same member order then share a hidden class in V8 (a closure per answer would give
 * each a class of its own).
 */
const LAZY_RESULT: PropertyDescriptor = {
  get(this: Record<PropertyKey, unknown>): unknown {
    const span = this[SPAN] as ResultSpan;
    return settle(this, JSON.parse(span.text.slice(span.start, span.end)));
  },
  set(this: Record<PropertyKey, unknown>, value: unknown): void {
    settle(this, value);
  },
  enumerable: true,
  configurable: true,
};

function settle(target: object, value: unknown): unknown {
  // Redefined in place, so the key keeps its place among the others.
  Object.defineProperty(target, 'result', { value, writable: true, enumerable: true, configurable: true });
  return value;
}

function defineLazyResult(target: Record<string, unknown>, span: ResultSpan): void {
  Object.defineProperty(target, 'result', LAZY_RESULT);
  Object.defineProperty(target, SPAN, { value: span });
}

/**
 * Whether `value` came from `lazyAnswer`, its result parsed yet or not: then its nesting is at most
 * `MAX_SKIM_DEPTH` + 1 levels (the skim bounded it), and walking it to learn that would parse it.
 */
export function isLazyAnswer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && SPAN in value;
}

/** Whether `message` is a lazy answer whose result has not been parsed yet (for tests and the bench). */
export function resultPending(message: object): boolean {
  return Object.getOwnPropertyDescriptor(message, 'result')?.get !== undefined;
}

/**
 * `{ ...answer, id }` — the answer with another id, its other members in the same order — keeping a
 * result that is not parsed yet unparsed (a spread would read it): what a connection that renumbers
 * ids (a shared child, a 2026-07-28 child) uses to put the client's id back.
 */
export function withId<T extends object>(message: T, id: JsonRpcId): T {
  const span = (message as { [SPAN]?: ResultSpan })[SPAN];
  if (span === undefined || !resultPending(message)) return { ...message, id };
  const copy = {} as Record<string, unknown>;
  for (const key of Object.keys(message)) {
    if (key === 'result') defineLazyResult(copy, span);
    else copy[key] = key === 'id' ? id : (message as Record<string, unknown>)[key];
  }
  return copy as T;
}
