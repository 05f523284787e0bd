/**
 * What one replica does differently (issue 23), in-process: the session ids it mints carry its id
 * in a fixed place (P14 still holds: ≥ 128 random bits, visible ASCII) on both 2025 doors; its own
 * files in a shared data dir; `/health/ready`; and `hub.allowedHosts` in the Host check.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEngine } from '../../src/main/core/engine/engine.js';
import { onCleanup } from '../helpers/cleanup.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { post } from '../helpers/mcp-http.js';
import { rawRequest, rawStream } from '../helpers/raw-http.js';
import { everythingServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

describe('a replica', () => {
  it('tags the session ids it mints on /mcp and /sse: <id>.<144 random bits>', async () => {
    const h = await startHub({ servers: { fx: everythingServer() }, engine: { replicaId: 'r7' } });
    const ids = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await post(h, 'fx', initializeRequest());
      expect(res.status).toBe(200);
      await res.text();
      ids.add(res.headers.get('mcp-session-id')!);
    }
    expect(ids.size).toBe(4);
    for (const id of ids) {
      // The tag ends at the first '.', which the random part (base64url) never holds.
      expect(id).toMatch(/^r7\.[A-Za-z0-9_-]{24}$/);
      expect(id).toMatch(/^[\x21-\x7E]+$/);
    }
    const { res, reader } = await rawStream({ port: h.port, path: '/sse/fx', headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
    expect(res.statusCode).toBe(200);
    const endpoint = (await reader.nextEvent())!.data;
    expect(new URL(endpoint, h.url).searchParams.get('sessionId')).toMatch(/^r7\.[A-Za-z0-9_-]{24}$/);
  });

  it('without an id, session ids are as before (no tag)', async () => {
    const h = await startHub({ servers: { fx: everythingServer() } });
    const res = await post(h, 'fx', initializeRequest());
    await res.text();
    expect(res.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  it('keeps its own files under replicas/<id>/ of a shared data dir, and removes its discovery file when it stops', async () => {
    const dataDir = await tempDir('patchbay-shared-data-');
    const one = await startHub({ servers: { fx: everythingServer() }, dataDir, engine: { replicaId: 'one' } });
    const two = await startHub({ servers: { fx: everythingServer() }, dataDir, engine: { replicaId: 'two' } });
    expect(one.token).toBe(two.token); // one hub token for the data dir
    expect(existsSync(path.join(dataDir, 'hub.json'))).toBe(false);
    const record = JSON.parse(await readFile(path.join(dataDir, 'replicas', 'one', 'hub.json'), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ pid: process.pid, port: one.port, replicaId: 'one' });
    expect(JSON.parse(await readFile(path.join(dataDir, 'replicas', 'two', 'hub.json'), 'utf8'))).toMatchObject({ port: two.port, replicaId: 'two' });
    await one.close();
    expect(existsSync(path.join(dataDir, 'replicas', 'one', 'hub.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'replicas', 'two', 'hub.json'))).toBe(true);
  });

  it('refuses an id that is not a plain tag', async () => {
    const dataDir = await tempDir('patchbay-bad-replica-');
    await expect(startEngine({ dataDir, port: 0, replicaId: '../x', openUrl: () => undefined })).rejects.toThrow(/replica id '..\/x' must be 1-63 letters/);
  });
});

describe('GET /health/ready', () => {
  it('answers 200 without a token once the engine runs, and nothing else; the Host check still applies', async () => {
    const h = await startHub({ servers: { fx: everythingServer() } });
    const ready = await rawRequest({ port: h.port, path: '/health/ready' });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready' });
    const rebound = await rawRequest({ port: h.port, path: '/health/ready', headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
  });

  it('answers 503 while the config on disk has never been valid, and 200 once it is', async () => {
    const dataDir = await tempDir('patchbay-ready-');
    const configFile = path.join(dataDir, 'config.json');
    await writeFile(configFile, '{ "mcpServers": { "fx": { "command": 42 } } }');
    process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
    const engine = await startEngine({ dataDir, port: 0, tickMs: 100, openUrl: () => undefined });
    onCleanup(() => engine.close());
    const first = await rawRequest({ port: engine.port, path: '/health/ready' });
    expect(first.status).toBe(503);
    expect(JSON.parse(first.text)).toEqual({ status: 'unavailable' });
    // Liveness is another question: the process is alive.
    expect((await rawRequest({ port: engine.port, path: '/health' })).status).toBe(200);
    await writeFile(configFile, JSON.stringify({ mcpServers: { fx: everythingServer() } }));
    await waitFor(async () => (await rawRequest({ port: engine.port, path: '/health/ready' })).status === 200, 'the hub to become ready', 10_000);
    // A later bad edit keeps the last good config: still ready.
    await writeFile(configFile, '{ not json');
    await waitFor(() => engine.configProblems().length > 0, 'the bad edit to be seen', 10_000);
    expect((await rawRequest({ port: engine.port, path: '/health/ready' })).status).toBe(200);
  });
});

describe('hub.allowedHosts', () => {
  it('lets the load balancer\'s public name through the Host check, exactly, and no other', async () => {
    const h = await startHub({ servers: { fx: everythingServer() }, config: { hub: { allowedHosts: ['mcp.example.com', 'lb.internal:8080'] } } });
    const at = (host: string): Promise<number> => rawRequest({ port: h.port, path: '/health', headers: { Host: host } }).then((r) => r.status);
    expect(await at('mcp.example.com')).toBe(200);
    expect(await at('lb.internal:8080')).toBe(200);
    expect(await at('mcp.example.com:8443')).toBe(403);
    expect(await at('lb.internal')).toBe(403);
    expect(await at('evil.example')).toBe(403);
    // Through the allowed name, the token is still required.
    const res = await rawRequest({ port: h.port, method: 'POST', path: '/mcp/fx', headers: { Host: 'mcp.example.com', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(initializeRequest()) });
    expect(res.status).toBe(401);
  });

  it('is checked like the rest of the config: a value with a scheme or a path is a config problem', async () => {
    const dataDir = await tempDir('patchbay-allowed-hosts-');
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: {}, hub: { allowedHosts: ['https://mcp.example.com/'] } }));
    process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
    const engine = await startEngine({ dataDir, port: 0, openUrl: () => undefined });
    onCleanup(() => engine.close());
    expect(engine.configProblems()).toEqual([expect.objectContaining({ path: '$.hub.allowedHosts[0]' })]);
  });
});
