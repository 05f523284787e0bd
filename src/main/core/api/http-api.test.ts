// The /api bridge over real HTTP on loopback, against a real engine.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type RunningEngine } from '../engine/engine.js';

let engine: RunningEngine | undefined;
let dir: string | undefined;

afterEach(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  engine = undefined;
  dir = undefined;
});

async function start(config: unknown = { mcpServers: { fx: { command: 'node', args: ['x.mjs'] } } }) {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-api-'));
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(config));
  engine = await startEngine({ dataDir: dir, port: 0 });
  const { readFile } = await import('node:fs/promises');
  const token = (await readFile(engine.tokenFile, 'utf8')).trim();
  const callApi = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${engine!.url}/api/call/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
  return { token, callApi };
}

describe('/api bridge', () => {
  it('answers a call with { ok: true, value }', async () => {
    const { callApi } = await start();
    const res = await callApi('servers.list', {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; value: Array<{ id: string; url: string }> };
    expect(body.ok).toBe(true);
    expect(body.value).toEqual([expect.objectContaining({ id: 'fx', kind: 'stdio', disabled: false, sessions: 0, url: `${engine!.url}/mcp/fx` })]);
  });

  it('refuses a call without the token (P25)', async () => {
    await start();
    const res = await fetch(`${engine!.url}/api/call/hub.status`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });

  it('names an unknown call, bad JSON and invalid input precisely', async () => {
    const { callApi, token } = await start();
    const unknown = await callApi('nope.nothing', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, code: 'unknown_call' });
    const bad = await fetch(`${engine!.url}/api/call/hub.status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: '{"x":',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, code: 'parse_error' });
    const invalid = await callApi('hub.status', [1, 2]);
    expect(await invalid.json()).toMatchObject({ ok: false, code: 'invalid_input' });
  });

  it('refuses a form post (CSRF) with 415', async () => {
    const { callApi } = await start();
    const res = await callApi('hub.status', {}, { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('streams events and replays after a cursor', async () => {
    const { token } = await start();
    const file = engine!.configFile;
    const res = await fetch(`${engine!.url}/api/events?since=0`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 10_000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no '${needle}' in: ${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value);
      }
    };
    await readUntil('event: api.ready');
    await writeFile(file, '{ "mcpServers": { "fx": { "command": "" } } }');
    await readUntil('event: config.changed');
    expect(text).toContain('$.mcpServers.fx.command');
    await reader.cancel();
  });

  it('answers malformed percent-encoding in a call name with 400 and a JSON error, never 500 (issue 17 item 5)', async () => {
    const { token } = await start();
    // Raw paths: a URL parser could normalise them; a client on the wire need not.
    for (const raw of ['/api/call/%E0%A4%A', '/api/call/%', '/api/call/%ZZ', '/api/call/hub.status%']) {
      const res = await rawPost(engine!.port, raw, token);
      expect(res.status, raw).toBe(400);
      expect(res.headers['content-type'], raw).toContain('application/json');
      expect(JSON.parse(res.body), raw).toMatchObject({ ok: false, code: 'bad_request', message: expect.stringContaining('percent-encoding') });
    }
    // A well-formed escape still names its call.
    expect((await rawPost(engine!.port, '/api/call/hub%2Estatus', token)).status).toBe(200);
    // The hub's other prefixes answer such paths with a 4xx too, each in its own format.
    for (const raw of ['/mcp/%E0%A4%A', '/ui/%E0%A4%A', '/ui/%ZZ']) {
      const res = await rawPost(engine!.port, raw, token, 'GET');
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
      expect(res.status, raw).toBeLessThan(500);
    }
  });
});

function rawPost(port: number, rawPath: string, token: string, method = 'POST'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, Accept: 'application/json, text/event-stream' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}
