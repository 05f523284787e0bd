/**
 * `patchbay search`, `add`, `outdated` and `update` against a running hub (found through the data
 * dir's hub.json), without a terminal: flags only, JSON outputs, refusals that write nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/run-cli.js';
import { cli } from '../helpers/cli-io.js';
import type { TestHub } from '../helpers/test-hub.js';
import { catalogHub } from './catalog-hub.js';

async function run(hub: TestHub, args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  const c = cli(hub.dataDir, stdin !== undefined ? { stdin: Readable.from([stdin]) } : {});
  const code = await runCli(args, c.io);
  return { code, out: c.out(), err: c.err() };
}

async function config(hub: TestHub): Promise<{ mcpServers: Record<string, Record<string, unknown>> }> {
  return JSON.parse(await readFile(path.join(hub.dataDir, 'config.json'), 'utf8'));
}

describe('patchbay search, add, outdated, update', () => {
  it('searches, adds with --set and --secret, refuses with what is missing, lists outdated, updates with --yes', async () => {
    const { hub, registryUrl } = await catalogHub();

    const search = await run(hub, ['search', 'everything']);
    expect(search.code, search.err).toBe(0);
    expect(search.out).toMatch(/^NAME +VERSION +TRUST +RUNS WITH +REGISTRY\n/);
    expect(search.out).toMatch(/io\.github\.patchbay-test\/everything +2026\.8\.31 +github:patchbay-test +npm +fixture\n {4}Exercises every feature of MCP/);
    const json = JSON.parse((await run(hub, ['search', 'weather', '--json', '--limit', '5'])).out) as { results: Array<{ name: string; remote: boolean }> };
    expect(json.results.find((r) => r.name === 'io.github.patchbay-test/remote-weather')).toMatchObject({ remote: true });

    // Nothing required given: refused, with the flags that would give it; nothing written.
    const before = await readFile(path.join(hub.dataDir, 'config.json'), 'utf8');
    const refused = await run(hub, ['add', 'io.github.patchbay-test/remote-weather']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('will connect to:\n  https://demo.weather.example/mcp\n');
    expect(refused.err).toContain('required values are missing (nothing was written):\n  header:X-Api-Key: --secret X-Api-Key=@FILE (or =- for standard input)');
    expect(await readFile(path.join(hub.dataDir, 'config.json'), 'utf8')).toBe(before);
    const onArgv = await run(hub, ['add', 'io.github.patchbay-test/remote-weather', '--set', 'X-Api-Key=oops']);
    expect(onArgv.code).toBe(2);
    expect(onArgv.err).toContain('header:X-Api-Key is a secret');

    // A secret from a file, a value with --set, a version pinned, a profile.
    const keyFile = path.join(hub.dataDir, 'key.txt');
    await writeFile(keyFile, 'sk-from-file\n');
    const added = await run(hub, ['add', 'io.github.patchbay-test/everything@2026.1.0', '--set', 'EVERYTHING_MODE=minimal', '--secret', `EVERYTHING_API_KEY=@${keyFile}`, '--profile', 'work', '--no-sandbox', '--json']);
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ serverId: 'everything', profile: 'work', pendingApproval: true });
    expect(added.err).toContain("installed 'everything' and added to profile 'work'; its tools wait for approval: patchbay profiles approve work everything");
    expect(added.err).toContain('not sandboxed (--no-sandbox)');
    expect((await config(hub)).mcpServers.everything).not.toHaveProperty('sandbox');
    expect((await config(hub)).mcpServers.everything).toMatchObject({ env: { EVERYTHING_API_KEY: '${secret:everything.EVERYTHING_API_KEY}', EVERYTHING_MODE: 'minimal' }, catalog: { version: '2026.1.0' } });
    expect(await hub.engine.secrets.get('everything.EVERYTHING_API_KEY')).toBe('sk-from-file');

    // A secret from standard input, another id.
    const piped = await run(hub, ['add', 'io.github.patchbay-test/remote-weather', '--as', 'weather', '--set', 'tenant=acme', '--secret', 'X-Api-Key=-'], 'wk-piped\n');
    expect(piped.code, piped.err).toBe(0);
    expect((await config(hub)).mcpServers.weather).toMatchObject({ url: 'https://acme.weather.example/mcp' });
    expect(await hub.engine.secrets.get('weather.X-Api-Key')).toBe('wk-piped');

    const outdated = await run(hub, ['outdated']);
    expect(outdated.out).toMatch(/^SERVER +INSTALLED +LATEST +NAME\neverything +2026\.1\.0 +2026\.8\.31 +io\.github\.patchbay-test\/everything\n$/);
    expect(JSON.parse((await run(hub, ['outdated', '--json'])).out)).toEqual({ servers: [{ serverId: 'everything', name: 'io.github.patchbay-test/everything', registry: registryUrl, installed: '2026.1.0', latest: '2026.8.31' }] });

    const unconfirmed = await run(hub, ['update', 'everything']);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.out).toContain('+    "version": "2026.8.31"');
    expect(unconfirmed.err).toContain("give --yes to apply the update of 'everything' (2026.1.0 → 2026.8.31)");
    expect((await config(hub)).mcpServers.everything).toMatchObject({ catalog: { version: '2026.1.0' } });

    const updated = await run(hub, ['update', 'everything', '--yes']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.out).toContain('-    "version": "2026.1.0"');
    expect(updated.err).toContain("updated 'everything' to 2026.8.31; its tools wait for approval again");
    expect((await config(hub)).mcpServers.everything).toMatchObject({ catalog: { version: '2026.8.31' }, env: { EVERYTHING_MODE: 'minimal' } });
    expect((await run(hub, ['outdated'])).out).toBe('Every server installed from a registry is up to date.\n');

    // Already current: --yes applies nothing (a nightly `update --yes` must not send its tools back to waiting).
    const pinsFile = path.join(hub.dataDir, 'tool-pins.json');
    const pinsBefore = await readFile(pinsFile, 'utf8');
    const configBefore = await readFile(path.join(hub.dataDir, 'config.json'), 'utf8');
    const current = await run(hub, ['update', 'everything', '--yes']);
    expect(current.code, current.err).toBe(0);
    expect(current.err).toBe("patchbay: 'everything' is at 2026.8.31 already\n");
    expect(await readFile(pinsFile, 'utf8')).toBe(pinsBefore);
    expect(await readFile(path.join(hub.dataDir, 'config.json'), 'utf8')).toBe(configBefore);
  });
});
