/**
 * Issue 25, "client (client token id, or the relay, or the UI)": who the audit trail says made a
 * call. Real relay processes from the built CLI (as Claude Desktop starts them) against a real
 * hub: `relay` in both eras, `relay/token:<label>` when the relay holds a client token; the UI's
 * playground (through the API, as the UI drives it) is `ui`, on a server and on a profile.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditLine } from '../../src/main/core/audit/audit-log.js';
import { ClientTokenStore } from '../../src/main/core/home/client-tokens.js';
import { dataPaths } from '../../src/main/core/home/paths.js';
import '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';
import { initialize, relayEnv, requireBuild, spawnRelay, textOf } from '../relay/relay-helpers.js';

beforeAll(requireBuild);

const MODERN = '2026-07-28';
const DUAL = path.join(FIXTURES_DIR, 'dual-era-server.mjs');

async function auditLines(dataDir: string): Promise<AuditLine[]> {
  const text = await readFile(path.join(dataPaths(dataDir).auditDir, 'audit.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditLine);
}

/** The `tools/call` lines of the trail once there are `count` of them (the trail is written in batches). */
async function calls(dataDir: string, count: number): Promise<AuditLine[]> {
  return waitFor(async () => {
    const lines = (await auditLines(dataDir)).filter((l) => l.kind === 'call' && l.method === 'tools/call');
    return lines.length >= count ? lines : undefined;
  }, `${count} tools/call line(s) in the audit trail`);
}

async function mintClientToken(hub: TestHub, label: string): Promise<string> {
  const tokens = await ClientTokenStore.open(dataPaths(hub.dataDir).clientTokensFile);
  const { token } = await tokens.mint({ client: 'claude-desktop', label, file: path.join(hub.dataDir, 'claude_desktop_config.json') });
  await tokens.close();
  return token;
}

describe('who the audit trail names as the client', () => {
  it('a session opened by `patchbay relay` is `relay` (with the name the client gave), in both eras', async () => {
    const hub = await startHub({ servers: { fx: everythingServer(), modern: { command: process.execPath, args: [DUAL, '--era', 'modern'] } } });
    const legacy = spawnRelay(hub.dataDir, ['fx']);
    legacy.write(initialize(0));
    legacy.write({ method: 'notifications/initialized' });
    legacy.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'through the relay' } } });
    expect(textOf(await legacy.answer(1))).toBe('through the relay');

    // 2026-07-28 lines: to a modern server, and to the 2025-only fx through the hub's era bridge.
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern-desktop', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const modern = spawnRelay(hub.dataDir, ['modern']);
    modern.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'modern' }, _meta: envelope } });
    expect(textOf(await modern.answer(1))).toBe('modern');
    const bridged = spawnRelay(hub.dataDir, ['fx']);
    bridged.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'bridged' }, _meta: envelope } });
    expect(textOf(await bridged.answer(1))).toBe('bridged');

    const lines = await calls(hub.dataDir, 3);
    const seen = lines.map(({ client, name, server, target, outcome }) => ({ client, name, server, target, outcome }));
    expect(seen.sort((a, b) => `${a.server}${a.name}`.localeCompare(`${b.server}${b.name}`))).toEqual([
      { client: 'relay', name: 'modern-desktop', server: 'fx', target: 'echo', outcome: 'ok' },
      { client: 'relay', name: 'relay-test', server: 'fx', target: 'echo', outcome: 'ok' },
      { client: 'relay', name: 'modern-desktop', server: 'modern', target: 'echo', outcome: 'ok' },
    ]);
    // One line per client request: the bridge's own session to fx (its initialize, its copy of the call) is not the client's.
    await hub.engine.api.invoke('audit.list', {});
    expect((await auditLines(hub.dataDir)).filter((l) => l.kind === 'call' && l.method === 'tools/call')).toHaveLength(3);
    expect((await auditLines(hub.dataDir)).filter((l) => l.method === 'initialize')).toHaveLength(1);
    // The session's other requests are the relay's too.
    expect((await auditLines(hub.dataDir)).find((l) => l.method === 'initialize')).toMatchObject({ client: 'relay', server: 'fx' });
  }, 60_000);

  it('a relay that holds a client token is `relay/token:<label>`', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const token = await mintClientToken(hub, 'Claude Desktop');
    // A data dir of the relay's own that finds the same hub (its discovery file) and holds the client token where the hub token would be.
    const home = await tempDir('patchbay-audit-relay-');
    await copyFile(dataPaths(hub.dataDir).discoveryFile, dataPaths(home).discoveryFile);
    await writeFile(dataPaths(home).tokenFile, `${token}\n`, { mode: 0o600 });
    const relay = spawnRelay(home, ['fx'], relayEnv(home));
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'with a client token' } } });
    expect(textOf(await relay.answer(1))).toBe('with a client token');

    const [line] = await calls(hub.dataDir, 1);
    expect(line).toMatchObject({ client: 'relay/token:Claude Desktop', name: 'relay-test', server: 'fx', target: 'echo', outcome: 'ok' });
  }, 60_000);

  it("the UI's playground is `ui`, on a server and on a profile", async () => {
    const hub = await startHub({ servers: { fx: everythingServer() }, config: { profiles: { pair: { servers: { fx: {} } } } } });
    const api = hub.engine.api;
    const call = async <T>(name: string, input: unknown): Promise<T> => {
      const r = await api.invoke(name, input);
      if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
      return r.value as T;
    };
    const onServer = await call<{ session: string }>('playground.open', { server: 'fx' });
    await call('playground.request', { session: onServer.session, method: 'tools/call', params: { name: 'echo', arguments: { text: 'from the UI' } } });
    const onProfile = await call<{ session: string }>('playground.open', { server: '@pair' });
    await call('playground.request', { session: onProfile.session, method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'from the UI, on a profile' } } });

    const lines = await calls(hub.dataDir, 2);
    expect(lines.map(({ client, name, server, target }) => ({ client, name, server, target }))).toEqual([
      { client: 'ui', name: undefined, server: 'fx', target: 'echo' },
      { client: 'ui', name: undefined, server: '@pair', target: 'fx__echo' },
    ]);
    // And the API says so too (`audit.list`, newest first).
    const listed = await call<{ lines: AuditLine[] }>('audit.list', { client: 'ui', method: 'tools/call' });
    expect(listed.lines.map((l) => l.server)).toEqual(['@pair', 'fx']);
  }, 60_000);
});
