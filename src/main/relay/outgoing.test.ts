/** How the relay reads a client's line: its requests, and which era it speaks (per message). */
import { describe, expect, it } from 'vitest';
import { parseOutgoing, type Outgoing } from './outgoing.js';

function parse(message: unknown): Outgoing {
  const parsed = parseOutgoing(JSON.stringify(message));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const PV = 'io.modelcontextprotocol/protocolVersion';

describe('parseOutgoing', () => {
  it('reads a line whose _meta names 2026-07-28 or later as modern, with its version, method and id', () => {
    const params = { name: 'echo', _meta: { [PV]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
    expect(parse({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }).modern).toEqual({ version: '2026-07-28', method: 'tools/call', params, id: 3 });
    // A later revision is modern too (the hub says whether it serves it).
    expect(parse({ jsonrpc: '2.0', id: 'x', method: 'server/discover', params: { _meta: { [PV]: '2099-01-01' } } }).modern?.version).toBe('2099-01-01');
    // A notification has no id.
    const note = parse({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: { [PV]: '2026-07-28' } } });
    expect(note.modern).toEqual({ version: '2026-07-28', method: 'notifications/cancelled', params: { requestId: 3, _meta: { [PV]: '2026-07-28' } } });
    expect(note.cancels).toBe(3);
  });

  it('keeps legacy lines legacy: no envelope, an older revision, a batch', () => {
    expect(parse({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }).modern).toBeUndefined();
    expect(parse({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [PV]: '2025-11-25' } } }).modern).toBeUndefined();
    expect(parse({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [PV]: 'banana' } } }).modern).toBeUndefined();
    const batch = parse([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [PV]: '2026-07-28' } } }]);
    expect(batch.modern).toBeUndefined();
    expect(batch.requestIds).toEqual([1]);
    // A legacy cancellation still names what it cancels (a modern request in flight is cancelled by it too).
    expect(parse({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } })).toMatchObject({ cancels: 'a' });
    expect(parse({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } }).modern).toBeUndefined();
  });

  it('takes a claim that is not a version string as modern without a version (the hub explains the envelope)', () => {
    expect(parse({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [PV]: 42 } } }).modern).toEqual({ version: undefined, method: 'tools/list', params: { _meta: { [PV]: 42 } }, id: 1 });
  });
});
