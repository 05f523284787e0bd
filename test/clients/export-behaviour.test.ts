/**
 * Export decisions beyond the per-client matrix: the client's own same-named entries, pruning,
 * duplicates, keeping what the person tuned on Patchbay's entries, and files Patchbay must not
 * create.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientsError } from '../../src/main/core/clients/clients-error.js';
import { setLogSink } from '../../src/main/core/log/logger.js';
import YAML from 'yaml';
import { tempMachine, testClients, TEST_LAUNCHER, TEST_TOKEN, type TempMachine, type TestClients } from './client-fixtures.js';

let machine: TempMachine;
let clients: TestClients;

beforeEach(async () => {
  setLogSink(() => undefined);
  machine = await tempMachine('linux');
  clients = await testClients(machine, { fs: { command: 'node' }, 'my.docs': { url: 'https://x.dev/mcp' } });
});
afterEach(async () => {
  setLogSink(undefined);
  await clients.close();
  await machine.cleanup();
});

async function put(id: string, text: string): Promise<string> {
  const file = await clients.service.configPath(id);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

describe('export decisions', () => {
  it('does not take over a same-named entry of the client’s own unless asked to', async () => {
    const file = await put('cursor', JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['my-fs'] } } }, null, 2));
    const preview = await clients.service.previewExport('cursor');
    expect(preview.changes.find((c) => c.server === 'fs')).toMatchObject({ action: 'conflict', message: expect.stringContaining('--replace') });
    await clients.service.export('cursor');
    expect(JSON.parse(await readFile(file, 'utf8')).mcpServers.fs).toEqual({ command: 'npx', args: ['my-fs'] });
    const replaced = await clients.service.export('cursor', { replace: true });
    expect(replaced.changes.find((c) => c.server === 'fs')).toMatchObject({ action: 'update', message: expect.stringContaining('replaces') });
    expect(JSON.parse(await readFile(file, 'utf8')).mcpServers.fs.url).toBe('http://127.0.0.1:45678/mcp/fs');
  });

  it('removes entries of servers gone from Patchbay (exporting all), and duplicates of one server', async () => {
    const stale = { url: 'http://127.0.0.1:45678/mcp/old', headers: { Authorization: `Bearer ${TEST_TOKEN}` } };
    const copy = { url: 'http://127.0.0.1:45678/mcp/fs', headers: { Authorization: `Bearer ${TEST_TOKEN}` } };
    const file = await put('cursor', JSON.stringify({ mcpServers: { old: stale, 'fs-copy': copy, fs: copy, mine: { command: 'x' } } }, null, 2));
    const partial = await clients.service.export('cursor', { servers: ['my.docs'] });
    expect(partial.changes.map((c) => c.action)).toEqual(['add']);
    const all = await clients.service.export('cursor');
    // fs-copy carried the hub token: it now gets the client token Cursor's file holds (issue 17).
    expect(all.changes.map((c) => `${c.action}:${c.entryName}`).sort()).toEqual(['remove:fs', 'remove:old', 'unchanged:my.docs', 'update:fs-copy']);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).mcpServers).sort()).toEqual(['fs-copy', 'mine', 'my.docs']);
  });

  it('keeps the kind of an existing entry and what the person tuned on it', async () => {
    await clients.service.export('cline', { kind: 'stdio' });
    const file = await clients.service.configPath('cline');
    const tuned = JSON.parse(await readFile(file, 'utf8'));
    tuned.mcpServers.fs.autoApprove = ['read_file'];
    tuned.mcpServers.fs.disabled = true;
    await writeFile(file, JSON.stringify(tuned, null, 2));
    await clients.close();
    clients = await testClients(machine, { fs: { command: 'node' }, 'my.docs': { url: 'https://x.dev/mcp' } }, { launcher: { command: '/new/node', args: TEST_LAUNCHER.args } });
    await clients.service.export('cline');
    const after = JSON.parse(await readFile(file, 'utf8')).mcpServers.fs;
    expect(after).toMatchObject({ command: '/new/node', autoApprove: ['read_file'], disabled: true });

    await clients.service.export('goose');
    const goose = await clients.service.configPath('goose');
    await writeFile(goose, (await readFile(goose, 'utf8')).replace('enabled: true', 'enabled: false'));
    await clients.close();
    clients = await testClients(machine, { fs: { command: 'node' }, 'my.docs': { url: 'https://x.dev/mcp' } }, { port: 45999 });
    await clients.service.export('goose');
    const doc = YAML.parse(await readFile(goose, 'utf8')) as { extensions: Record<string, { enabled: boolean; uri: string }> };
    expect(doc.extensions['my.docs']).toMatchObject({ uri: 'http://127.0.0.1:45999/mcp/my.docs' });
    expect(Object.values(doc.extensions).map((e) => e.enabled).sort()).toEqual([false, true]);
  });

  it('gives Codex names it accepts and reads them back as the same server', async () => {
    await clients.service.export('codex');
    const text = await readFile(await clients.service.configPath('codex'), 'utf8');
    expect(text).toContain('[mcp_servers.my_docs]\nurl = "http://127.0.0.1:45678/mcp/my.docs"');
    expect((await clients.service.export('codex')).written).toBe(false);
  });

  it('does not create a Continue config.yaml over a config.json Continue still uses', async () => {
    await mkdir(path.join(machine.host.home, '.continue'), { recursive: true });
    await writeFile(path.join(machine.host.home, '.continue', 'config.json'), '{"models": []}');
    await expect(clients.service.export('continue')).rejects.toMatchObject({ code: 'client_config_unsupported' });
    await expect(clients.service.export('continue')).rejects.toBeInstanceOf(ClientsError);
  });
});
