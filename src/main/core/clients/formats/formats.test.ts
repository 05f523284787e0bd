import { parse as parseToml } from 'smol-toml';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { editClientText, EditError, parseClientText, type ContainerEdit } from './format.js';
import { scanTomlHeaders } from './toml-scan.js';

const relay = { command: '/usr/bin/node', args: ['/opt/patchbay/bin/patchbay.js', 'relay', 'fs'] };
const set = (name: string, value: Record<string, unknown>): ContainerEdit => ({ name, value });
const remove = (name: string): ContainerEdit => ({ name, value: undefined });

describe('JSON edits', () => {
  const spec = { key: 'mcpServers', container: 'map' as const };

  it('adds an entry without touching the neighbours, their layout or unknown keys', () => {
    const text = '{\n  "theme": "dark",\n  "mcpServers": {\n    "mine": { "command": "npx", "args": ["-y", "x"] }\n  }\n}\n';
    const out = editClientText('json', text, spec, [set('fs', relay)]);
    expect(out).toContain('    "mine": { "command": "npx", "args": ["-y", "x"] },\n    "fs": {\n      "command": "/usr/bin/node",');
    expect(out.startsWith('{\n  "theme": "dark",\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({ theme: 'dark', mcpServers: { mine: { command: 'npx', args: ['-y', 'x'] }, fs: relay } });
  });

  it('keeps comments and trailing commas in JSONC', () => {
    const text = '{\n\t// servers\n\t"servers": {\n\t\t"a": {"url": "http://x"}, // keep me\n\t},\n}\n';
    const out = editClientText('jsonc', text, { key: 'servers', container: 'map' }, [set('fs', relay)]);
    expect(out).toContain('// servers');
    expect(out).toContain('// keep me');
    expect(out).toContain('\t\t"fs": {\n\t\t\t"command"');
    const again = editClientText('jsonc', out, { key: 'servers', container: 'map' }, [set('fs', { url: 'http://y' })]);
    expect(again).toContain('"fs": {\n\t\t\t"url": "http://y"\n\t\t}');
  });

  it('creates the container in an empty object and keeps CRLF line endings', () => {
    expect(editClientText('json', '{}', spec, [set('fs', relay)])).toBe(`{\n  "mcpServers": {\n    "fs": {\n      "command": "/usr/bin/node",\n      "args": [\n        "/opt/patchbay/bin/patchbay.js",\n        "relay",\n        "fs"\n      ]\n    }\n  }\n}`);
    const crlf = editClientText('json', '{\r\n  "a": 1\r\n}\r\n', spec, [set('fs', { command: 'x', args: [] })]);
    expect(crlf).toBe('{\r\n  "a": 1,\r\n  "mcpServers": {\r\n    "fs": {\r\n      "command": "x",\r\n      "args": []\r\n    }\r\n  }\r\n}\r\n');
  });

  it('keeps a one-line (minified) file on one line', () => {
    const text = '{"mcpServers":{"mine":{"command":"uvx"}},"x":1}';
    const out = editClientText('json', text, spec, [set('fs', { command: 'n', args: [] })]);
    expect(out).toBe('{"mcpServers":{"mine":{"command":"uvx"},"fs":{"command":"n","args":[]}},"x":1}');
    expect(editClientText('json', '{"a":1}', spec, [set('fs', { url: 'u' })])).toBe('{"a":1,"mcpServers":{"fs":{"url":"u"}}}');
  });

  it('removes an entry and leaves the rest as it was', () => {
    const text = '{\n  "mcpServers": {\n    "a": {"command": "a"},\n    "fs": {"command": "b"}\n  },\n  "x": 1\n}\n';
    expect(editClientText('json', text, spec, [remove('fs')])).toBe('{\n  "mcpServers": {\n    "a": {"command": "a"}\n  },\n  "x": 1\n}\n');
  });

  it('reports strict-JSON problems with a position and a hint', () => {
    const result = parseClientText('json', '{\n  // no\n  "a": 1\n}');
    expect(result).toMatchObject({ ok: false, line: 2 });
    expect(!result.ok && result.message).toMatch(/strict JSON/);
    expect(parseClientText('jsonc', '{\n  // fine\n  "a": 1,\n}').ok).toBe(true);
  });

  it('words syntax errors as config.json’s are worded (one function for both, config/json-syntax.ts)', () => {
    expect(parseClientText('json', '{"a": 1,}')).toMatchObject({ ok: false, line: 1, column: 8, message: expect.stringContaining('trailing comma: JSON does not allow a comma before } at line 1, column 8') });
    expect(parseClientText('jsonc', "{'a': 1}")).toMatchObject({ ok: false, message: expect.stringContaining('must use double quotes') });
    expect(parseClientText('jsonc', '{"a": 01}')).toMatchObject({ ok: false, message: expect.stringContaining('numbers must not start with 0') });
  });
});

describe('TOML edits', () => {
  const spec = { key: 'mcp_servers', container: 'map' as const };
  const codex = `# Codex config
model = "o3"  # my favourite

[profiles.fast]
model = "gpt-4.1" # fast one

# my own server
[mcp_servers.mine]
command = "npx"
args = [
  "-y",
  "@x/server",   # keep this
]

[mcp_servers.mine.env]
API_KEY = "abc"

# about the ui
[tui]
notifications = true
`;

  it('finds headers but not lines inside multi-line arrays and strings', () => {
    const lines = 'a = """\n[not.a.header]\n"""\nb = [\n  [1, 2],\n]\n[real."quoted.key"]\n[[arr]]\n'.split('\n');
    expect(scanTomlHeaders(lines)).toEqual([
      { line: 6, path: ['real', 'quoted.key'], array: false },
      { line: 7, path: ['arr'], array: true },
    ]);
  });

  it('adds a table after the last mcp_servers table, everything else byte for byte', () => {
    const out = editClientText('toml', codex, spec, [set('fs', { ...relay, env: { PATCHBAY_HOME: '/tmp/pb' } })]);
    expect(out).toBe(codex.replace('API_KEY = "abc"\n', 'API_KEY = "abc"\n\n[mcp_servers.fs]\ncommand = "/usr/bin/node"\nargs = ["/opt/patchbay/bin/patchbay.js", "relay", "fs"]\nenv = { PATCHBAY_HOME = "/tmp/pb" }\n'));
    expect(parseToml(out)).toMatchObject({ model: 'o3', mcp_servers: { mine: { env: { API_KEY: 'abc' } }, fs: relay } });
  });

  it('replaces its own table (and sub-tables) in place, and removes it cleanly', () => {
    const withOwn = editClientText('toml', codex, spec, [set('fs', relay)]);
    const updated = editClientText('toml', withOwn, spec, [set('fs', { url: 'http://127.0.0.1:1/mcp/fs', http_headers: { Authorization: 'Bearer t' } })]);
    expect(updated).toContain('[mcp_servers.fs]\nurl = "http://127.0.0.1:1/mcp/fs"\nhttp_headers = { Authorization = "Bearer t" }\n\n# about the ui');
    expect(editClientText('toml', updated, spec, [remove('fs')])).toBe(codex);
  });

  it('appends to a file without the container, and starts an empty file', () => {
    expect(editClientText('toml', 'model = "o3"\n', spec, [set('a.b', { command: 'x', args: [] })])).toBe('model = "o3"\n\n[mcp_servers."a.b"]\ncommand = "x"\nargs = []\n');
    expect(editClientText('toml', '', spec, [set('a', { command: 'x', args: ['q"uote'] })])).toBe('[mcp_servers.a]\ncommand = "x"\nargs = ["q\\"uote"]\n');
  });

  it('refuses when the entry is written in a form it cannot edit', () => {
    const inline = 'mcp_servers = { fs = { command = "x" } }\n';
    expect(() => editClientText('toml', inline, spec, [set('fs', relay)])).toThrow(EditError);
  });
});

describe('YAML edits', () => {
  const goose = `# goose
GOOSE_PROVIDER: anthropic
extensions:
  developer:
    bundled: true
    enabled: true   # keep
    type: builtin
  github:
    args:
    - -y
    - '@modelcontextprotocol/server-github'
    cmd: npx
    type: stdio
# trailing comment
GOOSE_MODEL: claude
`;
  const spec = { key: 'extensions', container: 'map' as const };

  it('adds an entry in the file’s own sequence style and keeps every other byte', () => {
    const out = editClientText('yaml', goose, spec, [set('fs', { name: 'fs', type: 'stdio', cmd: 'node', args: ['a', 'relay', 'fs'] })]);
    expect(out).toBe(goose.replace("    type: stdio\n# trailing", "    type: stdio\n  fs:\n    name: fs\n    type: stdio\n    cmd: node\n    args:\n    - a\n    - relay\n    - fs\n# trailing"));
    const replaced = editClientText('yaml', out, spec, [set('fs', { name: 'fs', type: 'streamable_http', uri: 'http://x' })]);
    expect(YAML.parse(replaced).extensions.fs).toEqual({ name: 'fs', type: 'streamable_http', uri: 'http://x' });
    expect(editClientText('yaml', replaced, spec, [remove('fs')])).toBe(goose);
  });

  it('edits Continue’s list of servers by name', () => {
    const text = 'name: Local\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: SQLite # mine\n    command: npx\n';
    const listSpec = { key: 'mcpServers', container: 'list' as const };
    const out = editClientText('yaml', text, listSpec, [set('fs', { name: 'fs', command: 'node', args: ['x'] })]);
    expect(out).toBe(text + '  - name: fs\n    command: node\n    args:\n      - x\n');
    expect(editClientText('yaml', out, listSpec, [remove('fs')])).toBe(text);
    const empty = editClientText('yaml', 'name: Local\nmcpServers: []\n', listSpec, [set('fs', { name: 'fs', command: 'node' })]);
    expect(YAML.parse(empty)).toEqual({ name: 'Local', mcpServers: [{ name: 'fs', command: 'node' }] });
  });

  it('reports invalid YAML', () => {
    expect(parseClientText('yaml', 'a: [1, 2\nb: 3\n').ok).toBe(false);
    expect(parseClientText('yaml', '- just\n- a list\n').ok).toBe(false);
  });
});
