/**
 * Import from Claude Desktop through the engine's API: inline keys land in the secret store, not
 * in config.json, and the imported server works through the hub with them. With replace, the keys
 * leave Claude Desktop's file as well.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { EVERYTHING_SERVER } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { tempMachine } from './client-fixtures.js';
import { startClientsEngine, valueOf } from './engine-fixture.js';

const API_KEY = 'sk-live-4f9a1c2e8b7d6a5f';
const HEADER_TOKEN = 'ghp_R2d2C3poBb8Luke1977';
const QUERY_KEY = 'qk_31415926535';

describe('import from Claude Desktop', () => {
  it('moves inline API keys into the secret store, and the imported servers work', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const claudeFile = path.join(machine.host.home, '.config', 'Claude', 'claude_desktop_config.json');
    await mkdir(path.dirname(claudeFile), { recursive: true });
    const original = JSON.stringify(
      {
        globalShortcut: 'Ctrl+Space',
        mcpServers: {
          fixture: { command: process.execPath, args: [EVERYTHING_SERVER], env: { API_KEY, FIXTURE_ECHO_ENV: 'API_KEY' } },
          'Remote Docs': { url: `https://docs.example.com/mcp?api_key=${QUERY_KEY}`, headers: { Authorization: `Bearer ${HEADER_TOKEN}` } },
        },
      },
      null,
      2,
    );
    await writeFile(claudeFile, original);
    const hub = await startClientsEngine(machine, {});

    const dry = valueOf(await hub.call<{ imported: unknown[]; secretsStored: string[] }>('clients.import', { client: 'claude-desktop', dryRun: true }));
    expect(dry.imported).toHaveLength(2);
    expect(dry.secretsStored).toEqual([]);
    expect(await readFile(hub.engine.configFile, 'utf8')).not.toContain('fixture');

    const outcome = valueOf(await hub.call<{ imported: Array<{ serverId: string; secrets: string[] }>; secretsStored: string[] }>('clients.import', { client: 'claude-desktop' }));
    expect(outcome.imported.map((i) => i.serverId)).toEqual(['fixture', 'Remote-Docs']);
    expect(outcome.secretsStored.sort()).toEqual(['Remote-Docs.Authorization', 'Remote-Docs.url-api_key', 'fixture.API_KEY']);

    const configText = await readFile(hub.engine.configFile, 'utf8');
    for (const secret of [API_KEY, HEADER_TOKEN, QUERY_KEY]) expect(configText).not.toContain(secret);
    const config = JSON.parse(configText) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(config.mcpServers.fixture!.env).toEqual({ API_KEY: '${secret:fixture.API_KEY}', FIXTURE_ECHO_ENV: 'API_KEY' });
    expect(config.mcpServers['Remote-Docs']).toEqual({
      url: 'https://docs.example.com/mcp?api_key=${secret:Remote-Docs.url-api_key}',
      headers: { Authorization: 'Bearer ${secret:Remote-Docs.Authorization}' },
    });
    expect(await hub.engine.secrets.get('fixture.API_KEY')).toBe(API_KEY);

    // The server works through the hub, started with the key from the secret store.
    const client = await connect(hub.asTestHub(), 'fixture');
    expect(await client.tool('env', { name: 'API_KEY' })).toBe(API_KEY);

    // Importing again adds nothing and stores nothing new.
    const again = valueOf(await hub.call<{ imported: unknown[]; skipped: Array<{ status: string }> }>('clients.import', { client: 'claude-desktop' }));
    expect(again.imported).toEqual([]);
    expect(again.skipped.map((s) => s.status)).toEqual(['same', 'same']);
  });

  it('with replace, points Claude Desktop at Patchbay so no key stays in its file', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const claudeFile = path.join(machine.host.home, '.config', 'Claude', 'claude_desktop_config.json');
    await mkdir(path.dirname(claudeFile), { recursive: true });
    await writeFile(claudeFile, JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: HEADER_TOKEN } } } }, null, 2));
    const hub = await startClientsEngine(machine, {}, { command: '/usr/bin/node', args: ['/opt/patchbay/bin/patchbay.js'] });

    const outcome = valueOf(await hub.call<{ replaced?: { written: boolean; backupId?: string; diff: string } }>('clients.import', { client: 'claude-desktop', replace: true }));
    expect(outcome.replaced?.written).toBe(true);
    expect(outcome.replaced?.diff).not.toContain(HEADER_TOKEN);
    const claude = await readFile(claudeFile, 'utf8');
    expect(claude).not.toContain(HEADER_TOKEN);
    expect(JSON.parse(claude).mcpServers.github).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/patchbay/bin/patchbay.js', 'relay', 'github'],
      env: { PATCHBAY_HOME: machine.dataDir },
    });
    expect(await readFile(hub.engine.configFile, 'utf8')).not.toContain(HEADER_TOKEN);
    // The previous file (with the key) is in a 0600 backup in the data dir, and can be restored.
    const backups = valueOf(await hub.call<Array<{ id: string }>>('clients.backups', { client: 'claude-desktop' }));
    expect(backups).toHaveLength(1);
    valueOf(await hub.call('clients.rollback', { client: 'claude-desktop' }));
    expect(await readFile(claudeFile, 'utf8')).toContain(HEADER_TOKEN);
  });
});
