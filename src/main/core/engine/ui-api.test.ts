// The UI's part of the API against a real engine on loopback: servers CRUD and the connection
// test (a real fixture server through the hub), write-only secrets, token rotation, the login.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type RunningEngine } from '../engine/engine.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/everything-server.mjs');
let engine: RunningEngine | undefined;
let dir: string | undefined;

afterEach(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  engine = undefined;
  dir = undefined;
});

async function start() {
  process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  dir = await mkdtemp(path.join(tmpdir(), 'pb-ui-'));
  await writeFile(path.join(dir, 'config.json'), JSON.stringify({ mcpServers: {} }));
  engine = await startEngine({ dataDir: dir, port: 0, capture: false });
  const token = (await readFile(engine.tokenFile, 'utf8')).trim();
  const call = async (name: string, input: unknown, auth = token) => {
    const res = await fetch(`${engine!.url}/api/call/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${auth}` }, body: JSON.stringify(input) });
    // Loosely typed on purpose: each test reads the fields it checks.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (await res.json()) as { ok: boolean; value?: any; code?: string; message?: string; details?: unknown } };
  };
  return { token, call };
}

describe('UI API', () => {
  it('adds a server, tests it through the hub, breaks it and reports where it failed', async () => {
    const { call } = await start();
    const added = await call('servers.add', { id: 'fx', config: { command: process.execPath, args: [FIXTURE] } });
    expect(added.body).toMatchObject({ ok: true, value: { id: 'fx', kind: 'stdio', status: { state: 'idle' } } });
    const dup = await call('servers.add', { id: 'fx', config: { command: 'x' } });
    expect(dup.body).toMatchObject({ ok: false, code: 'server_exists' });

    const test = await call('servers.test', { id: 'fx' });
    expect(test.body.ok).toBe(true);
    expect(test.body.value).toMatchObject({ ok: true, serverInfo: { name: 'patchbay-everything-fixture' } });
    expect(test.body.value.tools.map((t: { name: string }) => t.name)).toContain('echo');

    await call('servers.update', { id: 'fx', config: { command: '/nonexistent/pb-bad-cmd' } });
    const broken = await call('servers.test', { id: 'fx' });
    expect(broken.body.value).toMatchObject({ ok: false, stage: 'initialize' });
    expect(broken.body.value.message).toContain('command not found: /nonexistent/pb-bad-cmd');
    const overview = await call('servers.overview', {});
    expect(overview.body.value[0].status).toMatchObject({ state: 'error', lastError: { stage: 'start' } });

    const disabled = await call('servers.setEnabled', { id: 'fx', enabled: false });
    expect(disabled.body.value.status.state).toBe('disabled');
    expect(JSON.parse(await readFile(engine!.configFile, 'utf8')).mcpServers.fx.disabled).toBe(true);
    expect((await call('servers.remove', { id: 'fx' })).body.value).toEqual({ removed: true });
  });

  it('an invalid entry is refused with its JSON path; nothing is written', async () => {
    const { call } = await start();
    const bad = await call('servers.add', { id: 'r', config: { url: 'not a url' } });
    expect(bad.body.ok).toBe(false);
    expect(JSON.parse(await readFile(engine!.configFile, 'utf8')).mcpServers).toEqual({});
  });

  it('secrets are write-only: listed by name with a short hint, never the value', async () => {
    const { call } = await start();
    await call('servers.add', { id: 'gh', config: { command: 'x', env: { T: '${secret:GH_TOKEN}', U: '${secret:MISSING}' } } });
    const value = 'ghp_0123456789abcdefghijklmnopWXYZ';
    expect((await call('secrets.set', { name: 'GH_TOKEN', value })).body.value).toEqual({ name: 'GH_TOKEN', created: true });
    const list = await call('secrets.list', {});
    expect(JSON.stringify(list.body)).not.toContain(value);
    expect(list.body.value.secrets).toEqual([{ name: 'GH_TOKEN', hint: '…WXYZ', usedBy: [{ serverId: 'gh', path: '$.mcpServers.gh.env.T' }] }]);
    expect(list.body.value.missing.map((m: { name: string }) => m.name)).toEqual(['MISSING']);
    expect((await call('secrets.delete', { name: 'GH_TOKEN' })).body.value).toEqual({ deleted: true });
  });

  it('rotating the token refuses the old one at once and ends browser sessions', async () => {
    const { call, token } = await start();
    const login = await fetch(engine!.uiLoginUrl(), { redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const viaCookie = () => fetch(`${engine!.url}/api/call/hub.status`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: engine!.url }, body: '{}' });
    expect((await viaCookie()).status).toBe(200);

    const rotated = await call('settings.rotateToken', {});
    expect(rotated.body.value.loginPath).toMatch(/^\/ui\/login\?token=/);
    const fresh = (await readFile(engine!.tokenFile, 'utf8')).trim();
    expect(fresh).not.toBe(token);
    expect((await call('hub.status', {}, token)).status).toBe(401);
    expect((await call('hub.status', {}, fresh)).status).toBe(200);
    expect((await viaCookie()).status).toBe(401);
  });

  it('settings: port and origins are saved for the next start; bad origins are refused', async () => {
    const { call } = await start();
    const saved = await call('settings.update', { port: 40123, allowedOrigins: ['http://localhost:5173'] });
    expect(saved.body.value.restartRequired).toEqual(['port', 'allowedOrigins']);
    expect(saved.body.value.settings).toMatchObject({ port: 40123, allowedOrigins: ['http://localhost:5173'] });
    const bad = await call('settings.update', { allowedOrigins: ['http://x/path'] });
    expect(bad.body).toMatchObject({ ok: false, code: 'invalid_input' });
  });
});
