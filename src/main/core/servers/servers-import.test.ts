import { describe, expect, it } from 'vitest';
import { nameFor, planImport } from './servers-import.js';

const stdio = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] };

describe('planImport', () => {
  it('takes the shapes people paste: mcpServers, VS Code servers, a bare map, a fragment', () => {
    for (const snippet of [
      JSON.stringify({ mcpServers: { fs: stdio } }),
      JSON.stringify({ servers: { fs: { type: 'stdio', ...stdio } } }),
      JSON.stringify({ fs: stdio }),
      `"fs": ${JSON.stringify(stdio)},`,
    ]) {
      const plan = planImport(snippet, {}, false);
      expect(plan.result.problems).toEqual([]);
      expect(plan.result.added).toEqual(['fs']);
    }
  });

  it('names an unnamed entry from its package, and maps other clients\' URL keys', () => {
    expect(planImport(JSON.stringify(stdio), {}, false).result.added).toEqual(['filesystem']);
    const remote = planImport(JSON.stringify({ mcpServers: { w: { serverUrl: 'https://example.com/mcp' } } }), {}, false);
    expect(remote.entries[0]?.[1]).toEqual({ url: 'https://example.com/mcp' });
    expect(nameFor({ url: 'https://mcp.linear.app/sse' })).toBe('linear');
  });

  it('reports bad entries by JSON path without blocking good ones, and never quotes values', () => {
    const plan = planImport(JSON.stringify({ mcpServers: { ok: stdio, bad: { args: ['sk-secret-value'] }, 'no spaces': stdio } }), { ok: stdio }, false);
    expect(plan.result.skipped).toEqual(['ok']);
    expect(plan.result.problems.map((p) => p.id)).toEqual(['bad', 'no spaces']);
    expect(plan.result.problems[0]?.path).toBe('$.mcpServers.bad');
    expect(JSON.stringify(plan.result)).not.toContain('sk-secret-value');
  });

  it('says where invalid JSON is, without echoing it', () => {
    const plan = planImport('{"mcpServers": {"x": {"command": "sk-abc",}}', {}, false);
    expect(plan.result.problems[0]?.message).toMatch(/not valid JSON: line 1, column \d+/);
    expect(plan.result.problems[0]?.message).not.toContain('sk-abc');
  });

  it('replaces existing entries only when asked', () => {
    const plan = planImport(JSON.stringify({ mcpServers: { fs: stdio } }), { fs: { command: 'old' } }, true);
    expect(plan.result.replaced).toEqual(['fs']);
    expect(plan.entries).toHaveLength(1);
  });
});
