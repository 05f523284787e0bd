/**
 * Outdated and update through the catalog API of a real engine (docs/catalog.md, Updates): an
 * entry installed at 2026.1.0 is outdated against the cached 2026.8.31; the update shows its diff,
 * keeps the secret reference, and once applied holds the server's tools for approval again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogOutdated, CatalogUpdate } from '../../src/shared/api/catalog-contract.js';
import { apiCall } from '../helpers/hub-api.js';
import { connect } from '../helpers/test-client.js';
import { toolText } from '../helpers/json-rpc.js';
import type { TestHub } from '../helpers/test-hub.js';
import { listTools } from '../profiles/profile-harness.js';
import { catalogHub } from './catalog-hub.js';
const EVERYTHING = 'io.github.patchbay-test/everything';

interface Shown {
  members: Array<{ server: string; tools: Array<{ name: string; pin?: string; held: boolean }> }>;
}

interface PinFile {
  pending?: Record<string, string>;
  profiles: Record<string, Record<string, Record<string, { approvedAt?: string; pending?: true }>>>;
}

const pinFile = async (hub: TestHub): Promise<PinFile> => JSON.parse(await readFile(path.join(hub.dataDir, 'tool-pins.json'), 'utf8')) as PinFile;

/** `everything` installed at `version` in profile `work`, its tools approved and callable through `@work`. */
async function approvedEverything(version: string): Promise<{ hub: TestHub; client: Awaited<ReturnType<typeof connect>> }> {
  const { hub } = await catalogHub();
  const installed = await apiCall(hub, 'catalog.install', { name: EVERYTHING, version, values: { 'env:EVERYTHING_API_KEY': 'sk-e-1' }, profile: 'work', sandbox: false });
  expect(installed.ok, installed.message).toBe(true);
  const client = await connect(hub, '@work');
  await listTools(client);
  expect((await apiCall(hub, 'profiles.approve', { name: 'work', server: 'everything' })).ok).toBe(true);
  await expect.poll(async () => (await listTools(client)).map((t) => t.name)).toContain('everything__echo');
  await expect.poll(async () => (await pinFile(hub)).profiles.work?.everything?.echo?.approvedAt).toBeDefined();
  return { hub, client };
}

describe('catalog outdated and update', () => {
  it('installed 2026.1.0 → 2026.8.31: diff shown, applied, tools pending again', async () => {
    const { hub, registryUrl } = await catalogHub();
    const config = async (): Promise<{ mcpServers: Record<string, { catalog?: { version: string }; env?: Record<string, string> }> }> => JSON.parse(await readFile(path.join(hub.dataDir, 'config.json'), 'utf8'));
    const installed = await apiCall(hub, 'catalog.install', { name: EVERYTHING, version: '2026.1.0', values: { 'env:EVERYTHING_API_KEY': 'sk-e-1', 'env:EVERYTHING_MODE': 'minimal' }, profile: 'work', sandbox: false });
    expect(installed.ok).toBe(true);
    expect((await config()).mcpServers.everything!.catalog!.version).toBe('2026.1.0');
    const client = await connect(hub, '@work');
    await listTools(client);
    expect((await apiCall(hub, 'profiles.approve', { name: 'work', server: 'everything' })).ok).toBe(true);
    await expect.poll(async () => (await listTools(client)).map((t) => t.name)).toContain('everything__echo');

    expect((await apiCall<CatalogOutdated>(hub, 'catalog.outdated')).value).toEqual({
      servers: [{ serverId: 'everything', name: EVERYTHING, registry: registryUrl, installed: '2026.1.0', latest: '2026.8.31' }],
    });

    // The doctor says so too, from the same copy.
    const doctor = (await apiCall<{ checks: Array<{ id: string; status: string; title: string; hint?: string }> }>(hub, 'clients.doctor')).value!;
    expect(doctor.checks.find((c) => c.id === 'server-outdated:everything')).toEqual({
      id: 'server-outdated:everything',
      area: 'servers',
      status: 'info',
      title: `everything: ${EVERYTHING} 2026.8.31 is available (installed: 2026.1.0)`,
      hint: 'patchbay update everything',
    });

    const shown = (await apiCall<CatalogUpdate>(hub, 'catalog.update', { serverId: 'everything' })).value!;
    expect(shown).toMatchObject({ serverId: 'everything', from: '2026.1.0', to: '2026.8.31', applied: false });
    expect(shown.diff).toContain('-    "version": "2026.1.0"');
    expect(shown.diff).toContain('+    "version": "2026.8.31"');
    expect(shown.diff).not.toContain('sk-e-1');
    // The values of the entry are kept: the chosen mode, the secret's reference.
    expect(shown.entry).toMatchObject({ env: { EVERYTHING_API_KEY: '${secret:everything.EVERYTHING_API_KEY}', EVERYTHING_MODE: 'minimal' } });
    expect((await config()).mcpServers.everything!.catalog!.version).toBe('2026.1.0');

    const applied = (await apiCall<CatalogUpdate>(hub, 'catalog.update', { serverId: 'everything', apply: true })).value!;
    expect(applied.applied).toBe(true);
    expect((await config()).mcpServers.everything).toMatchObject({ catalog: { version: '2026.8.31' }, env: { EVERYTHING_API_KEY: '${secret:everything.EVERYTHING_API_KEY}' } });
    expect(await hub.engine.secrets.get('everything.EVERYTHING_API_KEY')).toBe('sk-e-1');
    expect((await apiCall<CatalogOutdated>(hub, 'catalog.outdated')).value).toEqual({ servers: [] });

    // The restarted server's tools wait for approval again.
    await expect
      .poll(async () => (await apiCall<Shown>(hub, 'profiles.show', { name: 'work', refresh: true })).value!.members.find((m) => m.server === 'everything')?.tools.find((t) => t.name === 'echo'))
      .toMatchObject({ pin: 'changed', held: true });
    const refused = await client.callTool('everything__echo', { message: 'hi' });
    expect(refused.response.error?.message).toMatch(/held back: server 'everything' was just installed or updated/);
  });

  it('applying the version already installed changes nothing: the approvals stay', async () => {
    const { hub, client } = await approvedEverything('2026.8.31');
    const pinsBefore = await pinFile(hub);
    expect(pinsBefore.pending?.everything).toBeUndefined();
    const answer = (await apiCall<CatalogUpdate>(hub, 'catalog.update', { serverId: 'everything', apply: true })).value!;
    expect(answer).toMatchObject({ from: '2026.8.31', to: '2026.8.31', applied: false });
    expect(await pinFile(hub)).toEqual(pinsBefore);
    expect(toolText((await client.callTool('everything__echo', { message: 'still here' })).response)).toContain('still here');
  });

  it('a config write that fails during an update leaves the approvals as they were', async () => {
    const { hub, client } = await approvedEverything('2026.8.31');
    const pinsBefore = await pinFile(hub);
    // The file on disk is broken after the engine read it: the update refuses to write over it.
    await writeFile(path.join(hub.dataDir, 'config.json'), '{ "mcpServers": ');
    const answer = await apiCall(hub, 'catalog.update', { serverId: 'everything', version: '2026.1.0', apply: true });
    expect(answer).toMatchObject({ ok: false, code: 'config_file_invalid' });
    expect(await pinFile(hub)).toEqual(pinsBefore);
    expect(toolText((await client.callTool('everything__echo', { message: 'still approved' })).response)).toContain('still approved');
  });
});
