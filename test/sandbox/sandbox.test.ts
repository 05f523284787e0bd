/**
 * Issue 25, sandboxed stdio servers (docs/sandbox.md), with real bubblewrap (installed by the test
 * command, scripts/ensure-deploy-tools.sh): a hostile server (test/fixtures/hostile-server.mjs)
 * run with `"sandbox": true` cannot read a canary outside its policy (nor the hub's data dir),
 * cannot write outside its working directory, cannot reach a loopback listener, and leaves no
 * process behind when the hub is killed with SIGKILL; the same server unsandboxed can (the
 * control); a real server from npm works sandboxed. Where bubblewrap cannot run, the suite's title
 * says why (the doctor's message, sandbox-support.ts) and only the messages below are checked.
 */
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../src/main/core/sandbox/sandbox-support.js';
import { onCleanup } from '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { FIXTURES_DIR, REPO_ROOT } from '../helpers/repo-paths.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { ensureBuilt } from '../helpers/built.js';

const HOSTILE = path.join(FIXTURES_DIR, 'hostile-server.mjs');
const support = await sandboxSupport();

/** Processes whose command line contains `marker` (host pids). */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(marker)) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

async function hostileHub(sandbox: unknown): Promise<{ hub: TestHub; client: TestClient }> {
  const hub = await startHub({ servers: { hostile: { command: process.execPath, args: [HOSTILE], sandbox } as never } });
  return { hub, client: await connect(hub, 'hostile') };
}

describe.runIf(support.available)(`sandboxed stdio servers (${support.detail})`, () => {
  let canary: string;
  let listener: net.Server;
  let port: number;
  beforeAll(async () => {
    const home = await tempDir('patchbay-fake-home-');
    await mkdir(path.join(home, '.ssh'));
    canary = path.join(home, '.ssh', 'id_ed25519');
    writeFileSync(canary, 'CANARY-PRIVATE-KEY');
    listener = net.createServer((s) => s.destroy()).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    port = (listener.address() as net.AddressInfo).port;
    onCleanup(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  });

  it('unsandboxed (the control), the hostile server reads the canary, writes anywhere and reaches a loopback listener', async () => {
    const { client } = await hostileHub(undefined);
    expect(await client.tool('read_file', { path: canary })).toBe('CANARY-PRIVATE-KEY');
    expect(await client.tool('connect', { host: '127.0.0.1', port })).toBe('connected');
  });

  it('sandboxed, it reads none of that, writes only its own directory, and reaches no network', async () => {
    const { hub, client } = await hostileHub(true);
    expect(await client.tool('read_file', { path: canary })).toBe('error: ENOENT');
    // Nor the hub's keys and token, nor the system's secrets.
    expect(await client.tool('read_file', { path: path.join(hub.dataDir, 'secrets.json') })).toMatch(/^error: /);
    expect(await client.tool('read_file', { path: '/etc/shadow' })).toBe('error: ENOENT');
    const me = JSON.parse(await client.tool('whoami')) as { pid: number; cwd: string; home: string };
    // Its own directory in the data dir is its cwd and HOME, and writable; the code it runs is not.
    expect(me.cwd).toBe(path.join(hub.dataDir, 'sandbox', 'hostile'));
    expect(me.home).toBe(me.cwd);
    expect(await client.tool('write_file', { path: path.join(me.cwd, 'note.txt'), text: 'mine' })).toBe('written');
    expect(readFileSync(path.join(me.cwd, 'note.txt'), 'utf8')).toBe('mine');
    expect(await client.tool('write_file', { path: path.join(FIXTURES_DIR, 'planted.mjs'), text: 'x' })).toBe('error: EROFS');
    expect(existsSync(path.join(FIXTURES_DIR, 'planted.mjs'))).toBe(false);
    expect(await client.tool('write_file', { path: path.join(path.dirname(canary), 'authorized_keys'), text: 'x' })).toBe('error: ENOENT');
    // Its own network namespace: the host's loopback listener is not there.
    expect(await client.tool('connect', { host: '127.0.0.1', port })).toBe('error: ECONNREFUSED');
    // A pid namespace of its own.
    expect(me.pid).toBeLessThan(10);
  });

  it("a cwd that would expose the data dir is refused with why, and the server is not started", async () => {
    const hub = await startHub({ servers: {} });
    const config = JSON.parse(readFileSync(hub.engine.configFile, 'utf8')) as { mcpServers: Record<string, unknown> };
    config.mcpServers.hostile = { command: process.execPath, args: [HOSTILE], sandbox: true, cwd: path.dirname(hub.dataDir) };
    writeFileSync(hub.engine.configFile, JSON.stringify(config));
    await hub.engine.config.reload();
    const res = await fetch(hub.mcpUrl('hostile'), {
      method: 'POST',
      headers: { ...hub.authHeader(), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(await res.text()).toContain("its sandbox would expose Patchbay's data dir");
  });

  it('the doctor says which servers are sandboxed, and with what', async () => {
    const { hub } = await hostileHub(true);
    const report = await apiCall<{ checks: Array<{ id: string; status: string; title: string }> }>(hub, 'clients.doctor');
    expect(report.value?.checks.find((c) => c.id === 'sandbox')).toMatchObject({ status: 'ok', title: `sandboxed with ${support.detail}: hostile` });
  });

  it('runs a real server from npm sandboxed (server-everything)', async () => {
    const entry = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const hub = await startHub({ servers: { everything: { command: process.execPath, args: [entry, 'stdio'], sandbox: true } as never } });
    const client = await connect(hub, 'everything');
    const listed = (await client.request('tools/list')).response.result as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain('echo');
    expect(await client.tool('echo', { message: 'from the sandbox' })).toContain('from the sandbox');
  }, 60_000);

  it('leaves no process behind when the hub is killed with SIGKILL', async () => {
    await ensureBuilt();
    const dataDir = await tempDir('patchbay-sandbox-kill-');
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { hostile: { command: process.execPath, args: [HOSTILE], sandbox: true } } }));
    const serve = await startServeProcess({ dataDir });
    const hub = { url: serve.url, mcpUrl: (id: string) => `${serve.url}/mcp/${id}`, authHeader: () => ({}) } as unknown as TestHub;
    const client = await connect(hub, 'hostile');
    const seconds = 600 + Math.floor(Math.random() * 10_000);
    await client.tool('spawn_sleeper', { seconds });
    const marker = `sleep ${seconds}`;
    expect(processesWith(marker).length).toBe(1);
    expect(processesWith(HOSTILE).length).toBeGreaterThan(0);
    serve.child.kill('SIGKILL');
    await serve.exited;
    await waitFor(() => (processesWith(marker).length === 0 && processesWith(HOSTILE).length === 0 ? true : undefined), 'every sandboxed process gone');
  }, 60_000);
});

describe('where servers cannot be sandboxed', () => {
  it('says why, and what to do, instead of running them unsandboxed', async () => {
    expect(await sandboxSupport('linux', '/nonexistent/bwrap')).toMatchObject({ available: false, detail: expect.stringContaining('apt-get install bubblewrap') });
    // macOS: with /usr/bin/sandbox-exec (absent on this Linux machine); platforms.test.ts checks the profile.
    expect(await sandboxSupport('darwin', '/nonexistent/sandbox-exec')).toMatchObject({ available: false, detail: expect.stringContaining('sandbox-exec is missing') });
    expect((await sandboxSupport('win32')).detail).toContain('cannot be sandboxed on Windows');
  });
});
