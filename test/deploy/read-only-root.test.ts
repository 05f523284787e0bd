/**
 * `patchbay serve` on a read-only root file system with the data dir on a volume, as the
 * Dockerfile runs it (`docker run --read-only --tmpfs /tmp -v data:/data`). No container engine
 * runs here, so the same confinement comes from bubblewrap (Debian's `bubblewrap`, installed by
 * `npm test` through scripts/ensure-deploy-tools.sh): the whole file system bound read-only, an
 * empty tmpfs on /tmp, and only the data dir writable. The hub starts from the build, serves a
 * 2025 session and a 2026-07-28 call to a stdio server, keeps its inspector history and stops
 * cleanly on SIGTERM, without one write refused (EROFS) or an error in its log.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { onCleanup } from '../helpers/cleanup.js';
import { childrenOf, isAlive, killQuietly } from '../helpers/processes.js';
import { FIXTURES_DIR, REPO_ROOT } from '../helpers/repo-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { BIN } from './lb-harness.js';

const BWRAP = process.env.PATCHBAY_BWRAP ?? '/usr/bin/bwrap';
const TOKEN = 'read-only-root-token-0123456789-abcdefghijklmnopqrstuvw';
const missing = existsSync(BWRAP) ? undefined : `no bubblewrap at ${BWRAP}: run bash scripts/ensure-deploy-tools.sh (as root it installs Debian's bubblewrap)`;
// Under CI the test command installs it: a missing one is a failure there, not a skip.
const skip = missing !== undefined && !process.env.CI;

beforeAll(() => ensureBuilt(), 180_000);

async function post(url: string, body: object, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...headers }, body: JSON.stringify(body) });
}

/** The JSON-RPC answer of a response: a JSON body, or the last `data:` of an SSE stream. */
async function answer(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) return JSON.parse(text) as Record<string, unknown>;
  const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter((l) => l !== '');
  return JSON.parse(data.at(-1)!) as Record<string, unknown>;
}

describe('patchbay serve on a read-only root file system', () => {
  it.skipIf(skip)(`serves both eras, keeps its history in the data dir, and stops cleanly${skip ? ` (skipped: ${missing})` : ''}`, async () => {
    if (missing) throw new Error(`this test needs bubblewrap under CI: ${missing}`);
    const dataDir = await tempDir('patchbay-ro-data-');
    const config = { mcpServers: { fx: { command: process.execPath, args: [path.join(FIXTURES_DIR, 'dual-era-server.mjs'), '--stdio'] } } };
    // Order matters: the tmpfs hides the host's /tmp, then what lives under it is bound on top —
    // the repository read-only (a checkout under /tmp, as CI's clone is) and the data dir writable.
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--ro-bind', REPO_ROOT, REPO_ROOT, '--bind', dataDir, dataDir, '--die-with-parent'];
    const env = { ...process.env, HOME: REPO_ROOT, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'info', PATCHBAY_HUB_TOKEN: TOKEN };
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config));
    const child = spawn(BWRAP, [...args, process.execPath, BIN, 'serve', '--port', '0', '--log-format', 'json', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    onCleanup(async () => {
      for (const pid of [...childrenOf(child.pid!), child.pid!]) if (isAlive(pid)) killQuietly(pid, 'SIGKILL');
    });
    let gone: number | null | undefined;
    void exited.then((code) => (gone = code));
    const url = await waitFor(
      () => {
        if (gone !== undefined) throw new Error(`serve under bwrap exited with ${gone}: ${stdout}${stderr}`);
        return /"message":"hub running at (http:\/\/[^"]+)"/.exec(stdout)?.[1];
      },
      'serve to start under bwrap',
      30_000,
    );

    // A 2025 session: initialize, initialized, a call.
    const init = await post(`${url}/mcp/fx`, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ro', version: '1' } } }, {});
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id')!;
    await answer(init);
    const session = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
    expect((await post(`${url}/mcp/fx`, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const legacy = await answer(await post(`${url}/mcp/fx`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'ro-legacy' } } }, session));
    expect(legacy).toMatchObject({ result: { content: [{ text: 'ro-legacy' }] } });
    // A 2026-07-28 call: no session.
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'ro', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const modern = await answer(await post(`${url}/mcp/fx`, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'ro-modern' }, _meta: meta } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' }));
    expect(modern).toMatchObject({ result: { content: [{ text: 'ro-modern' }] } });

    // Stop the hub itself (bwrap's child) with SIGTERM, as a container runtime does to PID 1's child.
    const hub = childrenOf(child.pid!).find((pid) => isAlive(pid))!;
    expect(hub).toBeDefined();
    killQuietly(hub, 'SIGTERM');
    expect(await withTimeout(exited, 20_000, 'serve to stop')).toBe(0);

    // Everything it wrote is in the data dir (the only writable place): its inspector history too.
    const written = await readdir(dataDir, { recursive: true });
    expect(written).toEqual(expect.arrayContaining(['hub-token', 'config.json']));
    expect(written.some((f) => f.startsWith('inspector'))).toBe(true);
    const records = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { level: string; message: string });
    expect(records.filter((r) => r.level === 'error' || /EROFS|read-only/i.test(r.message))).toEqual([]);
    expect(stderr).not.toMatch(/EROFS|read-only file system/i);
  }, 60_000);
});
