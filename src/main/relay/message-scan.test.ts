/**
 * The scan that replaces JSON.parse in the relay's pipe: it must tell kind, id and method exactly
 * as `classify` does on the parsed message, wherever the members sit and whatever the values
 * hold, and say "not a message" for what classify rejects or what is not JSON at all.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../core/index.js';
import { scanMessage } from './message-scan.js';

const agree = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}',
  '{"method":"tools/call","params":{"name":"e","arguments":{"t":"a \\"quoted\\" }{ ] [ text\\\\"}},"jsonrpc":"2.0","id":"x-1"}',
  '{"result":{"content":[{"type":"text","text":"{\\"id\\":99,\\"method\\":\\"no\\"}"}]},"jsonrpc":"2.0","id":7}',
  '{"jsonrpc":"2.0","error":{"code":-32601,"message":"nope"},"id":null}',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5}}',
  ' { "jsonrpc" : "2.0" , "id" : -1.5e3 , "method" : "ping" } ',
  '{"jsonrpc":"2.0","id":"\\u0041b","method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":"bad"}',
  '{"jsonrpc":"1.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}',
  '{"jsonrpc":"2.0","id":true,"result":{}}',
  '{"jsonrpc":"2.0","method":3}',
  '{}',
  '[]',
];

const notJson = ['', 'hello', '{"jsonrpc":"2.0","id":1,"method":"ping"', '{"jsonrpc":"2.0","id":1,"method":"ping"} x', '{"jsonrpc":"2.0","id":tru,"method":"ping"}', '{"jsonrpc":"2.0","method":"a","params":{"x":"unterminated}}'];

describe('scanMessage', () => {
  it.each(agree)('agrees with classify on %s', (text) => {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const kind = classify(parsed);
    const scanned = scanMessage(text);
    expect(scanned?.kind).toBe(kind);
    if (kind === 'request' || kind === 'response') expect(scanned?.id).toEqual(parsed.id);
    if (kind === 'request' || kind === 'notification') expect(scanned?.method).toBe(parsed.method);
  });

  it.each(notJson)('reads %j as no message', (text) => {
    expect(scanMessage(text)).toBeUndefined();
  });

  it('finds the id after a large result without parsing it', () => {
    const big = 'x'.repeat(5_000_000);
    const text = `{"result":{"content":[{"type":"text","text":"${big}"}],"structured":{"a":[1,2,{"b":"}"}]}},"jsonrpc":"2.0","id":42}`;
    expect(scanMessage(text)).toEqual({ kind: 'response', id: 42 });
  });
});
