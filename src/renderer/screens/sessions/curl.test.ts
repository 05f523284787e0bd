import { describe, expect, it } from 'vitest';
import { curlCommand } from './curl.js';

const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: "it's" } } };

describe('curlCommand', () => {
  it('opens a session of its own for a 2025-era request, reading the token from its file', () => {
    const text = curlCommand({ hubUrl: 'http://127.0.0.1:4000', server: 'demo', request, tokenFile: "/home/a b/hub-token", era: 'legacy', protocolVersion: '2025-06-18' });
    expect(text).toContain(`"Authorization: Bearer $(cat '/home/a b/hub-token')"`);
    expect(text).toContain('"method":"initialize"');
    expect(text).toContain('"protocolVersion":"2025-06-18"');
    expect(text).toContain('-H "Mcp-Session-Id: $sid"');
    expect(text).toContain("-X DELETE");
    // The request's own quote survives shell quoting.
    expect(text).toContain(`'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"it'\\''s"}}}'`);
  });
  it('sends a 2026-07-28 request alone, with its Mcp-* headers; a profile keeps its @', () => {
    const text = curlCommand({ hubUrl: 'http://127.0.0.1:4000/', server: '@team', request, tokenFile: '/t', era: 'modern', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-protocol-version': '2026-07-28', authorization: '[redacted]' } });
    expect(text).toContain("'http://127.0.0.1:4000/mcp/@team'");
    expect(text).not.toContain('initialize');
    expect(text).toContain("-H 'mcp-name: echo'");
    expect(text).not.toContain('[redacted]');
  });
  it('says so when the hub runs without a token', () => {
    expect(curlCommand({ hubUrl: 'http://h', server: 's', request, era: 'legacy' })).not.toContain('Authorization');
  });
});
