/**
 * A registry that misbehaves (the fixture's fault modes, over real loopback HTTP): each failure
 * lands in that registry's `error`, worded precisely, and the last copy — in memory and on disk —
 * is left as it was. Documents that are not server.json are skipped without breaking the rest.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/main/core/catalog/catalog-store.js';
import { copyFile } from '../../src/main/core/catalog/registry-copy.js';
import { onCleanup } from '../helpers/cleanup.js';
import { tempDir } from '../helpers/temp-dir.js';
import { captureLogger, fixtureRegistry } from './registry-helpers.js';

const LIST = '/v0.1/servers?version=latest&limit=100&updated_since=2026-09-01T10%3A00%3A00.000Z';

describe('catalog store: a failing registry keeps the last copy', () => {
  it.each([
    ['status-500', `registry "fixture": GET ${LIST}: answered 500 (Internal server error)`],
    ['bad-json', `registry "fixture": GET ${LIST}: the answer is not JSON (`],
    ['huge', `registry "fixture": GET ${LIST}: the registry's answer is larger than 8 MiB`],
    ['slow', `registry "fixture": GET ${LIST}: no answer within 0.5 s`],
    [
      'wrong-schema',
      `registry "fixture": GET ${LIST}: none of the 4 items is a server.json document (entry 1: not a registry entry (expected {server, _meta}, got a string); entry 2: not a registry entry (expected {server, _meta}, got a number))`,
    ],
  ] as const)('%s', async (mode, message) => {
    const registry = await fixtureRegistry();
    const dataDir = await tempDir('patchbay-catalog-');
    // Only the slow case needs a short timeout; a loaded machine may take a while to stream 9 MiB.
    const logger = captureLogger();
    const source = createCatalogStore({ dataDir, registries: [{ url: registry.url, label: 'fixture' }], logger, env: {}, ...(mode === 'slow' ? { timeoutMs: 500 } : {}) });
    onCleanup(() => source.close());
    await source.refresh();
    const file = copyFile(dataDir, registry.url);
    const onDisk = readFileSync(file, 'utf8');
    const fetchedAt = source.registries()[0]?.fetchedAt;

    registry.setFault(mode);
    const [state] = await source.refresh({ force: true });
    expect(state?.error?.startsWith(message)).toBe(true);
    expect(state).toMatchObject({ source: 'network', count: 33, fetchedAt });
    expect(readFileSync(file, 'utf8')).toBe(onDisk);
    expect(source.search('everything').hits[0]?.document.name).toBe('io.github.patchbay-test/everything');
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([state?.error]);

    // Once the registry answers again, the error is gone.
    registry.setFault(null);
    const [after] = await source.refresh({ force: true });
    expect(after?.error).toBeUndefined();
  });

  it('skips the documents that are not server.json, says why once, and keeps the rest', async () => {
    const registry = await fixtureRegistry({
      documents: [
        { server: { description: 'A document without a name', version: '1.0.0' } },
        { name: 'io.github.someone/broken-package', description: 'Its package has no identifier', version: '1.0.0', packages: [{ registryType: 'npm', transport: { type: 'stdio' } }] },
      ],
    });
    const logger = captureLogger();
    const source = createCatalogStore({ dataDir: await tempDir('patchbay-catalog-'), registries: [{ url: registry.url, label: 'fixture' }], logger, env: {} });
    onCleanup(() => source.close());
    const [state] = await source.refresh();
    expect(state).toMatchObject({ source: 'network', count: 33 });
    expect(state?.error).toBeUndefined();
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings.map((w) => w.message)).toEqual(['registry "fixture": 2 of 35 entries skipped (not server.json documents)']);
    const reasons = warnings[0]?.fields?.reasons as string[];
    expect(reasons).toHaveLength(2);
    expect(reasons.some((r) => /^entry \d+: not a server\.json document \(name: /.test(r))).toBe(true);
    expect(reasons.some((r) => /^entry \d+: io\.github\.someone\/broken-package: not a server\.json document \(packages\.0\.identifier: /.test(r))).toBe(true);
  });
});
