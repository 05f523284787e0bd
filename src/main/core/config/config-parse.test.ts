import { describe, expect, it } from 'vitest';
import { formatJsonPath, parseConfigText, type ConfigProblem } from './config-parse.js';

function problemsOf(value: unknown): ConfigProblem[] {
  const result = parseConfigText(JSON.stringify(value), 'test.json');
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

const paths = (value: unknown): string[] => problemsOf(value).map((p) => p.path);

describe('parseConfigText', () => {
  it('accepts the mcpServers shape MCP clients use, keeping unknown keys and key order', () => {
    const text = JSON.stringify({
      zed: { theme: 'dark' },
      mcpServers: {
        fs: {
          args: ['-y', 'server-fs'],
          command: 'npx',
          env: { ROOT: '/tmp' },
          autoApprove: ['read'],
        },
        api: {
          type: 'http',
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer ${secret:API}' },
        },
        old: { type: 'sse', url: 'http://localhost:9000/sse', disabled: true },
      },
      hub: { port: 4000, future: 1 },
    });
    const result = parseConfigText(text, 'x');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.stringify(result.config)).toBe(text);
  });

  it('defaults mcpServers and strips a BOM', () => {
    const result = parseConfigText('\uFEFF{"hub": {}}', 'x');
    expect(result).toEqual({ ok: true, config: { hub: {}, mcpServers: {} } });
  });

  it('reports malformed JSON with line and column, and never quotes the text', () => {
    const result = parseConfigText(
      '{\n  "mcpServers": {\n    "gh": {"env": {"TOKEN": "sk-live-123"},}\n  }\n}',
      'x.json',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.source).toBe('x.json');
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ path: '$', line: 3, column: 43 });
    expect(result.problems[0]?.message).toMatch(
      /^invalid JSON at line 3, column 43: trailing comma/,
    );
    expect(JSON.stringify(result)).not.toContain('sk-live');
  });

  it('requires a top-level object', () => {
    expect(problemsOf([1])).toEqual([
      { path: '$', message: expect.stringContaining('got an array') },
    ]);
    expect(problemsOf(null)[0]?.message).toContain('got null');
  });

  it('reports each problem at its exact JSON path', () => {
    const problems = problemsOf({
      mcpServers: {
        fs: { command: '', args: ['ok', 7] },
        'my-db': { command: 'db', env: { PORT: 5432, HOST: 'h' } },
        api: { url: 'not a url', headers: { 'X-Key': true } },
        both: { command: 'x', url: 'https://example.com' },
        neither: { args: [] },
        weird: { type: 'websocket', url: 'ws://x' },
        notobj: 'npx server',
        'bad id': { command: 'x' },
      },
      hub: { port: 70000, maxBodyBytes: 'big' },
    });
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        '$.mcpServers.fs.command',
        '$.mcpServers.fs.args[1]',
        '$.mcpServers["my-db"].env.PORT',
        '$.mcpServers.api.url',
        '$.mcpServers.api.headers["X-Key"]',
        '$.mcpServers.both',
        '$.mcpServers.neither',
        '$.mcpServers.weird.type',
        '$.mcpServers.notobj',
        '$.mcpServers["bad id"]',
        '$.hub.port',
        '$.hub.maxBodyBytes',
      ].sort(),
    );
    expect(byPath['$.mcpServers.fs.command']).toBe('command must not be empty');
    expect(byPath['$.mcpServers.fs.args[1]']).toBe('must be a string, got a number');
    expect(byPath['$.mcpServers["my-db"].env.PORT']).toBe(
      'env values must be strings, got a number (put the value in double quotes)',
    );
    expect(byPath['$.mcpServers.api.headers["X-Key"]']).toContain(
      'headers values must be strings, got a boolean',
    );
    expect(byPath['$.mcpServers.api.url']).toBe('url must be an absolute URL');
    expect(byPath['$.mcpServers.both']).toContain('has both "command"');
    expect(byPath['$.mcpServers.neither']).toContain('needs "command"');
    expect(byPath['$.mcpServers.weird.type']).toContain('unknown server type "websocket"');
    expect(byPath['$.mcpServers.notobj']).toContain('got a string');
    expect(byPath['$.mcpServers["bad id"]']).toContain('invalid server id');
    expect(byPath['$.hub.maxBodyBytes']).toBe('must be a number, got a string');
  });

  it('flags command + url even when each half would be valid alone', () => {
    expect(
      paths({ mcpServers: { x: { command: 'npx', url: 'https://example.com/mcp' } } }),
    ).toEqual(['$.mcpServers.x']);
  });

  it('checks a server against the schema its type names', () => {
    expect(problemsOf({ mcpServers: { x: { type: 'http', command: 'npx' } } })).toEqual([
      { path: '$.mcpServers.x.url', message: '"url" is required (a string)' },
    ]);
    expect(problemsOf({ mcpServers: { x: { type: 'stdio', args: [] } } })).toEqual([
      { path: '$.mcpServers.x.command', message: '"command" is required (a string)' },
    ]);
  });

  it('reports a non-object mcpServers at its path', () => {
    expect(paths({ mcpServers: [] })).toEqual(['$.mcpServers']);
  });

  it('never echoes values in messages', () => {
    const problems = problemsOf({
      mcpServers: {
        x: { type: 'sk-secret-value-that-is-long-1234567890', url: 'u' },
        y: { command: 'c', env: { K: 123456789 } },
      },
    });
    const text = JSON.stringify(problems);
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('123456789');
  });
});

describe('formatJsonPath', () => {
  it('uses dots for identifiers, brackets for indexes and other keys', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['mcpServers', 'fs', 'args', 0])).toBe('$.mcpServers.fs.args[0]');
    expect(formatJsonPath(['mcpServers', 'a b', 'env', 'X-Y'])).toBe(
      '$.mcpServers["a b"].env["X-Y"]',
    );
  });
});
