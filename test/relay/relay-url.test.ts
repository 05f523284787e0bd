/**
 * `patchbay relay --url`: the relay with an engine of its own, against real HTTP servers on
 * loopback (the everything fixture, and a recording server for what goes on the wire).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { EVERYTHING_SERVER } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';
import { initialize, relayEnv, requireBuild, spawnRelay, tempHome, textOf } from './relay-helpers.js';

beforeAll(requireBuild);

async function everythingOverHttp(): Promise<string> {
  const child = spawn(process.execPath, [EVERYTHING_SERVER, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  onCleanup(() => child.kill('SIGKILL'));
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (err += d));
  const match = await waitFor(() => /^listening (\S+)$/m.exec(err), 'the fixture to listen');
  return match[1]!;
}

describe('patchbay relay --url', () => {
  it('relays a stdio client to a remote server through its own engine, leaving the data dir’s hub files alone', async () => {
    const url = await everythingOverHttp();
    const home = await tempHome();
    const relay = spawnRelay(home, ['--url', url]);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'remote hello' } } });
    expect(textOf(await relay.answer(1))).toBe('remote hello');
    // The embedded engine's discovery file and token live in a temp dir, not in the data dir.
    expect(existsSync(path.join(home, 'hub.json'))).toBe(false);
    expect(existsSync(path.join(home, 'hub-token'))).toBe(false);
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    expect(relay.junk).toEqual([]);
  });

  it('sends --header values, with ${secret:NAME} resolved from the data dir’s secret store', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push(req.headers);
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string; params?: { protocolVersion?: string } };
        if (body.id === undefined) return void res.writeHead(202).end();
        const result = body.method === 'initialize' ? { protocolVersion: body.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'rec', version: '1' } } : { tools: [] };
        res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'rec-1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      });
    });
    const port = await listenOnLoopback(server);
    const home = await tempHome();
    await writeFile(path.join(home, 'secrets.json'), JSON.stringify({ version: 1, secrets: { API_KEY: 'key-from-the-store' } }), { mode: 0o600 });
    const url = `http://127.0.0.1:${port}/mcp`;
    const relay = spawnRelay(home, ['--url', url, '--header', 'X-Api-Key: ${secret:API_KEY}', '--transport', 'http']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/list' });
    expect(await relay.answer(1)).toMatchObject({ result: { tools: [] } });
    const posts = seen.filter((h) => h['content-type'] !== undefined);
    expect(posts.length).toBeGreaterThanOrEqual(3);
    for (const h of posts) expect(h['x-api-key']).toBe('key-from-the-store');
    // The hub token of the embedded engine never leaves the process.
    for (const h of seen) expect(h.authorization).toBeUndefined();
    expect(relay.stderr()).not.toContain('key-from-the-store');
  });

  it('takes 2025-era lines through the embedded hub’s stdio door: a 50 MB answer whole on one line, sampling mid-call both ways, a call still open at EOF answered', async () => {
    const url = await everythingOverHttp();
    const home = await tempHome();
    const relay = spawnRelay(home, ['--url', url], { ...relayEnv(home), PATCHBAY_LOG_LEVEL: 'debug' });
    relay.write({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'relay-url-door', version: '1' } } });
    relay.write({ method: 'notifications/initialized' });
    await relay.answer(0);
    expect(relay.stderr()).toContain('2025-era lines go through the hub’s stdio door, in this process');

    const bytes = 50 * 1000 * 1000;
    relay.write({ id: 1, method: 'tools/call', params: { name: 'big', arguments: { bytes } } });
    const big = textOf(await relay.answer(1, 120_000));
    expect(big.length).toBe(bytes);
    expect(/^x+$/.test(big)).toBe(true);

    relay.write({ id: 2, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'ping?' } } });
    const request = await waitFor(() => relay.messages.find((m) => m.method === 'sampling/createMessage'), 'the sampling request on stdout', 20_000);
    expect(relay.messages.some((m) => m.id === 2)).toBe(false);
    relay.write({ id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'pong' }, model: 'test-model', stopReason: 'endTurn' } });
    expect(textOf(await relay.answer(2))).toBe('LLM response: pong');

    relay.write({ id: 3, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 500 } } });
    relay.child.stdin!.end();
    expect(textOf(await relay.answer(3))).toBe('slept');
    expect(await relay.exited()).toBe(0);
    expect(relay.junk).toEqual([]);
  }, 180_000);
});
