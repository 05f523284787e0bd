import { describe, expect, it } from 'vitest';
import { addResultFields, replaceTopLevelId } from './json-splice.js';

/** What the splice must equal: the message parsed, its id replaced, serialised. */
function viaParse(raw: string, id: unknown): unknown {
  return { ...(JSON.parse(raw) as object), id };
}

describe('replaceTopLevelId', () => {
  it('replaces a number id at the end, as SDK servers write answers', () => {
    const raw = '{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":17}';
    const out = replaceTopLevelId(raw, JSON.stringify('client-1'))!;
    expect(out).toBe('{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":"client-1"}');
  });

  it('leaves an "id" inside the result alone, and copes with ids of every kind and whitespace', () => {
    const cases = [
      '{"jsonrpc":"2.0","id":3,"result":{"id":3,"items":[{"id":3}]}}',
      '{ "result" : { "id" : "x" } , "id" : "abc\\"d" , "jsonrpc" : "2.0" }\n',
      '{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"id: 1, \\"id\\":2","data":{"id":9}}}',
      '{"jsonrpc":"2.0","result":{"text":"a \\\\\\"id\\\\\\":5 b"},"id":-1.5e3}',
      '{"jsonrpc":"2.0","result":["{\\"id\\":1}",{"k":[[{"id":1}]]}],"id":42}',
    ];
    for (const raw of cases) {
      for (const id of ['c-1', 7, null, 'quote"and\\slash']) {
        const out = replaceTopLevelId(raw, JSON.stringify(id));
        expect(out, raw).toBeDefined();
        expect(JSON.parse(out!), raw).toEqual(viaParse(raw, id));
      }
    }
  });

  it('replaces every top-level id when a key repeats (JSON.parse keeps the last)', () => {
    const raw = '{"id":1,"jsonrpc":"2.0","result":{},"id":2}';
    const out = replaceTopLevelId(raw, '"c"')!;
    expect(out).toBe('{"id":"c","jsonrpc":"2.0","result":{},"id":"c"}');
    expect(JSON.parse(out)).toEqual(viaParse(raw, 'c'));
  });

  it('gives up (undefined) on what it does not understand, so the caller serialises', () => {
    expect(replaceTopLevelId('{"jsonrpc":"2.0","result":{}}', '1')).toBeUndefined(); // no id
    expect(replaceTopLevelId('{"\\u0069d":1,"result":{}}', '1')).toBeUndefined(); // an escaped key
    expect(replaceTopLevelId('{"id":{"a":1},"result":{}}', '1')).toBeUndefined(); // not an id
    expect(replaceTopLevelId('[{"id":1}]', '1')).toBeUndefined(); // a batch
    expect(replaceTopLevelId('{"id":1,"result":"open', '1')).toBeUndefined(); // cut off
    expect(replaceTopLevelId('{"id":1} {"id":2}', '1')).toBeUndefined(); // two values
    expect(replaceTopLevelId('{"id":1', '1')).toBeUndefined(); // unbalanced
  });

  it('agrees with parse-and-stringify on generated messages', () => {
    // A small seeded generator: nested values with keys named id, strings with quotes and backslashes.
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const strings = ['id', 'a"b', 'c\\', '\\"id\\":1', '', 'x'.repeat(50), 'ü€😀', '\n\t'];
    const value = (depth: number): unknown => {
      const k = rand(depth > 3 ? 3 : 6);
      if (k === 0) return strings[rand(strings.length)];
      if (k === 1) return rand(1000) - 500;
      if (k === 2) return rand(2) === 0 ? null : true;
      if (k === 3) return Array.from({ length: rand(4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let j = rand(4); j > 0; j--) o[rand(2) === 0 ? 'id' : strings[rand(strings.length)]!] = value(depth + 1);
      return o;
    };
    for (let t = 0; t < 500; t++) {
      const message = { result: value(0), jsonrpc: '2.0', id: rand(2) === 0 ? rand(100) : `s-${rand(100)}` };
      const raw = rand(2) === 0 ? JSON.stringify(message) : JSON.stringify(message, null, rand(3));
      const out = replaceTopLevelId(raw, JSON.stringify('client'));
      expect(out).toBeDefined();
      expect(JSON.parse(out!)).toEqual({ ...message, id: 'client' });
    }
  });

  describe('addResultFields', () => {
    it('adds members at the start of the top-level result, whatever else has a "result"', () => {
      const cases = [
        '{"result":{"content":[{"type":"text","text":"{\\"result\\":{}}"}],"result":{"a":1}},"jsonrpc":"2.0","id":1}',
        '{ "jsonrpc":"2.0", "id":"x", "result" : {  } }',
        '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","result":{}}]}}\r\n',
      ];
      for (const raw of cases) {
        const out = addResultFields(raw, { resultType: 'complete', ttlMs: 0 });
        expect(out, raw).toBeDefined();
        const parsed = JSON.parse(raw) as { result: object };
        expect(JSON.parse(out!), raw).toEqual({ ...parsed, result: { resultType: 'complete', ttlMs: 0, ...parsed.result } });
      }
    });

    it('gives up without one result object', () => {
      expect(addResultFields('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}', { a: 1 })).toBeUndefined();
      expect(addResultFields('{"jsonrpc":"2.0","id":1,"result":[1]}', { a: 1 })).toBeUndefined();
      expect(addResultFields('{"result":{},"result":{}}', { a: 1 })).toBeUndefined();
      expect(addResultFields('{"re\\u0073ult":{}}', { a: 1 })).toBeUndefined();
    });
  });
});
