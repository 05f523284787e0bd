/**
 * `patchbay serve` with PATCHBAY_REGISTRY_URL: nothing is fetched at start; `patchbay search`
 * (the catalog used) makes the hub refresh its copy from that registry, and `patchbay doctor`
 * reads outdated servers from the copy without asking the registry again.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/run-cli.js';
import { startFixtureRegistry } from '../fixtures/registry/fixture-registry.mjs';
import { onCleanup } from '../helpers/cleanup.js';
import { cli } from '../helpers/cli-io.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('patchbay serve with PATCHBAY_REGISTRY_URL', () => {
  it('fetches nothing at start, refreshes when searched, and the doctor lists outdated servers from the copy', async () => {
    const registry = await startFixtureRegistry();
    onCleanup(() => registry.close());
    const dataDir = await tempDir('patchbay-catalog-serve-');
    const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31'], catalog: { registry: registry.url, name: 'io.github.patchbay-test/everything', version: '2026.1.0', option: 'package:0' } };
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { everything: entry } }, null, 2));
    await startServeProcess({ dataDir, env: { PATCHBAY_REGISTRY_URL: registry.url } });
    expect(registry.requests).toEqual([]);

    const search = cli(dataDir);
    expect(await runCli(['search', 'everything'], search.io), search.err()).toBe(0);
    expect(search.out()).toContain('io.github.patchbay-test/everything');
    expect(registry.requests.length).toBeGreaterThan(0);

    const asked = registry.requests.length;
    const doctor = cli(dataDir);
    await runCli(['doctor', '--json'], doctor.io);
    const report = JSON.parse(doctor.out()) as { checks: Array<{ id: string; title: string }> };
    expect(report.checks.find((c) => c.id === 'server-outdated:everything')?.title).toBe('everything: io.github.patchbay-test/everything 2026.8.31 is available (installed: 2026.1.0)');
    expect(registry.requests.length).toBe(asked);
  });
});
