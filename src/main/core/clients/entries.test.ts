import { describe, expect, it } from 'vitest';
import { maskLine, MASK, unifiedDiff } from './diff-view.js';
import { clineShape, codexShape, continueShape, geminiShape, gooseShape, opencodeShape, windsurfShape, zedShape } from './entry-shapes.js';
import { hubEntry, recognise, relayEntry } from './patchbay-entry.js';
import { extractSecrets, looksSecret } from './secret-extract.js';

const hub = { port: 4000, token: 'a'.repeat(43) };

describe('recognising Patchbay’s entries', () => {
  it('knows the relay by its shape, whichever launcher started it', () => {
    expect(recognise(relayEntry({ command: '/usr/bin/node', args: ['/opt/x/bin/patchbay.js'] }, 'fs'), hub)).toEqual({ serverId: 'fs', kind: 'stdio' });
    const app = relayEntry({ command: 'C:\\Program Files\\Patchbay\\Patchbay.exe', args: ['C:\\Program Files\\Patchbay\\resources\\relay.js'], env: { ELECTRON_RUN_AS_NODE: '1' } }, 'gh');
    expect(recognise(app, hub)?.serverId).toBe('gh');
    expect(recognise({ kind: 'stdio', command: 'npx', args: ['-y', 'some-server', 'relay', 'x'], env: {} }, hub)).toBeUndefined();
    expect(recognise({ kind: 'stdio', command: 'npx', args: ['mcp-patchbay', 'relay', 'x'], env: {} }, hub)?.serverId).toBe('x');
  });

  it('knows hub URLs by port or token, and remembers both to spot stale ones', () => {
    expect(recognise(hubEntry(hub, 'a b'), hub)).toEqual({ serverId: 'a b', kind: 'http', port: 4000, token: hub.token });
    const moved = { kind: 'http' as const, url: 'http://localhost:5000/mcp/fs', headers: { authorization: `Bearer ${hub.token}` }, transport: 'http' as const };
    expect(recognise(moved, hub)).toMatchObject({ serverId: 'fs', port: 5000 });
    expect(recognise({ ...moved, headers: {} }, hub)).toBeUndefined();
    expect(recognise({ ...moved, url: 'http://127.0.0.1:39517/mcp/fs', headers: {} }, hub)?.serverId).toBe('fs');
    expect(recognise({ ...moved, url: 'https://example.com:4000/mcp/fs' }, hub)).toBeUndefined();
    expect(recognise({ ...moved, url: 'http://127.0.0.1:4000/other/fs' }, hub)).toBeUndefined();
  });
});

describe('client shapes', () => {
  const url = hubEntry(hub, 'fs');
  const stdio = relayEntry({ command: '/n', args: ['/p.js'] }, 'fs', { PATCHBAY_HOME: '/d' });

  it('write each client’s own key names, and read them back', () => {
    expect(windsurfShape.writeHttp!(url, 'fs')).toEqual({ serverUrl: url.url, headers: url.headers });
    expect(geminiShape.writeHttp!(url, 'fs')).toEqual({ type: 'http', url: url.url, headers: url.headers });
    expect(codexShape.writeHttp!(url, 'fs')).toEqual({ url: url.url, http_headers: url.headers });
    expect(clineShape.writeHttp!(url, 'fs')).toMatchObject({ type: 'streamableHttp' });
    expect(opencodeShape.writeStdio!(stdio, 'fs')).toEqual({ type: 'local', command: ['/n', '/p.js', 'relay', 'fs'], enabled: true, environment: { PATCHBAY_HOME: '/d' } });
    expect(gooseShape.writeStdio!(stdio, 'fs')).toMatchObject({ name: 'fs', type: 'stdio', cmd: '/n', envs: { PATCHBAY_HOME: '/d' } });
    expect(continueShape.writeHttp!(url, 'fs')).toEqual({ name: 'fs', type: 'streamable-http', url: url.url, requestOptions: { headers: url.headers } });
    for (const shape of [windsurfShape, geminiShape, codexShape, clineShape, opencodeShape, gooseShape, continueShape, zedShape]) {
      expect(shape.read(shape.writeHttp!(url, 'fs'))).toMatchObject({ kind: 'http', url: url.url, headers: url.headers });
      expect(shape.read(shape.writeStdio!(stdio, 'fs'))).toMatchObject({ kind: 'stdio', command: '/n', args: ['/p.js', 'relay', 'fs'] });
    }
  });

  it('read the older and odd spellings, and say what they cannot run', () => {
    expect(zedShape.read({ source: 'custom', command: { path: 'npx', args: ['x'], env: {} } })).toMatchObject({ kind: 'stdio', command: 'npx' });
    expect(zedShape.read({ source: 'extension', settings: {} })).toMatchObject({ kind: 'unsupported' });
    expect(gooseShape.read({ type: 'builtin', name: 'developer' })).toMatchObject({ kind: 'unsupported' });
    // Gemini 0.61: a typed `url`, the deprecated `httpUrl`, and a bare `url` (HTTP, else SSE).
    expect(geminiShape.read({ url: 'https://x/sse', type: 'sse' })).toMatchObject({ kind: 'http', transport: 'sse' });
    expect(geminiShape.read({ url: 'https://x/mcp', type: 'http' })).toMatchObject({ kind: 'http', transport: 'http' });
    expect(geminiShape.read({ httpUrl: 'https://x/mcp' })).toMatchObject({ kind: 'http', url: 'https://x/mcp', transport: 'http' });
    expect(geminiShape.read({ url: 'https://x/mcp' })).toMatchObject({ kind: 'http', transport: 'auto' });
    expect(clineShape.read({ url: 'https://x/sse' })).toMatchObject({ kind: 'http', transport: 'sse' });
  });
});

