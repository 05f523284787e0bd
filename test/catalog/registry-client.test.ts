/**
 * The registry client against the fixture registry over real loopback HTTP: paging, the
 * parameters it sends, URL-encoded names, ETag, and a precise message for each way a registry
 * can fail (each names the registry and the URL path).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRegistryClient, RegistryError } from '../../src/main/core/catalog/registry-client.js';
import { onCleanup } from '../helpers/cleanup.js';
import { fixtureRegistry, listRequests } from './registry-helpers.js';

describe('registry client', () => {
  it('reads every page with cursor and limit, the latest versions only', async () => {
    const registry = await fixtureRegistry();
    const client = createRegistryClient({ url: `${registry.url}/`, label: 'fixture', pageSize: 10 });
    const answer = await client.list();
    if (answer.notModified) throw new Error('unexpected 304');
    const names = answer.entries.map((e) => e.document.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('io.github.patchbay-test/everything');
    expect(answer.entries.find((e) => e.document.name === 'io.github.patchbay-test/everything')?.document.version).toBe('2026.8.31');
    expect(answer.entries.length).toBe(33);
    const pages = listRequests(registry);
    expect(pages.length).toBe(4);
    expect(pages[0]?.query).toEqual({ version: 'latest', limit: '10' });
    expect(pages[1]?.query.cursor).toBeTruthy();
    expect(answer.skipped).toEqual([]);
  });

  it('sends updated_since and gets only what changed', async () => {
    const registry = await fixtureRegistry();
    const client = createRegistryClient({ url: registry.url, label: 'fixture' });
    registry.addVersion({ name: 'io.github.patchbay-test/remote-weather', description: 'Weather, again', version: '1.3.0' });
    const answer = await client.list({ updatedSince: '2026-09-01T10:00:00.000Z' });
    if (answer.notModified) throw new Error('unexpected 304');
    expect(answer.entries.map((e) => `${e.document.name}@${e.document.version}`)).toEqual(['io.github.patchbay-test/remote-weather@1.3.0']);
    expect(listRequests(registry)[0]?.query.updated_since).toBe('2026-09-01T10:00:00.000Z');
  });

  it('sends the ETag back to the same URL and reads 304 as unchanged', async () => {
    const registry = await fixtureRegistry();
    const client = createRegistryClient({ url: registry.url, label: 'fixture' });
    const first = await client.list();
    if (first.notModified) throw new Error('unexpected 304');
    expect(first.etag).toBeTruthy();
    const second = await client.list({ ...(first.etag ? { etag: first.etag } : {}), etagPath: first.firstPath });
    expect(second.notModified).toBe(true);
    expect(listRequests(registry)[1]?.headers['if-none-match']).toBe(first.etag);
    // An ETag is never sent to another URL.
    await client.list({ updatedSince: '2026-01-01T00:00:00.000Z', ...(first.etag ? { etag: first.etag } : {}), etagPath: first.firstPath });
    expect(listRequests(registry)[2]?.headers['if-none-match']).toBeUndefined();
  });

  it('asks for versions with the name URL-encoded, and words a 404', async () => {
    const registry = await fixtureRegistry();
    const client = createRegistryClient({ url: registry.url, label: 'fixture' });
    const versions = await client.versions('io.github.patchbay-test/everything');
    expect(versions.map((v) => [v.document.version, v.official?.isLatest])).toEqual([
      ['2026.8.31', true],
      ['2026.1.0', false],
    ]);
    const old = await client.version('io.github.patchbay-test/everything', '2026.1.0');
    expect(old.document.version).toBe('2026.1.0');
    expect(registry.requests.map((r) => r.path)).toEqual([
      '/v0.1/servers/io.github.patchbay-test%2Feverything/versions',
      '/v0.1/servers/io.github.patchbay-test%2Feverything/versions/2026.1.0',
    ]);
    await expect(client.versions('io.github.nobody/nothing')).rejects.toThrow(
      'registry "fixture": GET /v0.1/servers/io.github.nobody%2Fnothing/versions: the registry has no io.github.nobody/nothing',
    );
    await expect(client.version('io.github.patchbay-test/everything', '9.9.9')).rejects.toMatchObject({ status: 404 });
  });

  describe('faults', () => {
    const path = '/v0.1/servers?version=latest&limit=100';
    it.each([
      ['status-500', `registry "fixture": GET ${path}: answered 500 (Internal server error)`],
      ['bad-json', `registry "fixture": GET ${path}: the answer is not JSON (`],
      ['huge', `registry "fixture": GET ${path}: the registry's answer is larger than 8 MiB`],
      ['slow', `registry "fixture": GET ${path}: no answer within 0.3 s`],
    ] as const)('%s', async (mode, message) => {
      const registry = await fixtureRegistry();
      registry.setFault(mode);
      // Only the slow case needs a short timeout; a loaded machine may take a while to stream 9 MiB.
      const client = createRegistryClient({ url: registry.url, label: 'fixture', ...(mode === 'slow' ? { timeoutMs: 300 } : {}) });
      const failure = await client.list().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(RegistryError);
      expect((failure as Error).message.startsWith(message)).toBe(true);
    });

    it('wrong-schema: each item says why it is not a document', async () => {
      const registry = await fixtureRegistry();
      registry.setFault('wrong-schema');
      const client = createRegistryClient({ url: registry.url, label: 'fixture' });
      const answer = await client.list();
      if (answer.notModified) throw new Error('unexpected 304');
      expect(answer.entries).toEqual([]);
      expect(answer.received).toBe(4);
      expect(answer.skipped[0]).toBe('entry 1: not a registry entry (expected {server, _meta}, got a string)');
      expect(answer.skipped[3]).toMatch(/^entry 4: not a server\.json document \(name: /);
      await expect(client.version('io.github.patchbay-test/everything', '2026.8.31')).rejects.toThrow(
        /GET \/v0\.1\/servers\/io\.github\.patchbay-test%2Feverything\/versions\/2026\.8\.31: not a server\.json document \(name: /,
      );
    });

    it('an envelope that is not a list', async () => {
      // Some other service at the URL: JSON, but not `{servers: [...]}`.
      const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      onCleanup(() => new Promise((resolve) => other.close(resolve)));
      const client = createRegistryClient({ url: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, label: 'odd' });
      await expect(client.list()).rejects.toThrow(
        'registry "odd": GET /v0.1/servers?version=latest&limit=100: the answer is not a server list (servers: ',
      );
    });

    it('a registry that cannot be reached', async () => {
      const registry = await fixtureRegistry();
      await registry.close();
      const client = createRegistryClient({ url: registry.url, label: 'fixture' });
      await expect(client.list()).rejects.toThrow(`registry "fixture": GET ${path}: could not reach ${registry.url} (`);
    });
  });
});
