import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { classifyPost, type ModernHeaders } from './modern-classify.js';

const V = '2026-07-28';
const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  ...extra,
});
const call = (params: Record<string, unknown> = {}): JsonRpcMessage => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: envelope(), ...params } });
const headers = (h: Partial<ModernHeaders> = {}): ModernHeaders => ({ protocolVersion: V, method: 'tools/call', name: 'echo', ...h });

describe('classifyPost', () => {
  it('routes a request with a modern envelope and matching headers to the modern era', () => {
    expect(classifyPost(headers(), [call()], false)).toMatchObject({ kind: 'modern', version: V });
  });

  it('leaves legacy traffic alone: initialize, no envelope, responses, legacy batches', () => {
    expect(classifyPost({ protocolVersion: undefined, method: undefined, name: undefined }, [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }], false)).toEqual({ kind: 'legacy' });
    expect(classifyPost({ protocolVersion: '2025-11-25', method: undefined, name: undefined }, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], false)).toEqual({ kind: 'legacy' });
    expect(classifyPost({ protocolVersion: '2025-11-25', method: undefined, name: undefined }, [{ jsonrpc: '2.0', id: 1, result: {} }], false)).toEqual({ kind: 'legacy' });
    expect(classifyPost({ protocolVersion: '2025-03-26', method: undefined, name: undefined }, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], true)).toEqual({ kind: 'legacy' });
  });

  it('answers header/body disagreements with 400 HeaderMismatch, echoing the id', () => {
    expect(classifyPost(headers({ protocolVersion: '2025-11-25' }), [call()], false)).toMatchObject({ kind: 'reject', status: 400, id: 7, code: -32020, message: expect.stringContaining('MCP-Protocol-Version header names 2025-11-25') });
    expect(classifyPost(headers({ method: 'tools/list' }), [call()], false)).toMatchObject({ kind: 'reject', status: 400, code: -32020, message: expect.stringContaining('Mcp-Method header names tools/list') });
    expect(classifyPost(headers({ name: 'other' }), [call()], false)).toMatchObject({ code: -32020, message: expect.stringContaining('the Mcp-Name header names "other"') });
  });

  it('requires the standard headers on modern requests', () => {
    expect(classifyPost(headers({ protocolVersion: undefined }), [call()], false)).toMatchObject({ code: -32020, message: expect.stringContaining('MCP-Protocol-Version header is absent') });
    expect(classifyPost(headers({ method: undefined }), [call()], false)).toMatchObject({ code: -32020, message: expect.stringContaining('Mcp-Method header is absent') });
    expect(classifyPost(headers({ name: undefined }), [call()], false)).toMatchObject({ code: -32020, message: expect.stringContaining('Mcp-Name header is absent') });
    // No Mcp-Name for methods that mirror nothing.
    const list: JsonRpcMessage = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } };
    expect(classifyPost(headers({ method: 'tools/list', name: undefined }), [list], false)).toMatchObject({ kind: 'modern' });
  });

  it('decodes a Base64 Mcp-Name, and refuses a malformed one', () => {
    const name = 'héllo wörld';
    const encoded = `=?base64?${Buffer.from(name).toString('base64')}?=`;
    expect(classifyPost(headers({ name: encoded }), [call({ name })], false)).toMatchObject({ kind: 'modern' });
    expect(classifyPost(headers({ name: '=?base64?not base64!?=' }), [call()], false)).toMatchObject({ code: -32020, message: expect.stringContaining('invalid value') });
  });

  it('answers an unserved modern revision with -32022 listing what is served', () => {
    const future = call({ _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '2027-01-01' }) });
    expect(classifyPost(headers({ protocolVersion: '2027-01-01' }), [future], false)).toMatchObject({
      kind: 'reject',
      status: 400,
      code: -32022,
      data: { requested: '2027-01-01', supported: [V] },
    });
    // Not a date at all (the conformance suite's `v999.0.0`): still the modern era's error, with the id.
    const odd = call({ _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }) });
    expect(classifyPost(headers({ protocolVersion: 'v999.0.0' }), [odd], false)).toMatchObject({ kind: 'reject', status: 400, code: -32022, id: 7, data: { requested: 'v999.0.0', supported: [V] } });
    // The header naming a revision the body does not: a mismatch.
    expect(classifyPost(headers(), [odd], false)).toMatchObject({ kind: 'reject', status: 400, code: -32020 });
  });

  it('refuses a malformed envelope, and a modern header without one, as invalid params (400)', () => {
    const bad = call({ _meta: { 'io.modelcontextprotocol/protocolVersion': V } });
    expect(classifyPost(headers(), [bad], false)).toMatchObject({ status: 400, code: -32602, message: expect.stringContaining('clientCapabilities: missing') });
    const bare: JsonRpcMessage = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
    expect(classifyPost(headers({ method: 'tools/list' }), [bare], false)).toMatchObject({ status: 400, code: -32602, id: 3, message: expect.stringContaining('missing the per-request _meta envelope') });
  });

  it('refuses modern messages in a batch, a posted response, and initialize with a modern header', () => {
    expect(classifyPost(headers(), [call(), call()], true)).toMatchObject({ status: 400, code: -32600 });
    expect(classifyPost(headers(), [{ jsonrpc: '2.0', id: 1, result: {} }], false)).toMatchObject({ status: 400, code: -32600 });
    expect(classifyPost(headers({ method: 'initialize' }), [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }], false)).toMatchObject({ code: -32020 });
  });
});
