/**
 * The registry copies (catalog-store.ts) against the fixture registry over real loopback HTTP:
 * full and incremental refreshes, the ETag, the hourly rule (the clock is injected), one refresh
 * at a time, the copy on disk answering offline, the shipped snapshot, and where results come from.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogStore, OFFICIAL_REGISTRY_URL, resolveRegistries } from '../../src/main/core/catalog/catalog-store.js';
import type { CatalogStoreOptions } from '../../src/main/core/catalog/catalog-store.js';
import { copyFile } from '../../src/main/core/catalog/registry-copy.js';
import { onCleanup } from '../helpers/cleanup.js';
import { tempDir } from '../helpers/temp-dir.js';
import { captureLogger, fixtureRegistry, listRequests } from './registry-helpers.js';

const HOUR = 3_600_000;
const EVERYTHING = 'io.github.patchbay-test/everything';

/** A store with a clock the test moves (`clock.now += HOUR`). */
async function store(options: Partial<CatalogStoreOptions> & { registries: CatalogStoreOptions['registries'] }) {
  const clock = { now: Date.parse('2026-10-01T12:00:00.000Z') };
  const logger = captureLogger();
  const dataDir = options.dataDir ?? (await tempDir('patchbay-catalog-'));
  const source = createCatalogStore({ env: {}, now: () => clock.now, ...options, dataDir, logger });
  onCleanup(() => source.close());
  return { source, clock, logger, dataDir };
}

describe('catalog store: refresh', () => {
  it('reads every page the first time and keeps the copy on disk', async () => {
    const registry = await fixtureRegistry();
    const { source, dataDir } = await store({ registries: [{ url: registry.url, label: 'fixture' }], pageSize: 10 });
    expect(source.registries()).toEqual([{ url: registry.url, label: 'fixture', source: 'none', count: 0 }]);
    const [state] = await source.refresh();
    expect(state).toMatchObject({ url: registry.url, label: 'fixture', source: 'network', count: 33, fetchedAt: '2026-10-01T12:00:00.000Z' });
    expect(state?.error).toBeUndefined();
    expect(listRequests(registry).length).toBe(4);
    expect(existsSync(copyFile(dataDir, registry.url))).toBe(true);
    expect(source.latest(EVERYTHING)?.document.version).toBe('2026.8.31');
  });

  it('then asks only for what changed since the newest update, and merges it', async () => {
    const registry = await fixtureRegistry();
    const { source, clock } = await store({ registries: [{ url: registry.url }] });
    await source.refresh();
    registry.addVersion({ name: EVERYTHING, description: 'A newer everything', version: '2026.9.0' });
    registry.setStatus('io.github.11hritik11/chess-mcp', 'deleted');
    clock.now += HOUR + 1;
    const [state] = await source.refresh();
    const second = listRequests(registry)[1];
    expect(second?.query).toMatchObject({ version: 'latest', updated_since: '2026-09-01T10:00:00.000Z' });
    expect(state).toMatchObject({ source: 'network', count: 32 });
    expect(source.latest(EVERYTHING)?.document.version).toBe('2026.9.0');
    expect(source.latest('io.github.11hritik11/chess-mcp')).toBeUndefined();
    expect(source.latest('io.github.patchbay-test/remote-weather')?.document.version).toBe('1.2.0');
  });

  it('sends the last ETag back to the same URL and keeps the copy on 304', async () => {
    const registry = await fixtureRegistry();
    const { source, clock } = await store({ registries: [{ url: registry.url }] });
    await source.refresh();
    // The first incremental read learns the ETag of its URL (nothing changed, so the next one asks the same URL).
    clock.now += HOUR + 1;
    await source.refresh();
    clock.now += HOUR + 1;
    const [state] = await source.refresh();
    const [, second, third] = listRequests(registry);
    expect(third?.query).toEqual(second?.query);
    expect(third?.headers['if-none-match']).toBeTruthy();
    expect(state).toMatchObject({ source: 'network', count: 33, fetchedAt: new Date(clock.now).toISOString() });
    expect(source.latest(EVERYTHING)?.document.version).toBe('2026.8.31');
  });

  it('refreshes at most hourly unless forced', async () => {
    const registry = await fixtureRegistry();
    const { source, clock } = await store({ registries: [{ url: registry.url }] });
    await source.refresh();
    clock.now += HOUR / 2;
    await source.refresh();
    expect(listRequests(registry).length).toBe(1);
    await source.refresh({ force: true });
    expect(listRequests(registry).length).toBe(2);
    clock.now += HOUR + 1;
    await source.refresh();
    expect(listRequests(registry).length).toBe(3);
  });

  it('a copy read from disk counts for the hourly rule too', async () => {
    const registry = await fixtureRegistry();
    const first = await store({ registries: [{ url: registry.url }] });
    await first.source.refresh();
    const again = await store({ registries: [{ url: registry.url }], dataDir: first.dataDir });
    expect(again.source.registries()[0]).toMatchObject({ source: 'cache', count: 33 });
    await again.source.refresh();
    expect(listRequests(registry).length).toBe(1);
  });

  it('shares one refresh between concurrent calls', async () => {
    const registry = await fixtureRegistry();
    const { source } = await store({ registries: [{ url: registry.url }], pageSize: 20 });
    const changes: number[] = [];
    source.onChange((list) => changes.push(list[0]?.count ?? -1));
    const a = source.refresh();
    const b = source.refresh({ force: true });
    expect(b).toBe(a);
    await Promise.all([a, b]);
    expect(listRequests(registry).length).toBe(2);
    expect(changes).toEqual([33]);
  });
});