describe('moving credentials out on import', () => {
  it('takes keys from env, headers, flags and URLs, leaving references and the rest alone', () => {
    const { entry, secrets } = extractSecrets('gh', {
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'server', '--api-key=sk-abc123', '--token', 'tok-456', 'postgres://me:pw%40x@db/app', '--verbose'],
      env: { GITHUB_TOKEN: 'ghp_0123456789', DEBUG: '1', REF: '${secret:kept}', PLACEHOLDER_KEY: '<your key>', OPENAI: 'sk-proj-zzz' },
    });
    expect(entry).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'server', '--api-key=${secret:gh.arg.api-key}', '--token', '${secret:gh.arg.token}', 'postgres://me:${secret:gh.arg5-password}@db/app', '--verbose'],
      env: { GITHUB_TOKEN: '${secret:gh.GITHUB_TOKEN}', DEBUG: '1', REF: '${secret:kept}', PLACEHOLDER_KEY: '<your key>', OPENAI: '${secret:gh.OPENAI}' },
    });
    expect(Object.fromEntries(secrets.map((s) => [s.name, s.value]))).toEqual({
      'gh.GITHUB_TOKEN': 'ghp_0123456789',
      'gh.OPENAI': 'sk-proj-zzz',
      'gh.arg.api-key': 'sk-abc123',
      'gh.arg.token': 'tok-456',
      'gh.arg5-password': 'pw%40x',
    });
    const remote = extractSecrets('web', { kind: 'http', url: 'https://x.dev/mcp?api_key=k1&mode=fast', headers: { Authorization: 'Bearer abc.def', 'X-Client': 'me' }, transport: 'auto' });
    expect(remote.entry).toMatchObject({ url: 'https://x.dev/mcp?api_key=${secret:web.url-api_key}&mode=fast', headers: { Authorization: 'Bearer ${secret:web.Authorization}', 'X-Client': 'me' } });
    expect(looksSecret('AUTHOR', 'me')).toBe(false);
  });
});

describe('the diff shown before writing', () => {
  it('masks the hub token and credential-looking values, keeping references visible', () => {
    expect(maskLine('    "API_KEY": "sk-123",')).toBe(`    "API_KEY": "${MASK}",`);
    expect(maskLine('Authorization = "Bearer abc"')).toBe(`Authorization = "Bearer ${MASK}"`);
    expect(maskLine('      GITHUB_TOKEN: ghp_123 # mine')).toBe(`      GITHUB_TOKEN: ${MASK} # mine`);
    expect(maskLine('    "TOKEN": "${secret:TOKEN}"')).toBe('    "TOKEN": "${secret:TOKEN}"');
    expect(maskLine('    env_keys: []')).toBe('    env_keys: []');
    const diff = unifiedDiff('/x.json', '{}\n', `{"u": "${hub.token}"}\n`, [hub.token]);
    expect(diff).not.toContain(hub.token);
    expect(diff).toContain(`+{"u": "${MASK}"}`);
  });
});
