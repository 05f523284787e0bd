import { describe, expect, it } from 'vitest';
import { limitWarnings } from './client-limits.js';
import { loadTokenCounter, toolCostText, TokenMeter } from './token-cost.js';

describe('context cost', () => {
  it('counts what a client sends a model for a tool with a real tokenizer', async () => {
    const meter = new TokenMeter(await loadTokenCounter());
    const small = meter.tokens(toolCostText({ description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }, 'fs__read_file'));
    // o200k_base: the JSON text of name, description and schema is a few dozen tokens, not characters.
    expect(small).toBeGreaterThan(10);
    expect(small).toBeLessThan(40);
    const big = meter.tokens(toolCostText({ description: 'word '.repeat(1000) }, 't'));
    expect(big).toBeGreaterThan(1000);
    expect(toolCostText({ title: 'T', outputSchema: { type: 'object' } }, 'x')).toBe('{"name":"x","title":"T","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}');
  });

  it('warns at the limits clients are known to have', () => {
    expect(limitWarnings(30, 1000)).toEqual([]);
    expect(limitWarnings(41, 1000).map((w) => w.client)).toEqual(['Cursor']);
    expect(limitWarnings(200, 30_000).map((w) => w.client)).toEqual(['Cursor', 'OpenAI API', 'VS Code (Copilot)', 'Claude Code']);
  });
});
