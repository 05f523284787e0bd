/**
 * Searching the copies: typo-tolerant, names and titles first, package identifiers found, an
 * empty query listing the most recently updated first — on the fixture's real documents.
 */
import { describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/main/core/catalog/catalog-store.js';
import type { CatalogSource } from '../../src/main/core/catalog/catalog-source.js';
import { onCleanup } from '../helpers/cleanup.js';
import { tempDir } from '../helpers/temp-dir.js';
import { captureLogger, fixtureRegistry } from './registry-helpers.js';

async function refreshed(): Promise<CatalogSource> {
  const registry = await fixtureRegistry();
  const source = createCatalogStore({ dataDir: await tempDir('patchbay-catalog-'), registries: [{ url: registry.url }], logger: captureLogger(), env: {} });
  onCleanup(() => source.close());
  await source.refresh();
  return source;
}

const names = (source: CatalogSource, query: string, limit?: number) =>
  source.search(query, limit === undefined ? {} : { limit }).hits.map((h) => h.document.name);

describe('catalog search', () => {
  it('forgives a typo: "wether" finds the weather server first', async () => {
    const source = await refreshed();
    expect(names(source, 'wether')[0]).toBe('io.github.patchbay-test/remote-weather');
  });

  it('ranks a server named for the word above one that only mentions it', async () => {
    const source = await refreshed();
    // Perch Data mentions "weather data" in its description; the weather server is named for it.
    expect(names(source, 'weather')).toEqual(['io.github.patchbay-test/remote-weather', 'io.github.101NUTS/perch-data']);
    // "vault": VaultVision (name and title) and 1Claw Vault (title) before 0nMCP (description).
    const vault = names(source, 'vault');
    expect(vault.slice(0, 2).sort()).toEqual(['io.github.0xkayser/vaultvision', 'io.github.1clawAI/1claw-mcp']);
    expect(vault).toContain('io.github.0nork/0nMCP');
  });

  it('splits names where people split words, and finds package identifiers and prefixes', async () => {
    const source = await refreshed();
    expect(names(source, 'polymarket')[0]).toBe('io.github.0xChron/polymarket-mcp');
    expect(names(source, 'qemu replay')[0]).toBe('io.github.0xmortuex/qemu-replay-mcp');
    expect(names(source, 'server-everything')[0]).toBe('io.github.patchbay-test/everything');
    expect(names(source, 'sui-analytics')[0]).toBe('io.github.0xfreak0/sui-mcp');
    expect(names(source, 'hyperliq')).toEqual(expect.arrayContaining(['io.github.0xkayser/vaultvision', 'io.0xarchive/mcp', 'io.github.0xsl1m/cerebrus-pulse-mcp']));
  });

  it('an empty query lists every latest version, most recently updated first', async () => {
    const source = await refreshed();
    const all = source.search('', { limit: 3 });
    expect(all.total).toBe(33);
    expect(all.hits.map((h) => [h.document.name, h.document.version])).toEqual([
      ['io.github.patchbay-test/everything', '2026.8.31'],
      ['io.github.patchbay-test/remote-weather', '1.2.0'],
      [expect.any(String), expect.any(String)],
    ]);
    expect(source.search('zzzzqqq').total).toBe(0);
  });
});
