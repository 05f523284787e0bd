/**
 * Installs through the catalog API of a real engine (docs/catalog.md, Installing): the entry
 * pinned with `${secret:…}` references, the secrets in the store only, the server started
 * through the hub with its tools held for approval; refusals that write nothing; a failure after
 * the secrets were written that takes them back.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogInstall, CatalogPlan } from '../../src/shared/api/catalog-contract.js';
import { apiCall } from '../helpers/hub-api.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { tempDir } from '../helpers/temp-dir.js';
import { toolText } from '../helpers/json-rpc.js';
import { listTools } from '../profiles/profile-harness.js';
import { startFixtureRegistry } from '../fixtures/registry/fixture-registry.mjs';
import { onCleanup } from '../helpers/cleanup.js';
import { waitFor } from '../helpers/waits.js';
import { catalogHub } from './catalog-hub.js';

const EVERYTHING = 'io.github.patchbay-test/everything';

interface Shown {
  members: Array<{ server: string; tools: Array<{ name: string; pin?: string; held: boolean }> }>;
}

async function files(hub: TestHub): Promise<[string, string]> {
  const read = (name: string): Promise<string> => readFile(path.join(hub.dataDir, name), 'utf8').catch(() => '(none)');
  return [await read('config.json'), await read('secrets.json')];
}

describe('catalog installs', () => {
  it('installs the everything entry: pinned, the secret in the store only, its tools held until approved', async () => {
    const { hub, registry, registryUrl } = await catalogHub();
    // Nothing is fetched at start: only once the catalog is used.
    expect(registry.requests).toEqual([]);
    const values = { 'env:EVERYTHING_API_KEY': 'sk-everything-0123456789' };
    const before = await files(hub);
    const plan = (await apiCall<CatalogPlan>(hub, 'catalog.plan', { name: EVERYTHING, values })).value!;
    expect(plan.preview).toContain('npx -y @modelcontextprotocol/server-everything@2026.8.31');
    // Sandboxed by default where the machine can (issue 25).
    expect(plan.sandbox).toEqual({ on: true, available: true, detail: 'bubblewrap (as the test says)' });
    expect(plan.entry).toMatchObject({ command: 'npx', sandbox: true });
    expect(JSON.stringify(plan)).not.toContain('sk-everything');
    // A plan writes nothing.
    expect(await files(hub)).toEqual(before);

    // Installed unsandboxed, as a person who unticks the box would: it must run from this project's
    // node_modules (in its sandbox npx would fetch the package from npm; tests reach only loopback).
    const installed = await apiCall<CatalogInstall>(hub, 'catalog.install', { name: EVERYTHING, values, profile: 'work', sandbox: false });
    expect(installed.ok).toBe(true);
    expect(installed.value).toMatchObject({ serverId: 'everything', profile: 'work', pendingApproval: true, secrets: [{ name: 'everything.EVERYTHING_API_KEY', key: 'env:EVERYTHING_API_KEY' }] });
    const config = JSON.parse((await files(hub))[0]) as { mcpServers: Record<string, unknown>; profiles: Record<string, { servers: string[] }> };
    expect(config.mcpServers.everything).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31'],
      env: { EVERYTHING_API_KEY: '${secret:everything.EVERYTHING_API_KEY}', EVERYTHING_MODE: 'full' },
      catalog: { registry: registryUrl, name: EVERYTHING, version: '2026.8.31', option: 'package:0' },
    });
    expect(config.profiles.work!.servers).toEqual(['everything']);
    expect((await files(hub))[0]).not.toContain('sk-everything');
    expect(await hub.engine.secrets.get('everything.EVERYTHING_API_KEY')).toBe('sk-everything-0123456789');

    // A second install of the same name takes the next id.
    expect((await apiCall<CatalogPlan>(hub, 'catalog.plan', { name: EVERYTHING, values })).value!.serverId).toBe('everything-2');

    // The server starts through the hub; its tools are recorded pending and held.
    const client = await connect(hub, '@work');
    expect((await listTools(client)).map((t) => t.name)).not.toContain('everything__echo');
    const shown = (await apiCall<Shown>(hub, 'profiles.show', { name: 'work' })).value!;
    expect(shown.members.find((m) => m.server === 'everything')!.tools.find((t) => t.name === 'echo')).toMatchObject({ pin: 'changed', held: true });
    const refused = await client.callTool('everything__echo', { message: 'hi' });
    expect(refused.response.error?.message).toMatch(/^Tool everything__echo is held back: server 'everything' was just installed or updated .*patchbay profiles approve work everything echo/);

    expect((await apiCall(hub, 'profiles.approve', { name: 'work', server: 'everything' })).ok).toBe(true);
    await expect.poll(async () => (await listTools(client)).map((t) => t.name)).toContain('everything__echo');
    expect(toolText((await client.callTool('everything__echo', { message: 'hi' })).response)).toContain('hi');
  });

  it('installs the remote entry: the URL template filled, the secret header a reference', async () => {
    const { hub } = await catalogHub();
    const answer = await apiCall<CatalogInstall>(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'url:tenant': 'acme', 'header:X-Api-Key': 'wk-123' } });
    expect(answer.ok).toBe(true);
    const config = JSON.parse((await files(hub))[0]) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers['remote-weather']).toMatchObject({ url: 'https://acme.weather.example/mcp', headers: { 'X-Api-Key': '${secret:remote-weather.X-Api-Key}' }, transport: 'streamable-http' });
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('wk-123');
  });

  it('refuses without writing anything: a missing runtime, a missing value, an unknown profile, a taken id', async () => {
    const { hub } = await catalogHub({ path: await tempDir('patchbay-empty-path-') });
    // A remote needs no runtime: it takes the id the last refusal asks for.
    expect((await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'k' } })).ok).toBe(true);
    const before = await files(hub);
    const pypi = await apiCall(hub, 'catalog.install', { name: 'io.github.06ketan/medium-ops', values: { 'env:MEDIUM_SID': 'sid-1' } });
    expect(pypi).toMatchObject({ ok: false, code: 'runtime_missing' });
    expect(pypi.message).toMatch(/^uvx \(from uv: https:\/\/docs\.astral\.sh\/uv\/\) is not on PATH/);
    const oci = await apiCall(hub, 'catalog.install', { name: 'io.github.kanywst/mcp-opa-authz', values: { 'env:AUTHZEN_PDP_TOKEN': 'tok' } });
    expect(oci).toMatchObject({ ok: false, code: 'runtime_missing' });
    expect(oci.message).toMatch(/^docker \(from Docker: .*\) or podman \(from Podman: .*\) is not on PATH/);
    const detail = (await apiCall<{ options: Array<{ runtime?: { command: string; available: boolean } }> }>(hub, 'catalog.detail', { name: 'io.github.06ketan/medium-ops' })).value!;
    expect(detail.options[0]!.runtime).toMatchObject({ command: 'uvx', available: false });
    expect(await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather' })).toMatchObject({ ok: false, code: 'values_missing', message: 'Required values are missing: header:X-Api-Key' });
    expect(await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'k' }, profile: 'nope' })).toMatchObject({ ok: false, code: 'profile_not_found' });
    expect(await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'k2' }, serverId: 'remote-weather' })).toMatchObject({
      ok: false,
      code: 'server_exists',
      message: "There is already a server 'remote-weather' in the config: choose another id.",
    });
    expect(await files(hub)).toEqual(before);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('k');
  });

  it('on a machine that cannot sandbox: the plan says why and installs unsandboxed; asking for a sandbox is refused, nothing written', async () => {
    const { hub } = await catalogHub({ sandbox: { available: false, detail: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap' } });
    const values = { 'env:EVERYTHING_API_KEY': 'sk-everything-0123456789' };
    const plan = (await apiCall<CatalogPlan>(hub, 'catalog.plan', { name: EVERYTHING, values })).value!;
    expect(plan.sandbox).toEqual({ on: false, available: false, detail: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap' });
    expect(plan.entry).not.toHaveProperty('sandbox');
    const before = await files(hub);
    const refused = await apiCall(hub, 'catalog.install', { name: EVERYTHING, values, sandbox: true });
    expect(refused).toMatchObject({ ok: false, code: 'sandbox_unavailable' });
    expect(refused.message).toContain('bubblewrap (bwrap) is not installed');
    expect(await files(hub)).toEqual(before);
    // A remote has no sandbox to speak of.
    expect((await apiCall<CatalogPlan>(hub, 'catalog.plan', { name: 'io.github.patchbay-test/remote-weather' })).value!.sandbox).toBeUndefined();
  });

  it('follows a change of registries in config.json without a restart', async () => {
    const { hub } = await catalogHub();
    const other = await startFixtureRegistry();
    onCleanup(() => other.close());
    const config = JSON.parse(await readFile(path.join(hub.dataDir, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(hub.dataDir, 'config.json'), JSON.stringify({ ...config, registries: [{ url: other.url, label: 'mirror' }] }));
    const now = await waitFor(async () => {
      const r = (await apiCall<Array<{ url: string; label: string }>>(hub, 'catalog.registries', {})).value!;
      return r.length === 1 && r[0]!.label === 'mirror' ? r : undefined;
    }, 'the catalog to read the new registries');
    expect(now[0]!.url).toBe(other.url.replace(/\/+$/, ''));
    // The next search refreshes from the new one, and says so.
    const found = (await apiCall<{ results: Array<{ name: string; registry: string }> }>(hub, 'catalog.search', { query: 'weather' })).value!;
    expect(found.results[0]).toMatchObject({ name: 'io.github.patchbay-test/remote-weather', registry: other.url.replace(/\/+$/, '') });
    expect(other.requests.length).toBeGreaterThan(0);
  });

  it('takes the secrets back when the config write fails after they were written', async () => {
    const { hub } = await catalogHub();
    await hub.engine.secrets.set('remote-weather.X-Api-Key', 'the-old-value');
    const before = await hub.engine.secrets.list();
    // The file on disk is broken after the engine read it: the update refuses to write over it.
    await writeFile(path.join(hub.dataDir, 'config.json'), '{ "mcpServers": ');
    const answer = await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'new-key' }, serverId: 'remote-weather' });
    expect(answer).toMatchObject({ ok: false, code: 'config_file_invalid' });
    expect(await hub.engine.secrets.list()).toEqual(before);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('the-old-value');
  });

  it('installs nothing when tool-pins.json cannot be written: the pending mark must be on disk first', async () => {
    const { hub } = await catalogHub();
    // A directory where the file goes: every write of it fails (as root too, unlike a chmod).
    await rm(path.join(hub.dataDir, 'tool-pins.json'), { force: true });
    await mkdir(path.join(hub.dataDir, 'tool-pins.json'));
    const before = await files(hub);
    const answer = await apiCall(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'wk-1' } });
    expect(answer).toMatchObject({ ok: false, code: 'pins_write_failed' });
    expect(answer.message).toMatch(/^could not record in tool-pins\.json that the tools of 'remote-weather' wait for approval, so nothing was installed: /);
    expect(await files(hub)).toEqual(before);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBeUndefined();
  });

  it('never overwrites a stored secret of the same name: the value goes under the next free name', async () => {
    const { hub } = await catalogHub();
    // Another entry's secret that happens to have the name this install would pick.
    await hub.engine.secrets.set('remote-weather.X-Api-Key', 'another-entrys-key');
    const answer = await apiCall<CatalogInstall>(hub, 'catalog.install', { name: 'io.github.patchbay-test/remote-weather', values: { 'header:X-Api-Key': 'wk-new' } });
    expect(answer.ok, answer.message).toBe(true);
    expect(answer.value!.secrets).toEqual([{ name: 'remote-weather.X-Api-Key.2', key: 'header:X-Api-Key' }]);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('another-entrys-key');
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key.2')).toBe('wk-new');
    const config = JSON.parse((await files(hub))[0]) as { mcpServers: Record<string, { headers?: Record<string, string> }> };
    expect(config.mcpServers['remote-weather']!.headers).toEqual({ 'X-Api-Key': '${secret:remote-weather.X-Api-Key.2}' });
  });

  it('says so when the registry no longer has a server its copy lists, instead of showing the copy as its versions', async () => {
    const { hub, registry } = await catalogHub();
    expect((await apiCall(hub, 'catalog.search', { query: 'everything' })).ok).toBe(true);
    registry.setStatus(EVERYTHING, 'deleted');
    const detail = await apiCall(hub, 'catalog.detail', { name: EVERYTHING });
    expect(detail).toMatchObject({ ok: false, code: 'catalog_not_found' });
    expect(detail.message).toContain(`the registry has no ${EVERYTHING}`);
  });
});
