import { describe, expect, it } from 'vitest';
import { invalidHeaderAnnotation, logMessageWanted, modernRequestHeaders, ToolHeaderDeclarations, withoutInvalidHeaderTools } from './modern.js';

const schema = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties });

describe('x-mcp-header constraints (2026-07-28 streamable-http, "Custom Headers from Tool Parameters")', () => {
  it('accepts string, integer and boolean parameters reached through properties alone, nested ones included', () => {
    expect(invalidHeaderAnnotation(schema({ region: { type: 'string', 'x-mcp-header': 'Region' } }))).toBeUndefined();
    expect(invalidHeaderAnnotation(schema({ n: { type: 'integer', 'x-mcp-header': 'N' }, b: { type: 'boolean', 'x-mcp-header': "X-Flag_1.~" } }))).toBeUndefined();
    expect(invalidHeaderAnnotation(schema({ outer: { type: 'object', properties: { inner: { type: 'string', 'x-mcp-header': 'Inner' } } } }))).toBeUndefined();
    expect(invalidHeaderAnnotation(schema({ plain: { type: 'string' } }))).toBeUndefined();
    expect(invalidHeaderAnnotation(undefined)).toBeUndefined();
    // Instance data that happens to hold the key is not an annotation.
    expect(invalidHeaderAnnotation(schema({ o: { type: 'object', default: { 'x-mcp-header': '' } } }))).toBeUndefined();
  });

  it('rejects what the conformance suite offers as invalid', () => {
    const invalid: Record<string, Record<string, unknown>> = {
      empty: schema({ value: { type: 'string', 'x-mcp-header': '' } }),
      object: schema({ data: { type: 'object', 'x-mcp-header': 'Data' } }),
      array: schema({ items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }),
      null: schema({ nil: { type: 'null', 'x-mcp-header': 'Nil' } }),
      number: schema({ score: { type: 'number', 'x-mcp-header': 'Score' } }),
      duplicate: schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }),
      duplicateCase: schema({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
      space: schema({ v: { type: 'string', 'x-mcp-header': 'My Region' } }),
      colon: schema({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
      nonAscii: schema({ v: { type: 'string', 'x-mcp-header': 'Région' } }),
      control: schema({ v: { type: 'string', 'x-mcp-header': 'Region\t1' } }),
      inItems: schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
      inOneOf: schema({ v: { oneOf: [{ type: 'string', 'x-mcp-header': 'V' }] } }),
      atRoot: { type: 'string', 'x-mcp-header': 'Root' },
    };
    for (const [label, s] of Object.entries(invalid)) expect(invalidHeaderAnnotation(s), label).toEqual(expect.any(String));
  });

  it('a tools/list result keeps its valid tools and drops the invalid ones, saying why', () => {
    const result = {
      resultType: 'complete',
      tools: [
        { name: 'valid_tool', inputSchema: schema({ region: { type: 'string', 'x-mcp-header': 'Region' } }) },
        { name: 'invalid_number_header', inputSchema: schema({ score: { type: 'number', 'x-mcp-header': 'Score' } }) },
      ],
    };
    const { result: kept, dropped } = withoutInvalidHeaderTools(result);
    expect((kept as typeof result).tools.map((t) => t.name)).toEqual(['valid_tool']);
    expect(kept).toMatchObject({ resultType: 'complete' });
    expect(dropped).toEqual([{ name: 'invalid_number_header', reason: expect.stringContaining('Score') }]);
    // Nothing to drop: the very same object back.
    const clean = { tools: [result.tools[0]] };
    expect(withoutInvalidHeaderTools(clean).result).toBe(clean);
  });
});

describe('modern request headers', () => {
  it('mirror the method, the named target and the declared parameters (Base64 when not header-safe)', () => {
    const tools = new ToolHeaderDeclarations();
    tools.learn({ tools: [{ name: 'deploy', inputSchema: schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'Count' } }) }] });
    expect(modernRequestHeaders({ method: 'tools/call', params: { name: 'deploy', arguments: { region: 'eu-west', n: 3 } } }, '2026-07-28', tools)).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'deploy',
      'Mcp-Param-Region': 'eu-west',
      'Mcp-Param-Count': '3',
    });
    const read = modernRequestHeaders({ method: 'resources/read', params: { uri: 'file:///ü.txt' } }, '2026-07-28');
    expect(read['Mcp-Name']).toBe(`=?base64?${Buffer.from('file:///ü.txt').toString('base64')}?=`);
    expect(modernRequestHeaders({ method: 'tools/list' }, '2026-07-28')).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' });
  });
});

describe('per-request log levels', () => {
  it('none asked: no log messages; else at or above the level asked for', () => {
    expect(logMessageWanted(undefined, 'error')).toBe(false);
    expect(logMessageWanted('verbose', 'error')).toBe(false);
    expect(logMessageWanted('info', 'info')).toBe(true);
    expect(logMessageWanted('info', 'debug')).toBe(false);
    expect(logMessageWanted('warning', 'emergency')).toBe(true);
  });
});
