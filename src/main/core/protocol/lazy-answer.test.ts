import { describe, expect, it } from 'vitest';
import { classify } from './json-rpc.js';
import { LAZY_MIN, lazyAnswer, MAX_SKIM_DEPTH, resultPending, withId } from './lazy-answer.js';

/** mulberry32, seeded: a failure is the same failure on the next run (an LCG's low bits alternate). */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const big = 'x'.repeat(LAZY_MIN);
const line = (members: string): string => `{${members}}`;
const plain = line(`"result":{"content":[{"type":"text","text":"${big}"}]},"jsonrpc":"2.0","id":7`);

/** Same value and the same key order at every level (what a writer that serialises it again sees). */
function sameAsParse(message: object, text: string): void {
  expect(JSON.stringify(message)).toBe(JSON.stringify(JSON.parse(text)));
}

describe('lazyAnswer', () => {
  it('routes a large answer on a skim and parses its result on first read', () => {
    const answer = lazyAnswer(plain)!;
    expect(answer).toBeDefined();
    expect(answer.id).toBe(7);
    expect(answer.jsonrpc).toBe('2.0');
    expect('result' in answer && !('error' in answer) && !('method' in answer)).toBe(true);
    expect(resultPending(answer)).toBe(true);
    expect(Object.keys(answer)).toEqual(['result', 'jsonrpc', 'id']);
    const result = answer.result as { content: Array<{ text: string }> };
    expect(result.content[0]!.text).toBe(big);
    expect(resultPending(answer)).toBe(false);
    // Parsed once: the same value on every read, the key still in its place.
    expect(answer.result).toBe(result);
    expect(Object.keys(answer)).toEqual(['result', 'jsonrpc', 'id']);
    sameAsParse(answer, plain);
  });

  it('is the parsed message to spread, JSON.stringify and structuredClone before any read', () => {
    const text = line(`"jsonrpc":"2.0","id":"a-1","result":{"n":[1,-2.5e3,true,false,null,{}],"s":"é\\u00e9\\n\\"${big}"}`);
    expect(JSON.stringify(lazyAnswer(text))).toBe(JSON.stringify(JSON.parse(text)));
    expect({ ...lazyAnswer(text)! }).toEqual(JSON.parse(text));
    expect(structuredClone(lazyAnswer(text))).toEqual(JSON.parse(text));
  });

  it('takes a result written to it like a parsed one', () => {
    const answer = lazyAnswer(plain)!;
    answer.result = { replaced: true };
    expect(resultPending(answer)).toBe(false);
    expect(JSON.stringify(answer)).toBe('{"result":{"replaced":true},"jsonrpc":"2.0","id":7}');
  });

  it('withId puts another id in place and leaves the result unparsed', () => {
    const answer = lazyAnswer(plain)!;
    const renumbered = withId(answer, 'client-9');
    expect(resultPending(renumbered)).toBe(true);
    expect(resultPending(answer)).toBe(true);
    expect(Object.keys(renumbered)).toEqual(['result', 'jsonrpc', 'id']);
    expect(renumbered.id).toBe('client-9');
    expect(JSON.stringify(renumbered)).toBe(JSON.stringify({ ...JSON.parse(plain), id: 'client-9' }));
    // Once parsed (or for any other message) it is a spread.
    void answer.result;
    expect(withId(answer, 3)).toEqual({ ...JSON.parse(plain), id: 3 });
    expect(withId({ jsonrpc: '2.0', id: 1, result: {} }, 2)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('gives up on anything but a plain answer, which is then parsed as before', () => {
    const cases: Record<string, string> = {
      short: '{"jsonrpc":"2.0","id":1,"result":{}}',
      request: line(`"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"${big}"}`),
      notification: line(`"jsonrpc":"2.0","method":"x","params":{"t":"${big}"}`),
      error: line(`"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"${big}"}`),
      'another member': line(`"jsonrpc":"2.0","id":1,"result":{"t":"${big}"},"extra":1`),
      'a duplicate key': line(`"jsonrpc":"2.0","id":1,"result":{"t":"${big}"},"id":2`),
      'an escaped key': line(`"jsonrpc":"2.0","id":1,"res\\u0075lt":{"t":"${big}"}`),
      'no id': line(`"jsonrpc":"2.0","result":{"t":"${big}"}`),
      'a null id': line(`"jsonrpc":"2.0","id":null,"result":{"t":"${big}"}`),
      'an object id': line(`"jsonrpc":"2.0","id":{},"result":{"t":"${big}"}`),
      'an id out of range': line(`"jsonrpc":"2.0","id":1e400,"result":{"t":"${big}"}`),
      'another version': line(`"jsonrpc":"1.0","id":1,"result":{"t":"${big}"}`),
      'tabs between tokens': line(`"jsonrpc":"2.0",\t"id":1,"result":{"t":"${big}"}`),
      'an array': `[${JSON.stringify(JSON.parse(plain))}]`,
      'JSON held as text (dense escapes)': JSON.stringify({ jsonrpc: '2.0', id: 1, result: { t: JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ i, name: `n${i}` }))) } }),
      'many small values': JSON.stringify({ jsonrpc: '2.0', id: 1, result: { list: Array.from({ length: 20000 }, (_, i) => i) } }),
      [`deeper than ${MAX_SKIM_DEPTH}`]: line(`"jsonrpc":"2.0","id":1,"result":${'['.repeat(MAX_SKIM_DEPTH + 1)}"${big}"${']'.repeat(MAX_SKIM_DEPTH + 1)}`),
    };
    for (const [what, text] of Object.entries(cases)) {
      expect(lazyAnswer(text), what).toBeUndefined();
    }
    // At the depth limit it still takes it.
    const deepest = line(`"jsonrpc":"2.0","id":1,"result":${'['.repeat(MAX_SKIM_DEPTH)}"${big}"${']'.repeat(MAX_SKIM_DEPTH)}`);
    sameAsParse(lazyAnswer(deepest)!, deepest);
  });

  it('refuses every text JSON.parse refuses (control characters, bad escapes, numbers, literals, structure)', () => {
    const bad = [
      `"t":"a\u0001b${big}"`,
      `"t":"${big}\u001f"`,
      `"t":"\\x${big}"`,
      `"t":"\\u12G4${big}"`,
      `"t":"${big}\\"`,
      `"t":"${big}`,
      `"n":01,"t":"${big}"`,
      `"n":1.,"t":"${big}"`,
      `"n":-,"t":"${big}"`,
      `"n":1e,"t":"${big}"`,
      `"n":+1,"t":"${big}"`,
      `"n":tru,"t":"${big}"`,
      `"n":nulll,"t":"${big}"`,
      `"n":[1,],"t":"${big}"`,
      `"n":[1 2],"t":"${big}"`,
      `"n":{"a":1,},"t":"${big}"`,
      `"n":{"a"},"t":"${big}"`,
      `"n":{1:2},"t":"${big}"`,
      `"n":[1},"t":"${big}"`,
      `"t":"${big}",`,
    ];
    for (const result of bad) {
      const text = line(`"jsonrpc":"2.0","id":1,"result":{${result}}`);
      expect(() => JSON.parse(text)).toThrow();
      expect(lazyAnswer(text), result.slice(0, 40)).toBeUndefined();
    }
    expect(lazyAnswer(`${plain} x`)).toBeUndefined();
    expect(lazyAnswer(`${plain}}`)).toBeUndefined();
    expect(lazyAnswer(`${plain}   `)).toBeDefined();
  });

  it('agrees with JSON.parse on thousands of generated answers, whole and broken', () => {
    const pick = random(27);
    const chars = ' "\\/bfnrtu0123456789abcdefABCDEF-+.eE{}[],:\u0001\u001ftruefalsenull';
    let taken = 0;
    let refused = 0;
    for (let round = 0; round < 3000; round++) {
      const text = mutate(answerText(pick), pick, chars);
      let parsed: unknown;
      let valid = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        valid = false;
      }
      const lazy = lazyAnswer(text);
      if (lazy === undefined) {
        refused++;
        continue;
      }
      taken++;
      // Anything taken is valid JSON, the same message, in the same order.
      expect(valid, text.slice(0, 120)).toBe(true);
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(parsed));
      // And an answer the eager path would take as one.
      expect(classify(parsed)).toBe('response');
    }
    // Both ways were exercised (the generator is not all-broken nor all-taken).
    expect(taken).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });
});

