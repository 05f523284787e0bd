/**
 * Issue 27: client-config export (the YAML/TOML/JSONC editors, diffs, the doctor) is loaded on the
 * first clients call, not at start: `patchbay relay --url` runs an engine of its own and pays for
 * every module that engine loads before its first answer. The built CLI runs under the resolve
 * log (test/telemetry/fixtures/resolve-log.mjs); a tool call through the hub loads nothing of
 * clients/; the first `clients.list` does, and answers.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { apiCall } from '../helpers/hub-api.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { probeServer } from '../helpers/server-entries.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';

const HOOK = path.join(REPO_ROOT, 'test', 'telemetry', 'fixtures', 'resolve-log.mjs');

beforeAll(() => ensureBuilt(), 180_000);

const clientsModules = (urls: string[]): string[] =>
  urls.filter((u) => /\/dist\/main\/core\/clients\//.test(u) || /\/node_modules\/(yaml|smol-toml)\//.test(u));

describe('the clients domain loads on its first call', () => {
  it('a tool call through the hub loads nothing of it; clients.list loads it and answers', async () => {
    const dataDir = await tempDir('patchbay-lazy-clients-');
    const log = path.join(dataDir, 'resolved.txt');
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { p: probeServer() } }));
    await writeFile(log, '');
    // HOME in the temp dir: clients.list then looks at this test's (empty) client configs only.
    const { url } = await startServeProcess({ dataDir, nodeArgs: ['--import', HOOK], env: { RESOLVE_LOG: log, HOME: dataDir, XDG_CONFIG_HOME: path.join(dataDir, '.config') } });
    const hub = { url, mcpUrl: (id: string) => `${url}/mcp/${encodeURIComponent(id)}`, authHeader: () => ({}) } as unknown as TestHub;
    const resolved = async (): Promise<string[]> => (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '');

    const client = await connect(hub, 'p');
    expect(await client.tool('echo', { text: 'through the hub' })).toBe('through the hub');
    const atStart = await resolved();
    expect(atStart.some((u) => u.endsWith('/dist/main/core/engine/engine.js'))).toBe(true);
    expect(clientsModules(atStart)).toEqual([]);

    const listed = await apiCall<Array<{ id: string }>>(hub, 'clients.list');
    expect(listed.ok).toBe(true);
    expect(listed.value?.some((c) => c.id === 'claude-desktop')).toBe(true);
    const after = await resolved();
    expect(after.some((u) => u.endsWith('/dist/main/core/clients/clients-service.js'))).toBe(true);
  });
});
