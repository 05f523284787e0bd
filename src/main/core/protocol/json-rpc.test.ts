import { describe, expect, it } from 'vitest';
import { classify, idKey, progressTokenOf } from './json-rpc.js';
import { parseEventId } from '../hub/sse-stream.js';

describe('classify', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'request'],
    [{ jsonrpc: '2.0', id: 'a', method: 'x', params: {} }, 'request'],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, 'notification'],
    [{ jsonrpc: '2.0', id: 1, result: {} }, 'response'],
    [{ jsonrpc: '2.0', id: null, error: { code: -1, message: 'x' } }, 'response'],
  ])('%j is a %s', (value, kind) => {
    expect(classify(value)).toBe(kind);
  });
  it.each([
    [{ foo: 1 }],
    [{ jsonrpc: '1.0', id: 1, method: 'x' }],
    [{ jsonrpc: '2.0', id: {}, method: 'x' }],
    [{ jsonrpc: '2.0', id: 1 }],
    [{ jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: '' } }],
    [{ jsonrpc: '2.0', method: 'x', params: 3 }],
    [[]],
    ['str'],
    [null],
  ])('%j is not a JSON-RPC message', (value) => {
    expect(classify(value)).toBeUndefined();
  });
});

describe('ids and tokens', () => {
  it('keeps 1 and "1" apart', () => {
    expect(idKey(1)).not.toBe(idKey('1'));
  });
  it('reads the progress token from _meta', () => {
    expect(progressTokenOf({ jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 'p' } } })).toBe('p');
    expect(progressTokenOf({ jsonrpc: '2.0', id: 1, method: 'x' })).toBeUndefined();
  });
  it('parses event ids of the form <stream>-<n>', () => {
    expect(parseEventId('3-17')).toEqual({ key: '3', n: 17 });
    expect(parseEventId('0-0')).toEqual({ key: '0', n: 0 });
    expect(parseEventId('nonsense')).toBeUndefined();
    expect(parseEventId('3-x')).toBeUndefined();
  });
});