describe('catalog store: offline', () => {
  it('answers from the cached copy, with the error, when the registry is gone', async () => {
    const registry = await fixtureRegistry();
    const first = await store({ registries: [{ url: registry.url, label: 'fixture' }] });
    await first.source.refresh();
    await registry.close();
    const { source } = await store({ registries: [{ url: registry.url, label: 'fixture' }], dataDir: first.dataDir });
    const [state] = await source.refresh({ force: true });
    expect(state).toMatchObject({ source: 'cache', count: 33, fetchedAt: '2026-10-01T12:00:00.000Z' });
    expect(state?.error).toMatch(/^registry "fixture": GET \/v0\.1\/servers\?version=latest&limit=100&updated_since=2026-09-01T10%3A00%3A00\.000Z: could not reach http:\/\/127\.0\.0\.1:\d+ \(/);
    expect(source.search('weather').hits[0]?.document.name).toBe('io.github.patchbay-test/remote-weather');
    // Offline, the versions are the one the copy knows.
    expect(await source.versions(EVERYTHING)).toEqual([{ version: '2026.8.31', publishedAt: '2026-09-01T10:00:00.000Z', isLatest: true }]);
    await expect(source.versions('io.github.nobody/nothing')).rejects.toThrow('could not reach');
  });

  it('the first run without network shows the snapshot for the official registry only', async () => {
    const registry = await fixtureRegistry();
    await registry.close();
    // The official URL is routed to the closed fixture port: nothing here may reach the internet.
    const offline: typeof fetch = (input, init) => fetch(String(input).replace(OFFICIAL_REGISTRY_URL, registry.url), init);
    const { source } = await store({ registries: [{ url: OFFICIAL_REGISTRY_URL }, { url: registry.url, label: 'fixture' }], fetch: offline });
    expect(source.registries().map((r) => [r.label, r.source, r.count])).toEqual([
      ['official', 'snapshot', 31],
      ['fixture', 'none', 0],
    ]);
    const [official, fixture] = await source.refresh();
    expect(official).toMatchObject({ source: 'snapshot', count: 31 });
    expect(official?.error).toMatch(/^registry "official": GET \/v0\.1\/servers\?version=latest&limit=100: could not reach https:\/\/registry\.modelcontextprotocol\.io \(/);
    expect(fixture).toMatchObject({ source: 'none', count: 0 });
    expect(fixture?.error).toContain('could not reach');
    const hit = source.search('polymarket').hits[0];
    expect(hit).toMatchObject({ registry: OFFICIAL_REGISTRY_URL, document: { name: 'io.github.0xChron/polymarket-mcp' } });
  });
});

describe('catalog store: registries', () => {
  it('PATCHBAY_REGISTRY_URL replaces the configured list', async () => {
    expect(resolveRegistries(undefined, {})).toEqual([{ url: OFFICIAL_REGISTRY_URL, label: 'official' }]);
    expect(resolveRegistries([{ url: 'https://acme.example/registry/' }, { url: 'https://registry.modelcontextprotocol.io/' }], {})).toEqual([
      { url: 'https://acme.example/registry', label: 'acme.example' },
      { url: OFFICIAL_REGISTRY_URL, label: 'official' },
    ]);
    const registry = await fixtureRegistry();
    const { source } = await store({ registries: [{ url: 'https://acme.example', label: 'acme' }], env: { PATCHBAY_REGISTRY_URL: registry.url } });
    expect(source.registries().map((r) => [r.url, r.label])).toEqual([[registry.url, '127.0.0.1']]);
    await source.refresh();
    expect(source.registries()[0]).toMatchObject({ source: 'network', count: 33 });
  });

  it('with two registries each result says where it came from', async () => {
    const one = await fixtureRegistry();
    const two = await fixtureRegistry({ dir: undefined, documents: [{ name: 'com.acme/weather-internal', title: 'ACME Weather', description: 'Our own weather service', version: '3.0.0' }] });
    const { source } = await store({ registries: [{ url: one.url, label: 'one' }, { url: two.url, label: 'two' }] });
    await source.refresh();
    expect(source.registries().map((r) => [r.label, r.count])).toEqual([
      ['one', 33],
      ['two', 34],
    ]);
    const hits = source.search('weather').hits.map((h) => [h.document.name, h.registry]);
    expect(hits).toContainEqual(['io.github.patchbay-test/remote-weather', one.url]);
    expect(hits).toContainEqual(['io.github.patchbay-test/remote-weather', two.url]);
    expect(hits).toContainEqual(['com.acme/weather-internal', two.url]);
    // Non-empty first: `every` holds on an empty list.
    const fromOne = source.search('weather', { registry: `${one.url}/` }).hits;
    expect(fromOne.length).toBeGreaterThan(0);
    expect(fromOne.every((h) => h.registry === one.url)).toBe(true);
    expect(source.latest('com.acme/weather-internal')?.registry).toBe(two.url);
    expect(source.latest(EVERYTHING, two.url)?.registry).toBe(two.url);
  });

  it('versions and one version, from the registry or the copy', async () => {
    const registry = await fixtureRegistry();
    const { source } = await store({ registries: [{ url: registry.url }] });
    await source.refresh();
    expect(await source.versions(EVERYTHING)).toEqual([
      { version: '2026.8.31', publishedAt: '2026-09-01T10:00:00.000Z', isLatest: true },
      { version: '2026.1.0', publishedAt: '2026-01-15T10:00:00.000Z', isLatest: false },
    ]);
    const before = registry.requests.length;
    expect((await source.version(EVERYTHING, '2026.8.31')).document.version).toBe('2026.8.31');
    expect(registry.requests.length).toBe(before);
    expect(await source.version(EVERYTHING, '2026.1.0')).toMatchObject({ registry: registry.url, document: { version: '2026.1.0' } });
    await expect(source.versions('io.github.nobody/nothing')).rejects.toThrow('the registry has no io.github.nobody/nothing');
    await expect(source.versions(EVERYTHING, 'https://elsewhere.example')).rejects.toThrow('no registry https://elsewhere.example is configured');
  });
});