/** A random plain answer: small values and one long string somewhere in its result. */
function answerText(pick: (n: number) => number): string {
  const scalar = (): string => {
    switch (pick(7)) {
      case 0: return String(pick(1000) - 500);
      case 1: return `${pick(100)}.${pick(100)}e${pick(2) ? '-' : '+'}${pick(9)}`;
      case 2: return ['true', 'false', 'null'][pick(3)]!;
      case 3: return JSON.stringify(`s\u00e9\n"\\/${pick(99)}`);
      case 4: return '"\\u00e9\\ud83d\\ude00"';
      default: return `"v${pick(99)}"`;
    }
  };
  const value = (depth: number): string => {
    const k = depth > 3 ? 9 : pick(10);
    if (k < 2) return `[${Array.from({ length: pick(4) }, () => value(depth + 1)).join(pick(2) ? ',' : ' , ')}]`;
    if (k < 4) return `{${Array.from({ length: pick(4) }, (_, i) => `"k${i}"${pick(2) ? ':' : ' : '}${value(depth + 1)}`).join(',')}}`;
    return scalar();
  };
  const members = [`"jsonrpc":"2.0"`, `"id":${pick(2) ? pick(1000) : `"r-${pick(1000)}"`}`, `"result":{"a":${value(0)},"long":"${'y'.repeat(LAZY_MIN)}","b":${value(0)}}`];
  for (let i = members.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return `{${members.join(pick(3) === 0 ? ' , ' : ',')}}`;
}

/** Half unchanged; else one to three edits, at places outside the long string (where they matter). */
function mutate(text: string, pick: (n: number) => number, chars: string): string {
  if (pick(2) === 0) return text;
  const long = text.indexOf('y'.repeat(64));
  for (let n = 1 + pick(3); n > 0; n--) {
    const spots = text.length - LAZY_MIN;
    let at = pick(spots);
    if (at >= long) at += LAZY_MIN - 2;
    const c = chars[pick(chars.length)]!;
    const edit = pick(3);
    text = edit === 0 ? text.slice(0, at) + text.slice(at + 1) : edit === 1 ? text.slice(0, at) + c + text.slice(at) : text.slice(0, at) + c + text.slice(at + 1);
  }
  return text;
}
