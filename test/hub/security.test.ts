/**
 * PROTOCOL E (P23–P28): Host and Origin checks, loopback binding, the hub token, CORS, no token
 * passthrough, and commands only from config.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initializeRequest, toolCall, toolText } from '../helpers/json-rpc.js';
import { ACCEPT_BOTH, jsonRpcErrorOf, post } from '../helpers/mcp-http.js';
import { cmdline, fixtureChildren } from '../helpers/processes.js';
import { rawExchange, rawRequest, type RawResponse } from '../helpers/raw-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const FX = 'fx';
const SECRET_ID = 'zz-secret-server-name';

function hub(extra: Partial<Parameters<typeof startHub>[0]> = {}): Promise<TestHub> {
  return startHub({ servers: { [FX]: everythingServer(), [SECRET_ID]: probeServer(), probe: probeServer() }, ...extra });
}

function mcpHeaders(h: TestHub, extra: Record<string, string> = {}): Record<string, string> {
  return { ...h.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', ...extra };
}

function initWith(h: TestHub, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest({ port: h.port, method: 'POST', path: `/mcp/${FX}`, headers: mcpHeaders(h, headers), body: JSON.stringify(initializeRequest()) });
}

function expectJsonRpcError(res: RawResponse, status: number, code?: number): void {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect(typeof body.error.message).toBe('string');
  if (code !== undefined) expect(body.error.code).toBe(code);
}

describe('E. security', () => {
  describe('P23: Host', () => {
    const bad = (port: number): Array<[string, string]> => [
      ['another host name', `evil.example:${port}`],
      ['a DNS-rebinding name', `127.0.0.1.nip.io:${port}`],
      ['127.0.0.1 without a port', '127.0.0.1'],
      ['localhost without a port', 'localhost'],
      ['another port', `127.0.0.1:${port === 1 ? 2 : port - 1}`],
      ['localhost with another port', `localhost:${port + 1}`],
      ['0.0.0.0', `0.0.0.0:${port}`],
    ];
    for (const [name] of bad(0)) {
      it(`P23: Host with ${name} → 403 JSON-RPC error (POST /mcp and GET /health)`, async () => {
        const h = await hub();
        const host = bad(h.port).find(([n]) => n === name)![1];
        expectJsonRpcError(await initWith(h, { Host: host }), 403);
        expectJsonRpcError(await rawRequest({ port: h.port, path: '/health', headers: { Host: host } }), 403);
        // Nothing was started for the refused request.
        expect(fixtureChildren()).toEqual([]);
      });
    }

    it('P23: a request without a Host header is refused (HTTP/1.1: 400 by Node; HTTP/1.0: 403 by the Host check)', async () => {
      const h = await hub();
      // HTTP/1.1 requires Host (RFC 9112 §3.2): Node's server answers 400 before the hub sees it.
      const v11 = await rawExchange(h.port, `GET /health HTTP/1.1\r\nConnection: close\r\n\r\n`);
      expect(/^HTTP\/1\.1 (\d{3}) /.exec(v11)?.[1]).toBe('400');
      // HTTP/1.0 may leave it out: the request reaches the hub, whose Host check refuses it.
      const v10 = await rawExchange(h.port, `GET /health HTTP/1.0\r\n\r\n`);
      expect(/^HTTP\/1\.1 (\d{3}) /.exec(v10)?.[1]).toBe('403');
      const body = JSON.parse(v10.slice(v10.indexOf('\r\n\r\n') + 4)) as { error: unknown };
      expect(body.error).toEqual({ code: -32600, message: 'Forbidden: missing Host header' });
    });

    for (const host of ['127.0.0.1:PORT', 'localhost:PORT', '[::1]:PORT', 'LOCALHOST:PORT']) {
      it(`P23: Host ${host} is accepted`, async () => {
        const h = await hub();
        const res = await initWith(h, { Host: host.replace('PORT', String(h.port)) });
        expect(res.status).toBe(200);
      });
    }
  });

  describe('P23: Origin', () => {
    const refused: Array<[string, (port: number) => string]> = [
      ['http://evil.example', () => 'http://evil.example'],
      ['null', () => 'null'],
      ['the hub origin over https', (p) => `https://127.0.0.1:${p}`],
      ['the hub host on another port', (p) => `http://127.0.0.1:${p + 1}`],
      ['a look-alike suffix', (p) => `http://127.0.0.1:${p}.evil.example`],
    ];
    for (const [name, origin] of refused) {
      it(`P23: Origin ${name} → 403 JSON-RPC error`, async () => {
        const h = await hub();
        const res = await initWith(h, { Origin: origin(h.port) });
        expectJsonRpcError(res, 403);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      });
    }

    it('P23: Origin equal to Host is not a reason to accept ([::1] is not in the default allow-list)', async () => {
      const h = await hub();
      const res = await initWith(h, { Host: `[::1]:${h.port}`, Origin: `http://[::1]:${h.port}` });
      expectJsonRpcError(res, 403);
    });

    it('P23: a missing Origin is allowed', async () => {
      const h = await hub();
      expect((await initWith(h, {})).status).toBe(200);
    });

    for (const which of ['127.0.0.1', 'localhost']) {
      it(`P23/P26: the hub's own UI origin http://${which}:<port> is allowed, with CORS headers`, async () => {
        const h = await hub();
        const origin = `http://${which}:${h.port}`;
        const res = await initWith(h, { Origin: origin });
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(String(res.headers.vary ?? '')).toMatch(/origin/i);
        const exposed = String(res.headers['access-control-expose-headers'] ?? '').toLowerCase();
        expect(exposed).toContain('mcp-session-id');
        expect(exposed).toContain('mcp-protocol-version');
      });
    }

    it('P23: an origin added in the config is allowed; others still are not', async () => {
      const h = await hub({ hub: { allowedOrigins: ['http://app.example:3000'] } });
      const ok = await initWith(h, { Origin: 'http://app.example:3000' });
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe('http://app.example:3000');
      expectJsonRpcError(await initWith(h, { Origin: 'http://app.example:3001' }), 403);
    });
  });

  describe('P24: loopback only', () => {
    it('P24: the hub listens on 127.0.0.1 only (ss -ltn)', async (ctx) => {
      const h = await hub();
      expect(new URL(h.url).hostname).toBe('127.0.0.1');
      let out: string;
      try {
        out = execFileSync('ss', ['-Hltn'], { encoding: 'utf8' });
      } catch (err) {
        ctx.skip(`ss is not available here: ${(err as Error).message}`);
        return;
      }
      const locals = out
        .split('\n')
        .map((line) => line.trim().split(/\s+/)[3])
        .filter((addr): addr is string => addr !== undefined && addr.endsWith(`:${h.port}`));
      expect(locals).toEqual([`127.0.0.1:${h.port}`]);
    });

    it('P24: connections to the port on other loopback addresses are refused', async () => {
      const h = await hub();
      // Other loopback addresses only: tests never send traffic beyond loopback. A socket bound
      // to 127.0.0.1 does not accept what is addressed to 127.0.0.2 or ::1, which proves the bind.
      const targets = ['127.0.0.2', '::1'];
      for (const address of targets) {
        const result = await new Promise<string>((resolve) => {
          const s = net.connect({ host: address, port: h.port });
          s.once('connect', () => {
            s.destroy();
            resolve('connected');
          });
          s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        });
        expect(result, `connecting to ${address}:${h.port}`).not.toBe('connected');
      }
    });
  });

  describe('P25: the hub token', () => {
    const cases: Array<[string, (token: string) => Record<string, string>]> = [
      ['missing', () => ({})],
      ['wrong', () => ({ Authorization: 'Bearer not-the-token' })],
      ['the token with a suffix', (t) => ({ Authorization: `Bearer ${t}x` })],
      ['a prefix of the token', (t) => ({ Authorization: `Bearer ${t.slice(0, -1)}` })],
      ['the token with the Basic scheme', (t) => ({ Authorization: `Basic ${t}` })],
      ['the bare token', (t) => ({ Authorization: t })],
      ['an empty Bearer', () => ({ Authorization: 'Bearer ' })],
    ];
    for (const [name, auth] of cases) {
      it(`P25: token ${name} → 401 with WWW-Authenticate: Bearer realm="patchbay" and -32001`, async () => {
        const h = await hub();
        const res = await rawRequest({
          port: h.port,
          method: 'POST',
          path: `/mcp/${FX}`,
          headers: { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', ...auth(h.token!) },
          body: JSON.stringify(initializeRequest()),
        });
        expectJsonRpcError(res, 401, -32001);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="patchbay"');
        expect(fixtureChildren()).toEqual([]);
      });
    }

    it('P25: the right token is accepted (scheme case-insensitive)', async () => {
      const h = await hub();
      const res = await initWith(h, { Authorization: `bearer ${h.token!}` });
      expect(res.status).toBe(200);
    });

    it('P25: GET and DELETE also need the token', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      for (const method of ['GET', 'DELETE']) {
        const res = await rawRequest({ port: h.port, method, path: `/mcp/${FX}`, headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': client.sessionId!, 'MCP-Protocol-Version': '2025-11-25' } });
        expectJsonRpcError(res, 401, -32001);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="patchbay"');
      }
      // The refused DELETE did not end the session.
      expect(await client.tool('echo', { text: 'still' })).toBe('still');
    });

    it('P25: an unknown server id without the token → 401 (existence is not revealed)', async () => {
      const h = await hub();
      const res = await rawRequest({ port: h.port, method: 'POST', path: '/mcp/no-such-server', headers: { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json' }, body: '{}' });
      expectJsonRpcError(res, 401, -32001);
    });

    for (const p of ['/mcp', '/mcp/', '/api/servers', '/api']) {
      it(`P25: ${p} without the token → 401`, async () => {
        const h = await hub();
        const res = await rawRequest({ port: h.port, method: 'GET', path: p, headers: { Accept: 'application/json' } });
        expectJsonRpcError(res, 401, -32001);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="patchbay"');
      });
    }

    for (const p of ['/health', '/.well-known/mcp-config']) {
      it(`P25: ${p} needs no token and reveals no server names, paths or config`, async () => {
        const h = await hub();
        const res = await rawRequest({ port: h.port, path: p });
        expect(res.status).toBe(200);
        expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
        JSON.parse(res.text);
        for (const secret of [SECRET_ID, 'probe', 'everything-server', 'probe-server', h.dataDir, path.basename(h.dataDir), process.execPath, 'config.json', h.token!]) {
          expect(res.text, `${p} must not reveal ${secret}`).not.toContain(secret);
        }
        // "fx" is too short to search for blindly: check JSON string values instead.
        const values: string[] = [];
        JSON.parse(res.text, (_k, v: unknown) => {
          if (typeof v === 'string') values.push(v);
          return v;
        });
        expect(values).not.toContain(FX);
      });
    }

    it('P25: with --no-auth no token is needed', async () => {
      const h = await hub({ auth: false });
      expect(h.token).toBeUndefined();
      expect(existsSync(h.engine.tokenFile)).toBe(false);
      expect((await initWith(h, {})).status).toBe(200);
    });
  });

  describe('P26: CORS preflight', () => {
    it('P26: OPTIONS from an allowed origin is answered without the token, with the full CORS headers', async () => {
      const h = await hub();
      const origin = `http://127.0.0.1:${h.port}`;
      const res = await rawRequest({
        port: h.port,
        method: 'OPTIONS',
        path: `/mcp/${FX}`,
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type, mcp-session-id, mcp-protocol-version' },
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers.vary ?? '')).toMatch(/origin/i);
      const methods = String(res.headers['access-control-allow-methods']).split(',').map((m) => m.trim().toUpperCase());
      expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE', 'OPTIONS']));
      const allowed = String(res.headers['access-control-allow-headers']).split(',').map((x) => x.trim().toLowerCase());
      expect(allowed).toEqual(
        expect.arrayContaining(['content-type', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name']),
      );
    });

    it('P26: an actual response to an allowed origin exposes Mcp-Session-Id and Mcp-Protocol-Version', async () => {
      const h = await hub();
      const origin = `http://localhost:${h.port}`;
      const res = await post(h, FX, initializeRequest(), { headers: { Origin: origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
      expect(exposed).toContain('mcp-session-id');
      expect(exposed).toContain('mcp-protocol-version');
      await res.body?.cancel();
    });

    it('P26: a preflight from a disallowed origin gets 403 or no Access-Control-Allow-Origin', async () => {
      const h = await hub();
      const res = await rawRequest({
        port: h.port,
        method: 'OPTIONS',
        path: `/mcp/${FX}`,
        headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
      });
      if (res.status !== 403) expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).not.toBe('http://evil.example');
      expect(res.headers['access-control-allow-origin']).not.toBe('*');
    });

    it('P26: no CORS headers for requests without Origin', async () => {
      const h = await hub();
      const res = await initWith(h, {});
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('P27: no token passthrough', () => {
    it('P27: the client’s Authorization (the hub token) reaches neither the child’s input nor its environment', async () => {
      const h = await hub();
      const client = await connect(h, 'probe');
      expect(await client.tool('echo', { text: 'hello' })).toBe('hello');
      const env = JSON.parse(await client.tool('dump_env')) as Record<string, string>;
      const input = JSON.parse(await client.tool('dump_input')) as string[];
      const token = h.token!;
      for (const [k, v] of Object.entries(env)) expect(`${k}=${v}`).not.toContain(token);
      for (const line of input) {
        expect(line).not.toContain(token);
        expect(line.toLowerCase()).not.toContain('authorization');
      }
      // What the child received is exactly the JSON-RPC the client sent, nothing added.
      expect(input.map((l) => (JSON.parse(l) as { method?: string }).method)).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call', 'tools/call']);
    });

    it('P27: a Bearer token of the client’s own (another Authorization header) is not forwarded either', async () => {
      const h = await hub({ auth: false });
      const client = await connect(h, 'probe');
      const res = await client.post(toolCall(50, 'dump_input'), { headers: { Authorization: 'Bearer client-upstream-secret-123' } });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).not.toContain('client-upstream-secret-123');
      const env = await client.tool('dump_env');
      expect(env).not.toContain('client-upstream-secret-123');
    });
  });

  describe('P28: commands come only from config', () => {
    const marker = (h: TestHub): string => path.join(h.dataDir, 'pwned');
    const attempts = (h: TestHub): string[] => [
      `/mcp/node`,
      `/mcp/${encodeURIComponent(process.execPath)}`,
      `/mcp/..%2F${FX}`,
      `/mcp/../${FX}`,
      `/mcp/${FX}%2F..%2F..%2Fnode`,
      `/mcp/${FX}/extra`,
      `/mcp/%2e%2e`,
      `/mcp/sh%20-c%20touch%20${encodeURIComponent(marker(h))}`,
      `/mcp/%E0%A4%A`,
    ];

    it('P28: paths naming commands or escaping the server id → 404 JSON-RPC error, nothing spawned', async () => {
      const h = await hub();
      for (const p of attempts(h)) {
        const res = await rawRequest({ port: h.port, method: 'POST', path: p, headers: mcpHeaders(h), body: JSON.stringify(initializeRequest()) });
        expect(res.status, p).toBe(404);
        expectJsonRpcError(res, 404);
      }
      expect(fixtureChildren()).toEqual([]);
      expect(h.engine.hub.sessions.size).toBe(0);
      expect(existsSync(marker(h))).toBe(false);
    });

    it('P28: params naming a command do not change what is spawned', async () => {
      const h = await hub();
      const evil = `require('fs').writeFileSync(${JSON.stringify(marker(h))}, 'x')`;
      const init = initializeRequest(1);
      Object.assign(init.params!, { command: process.execPath, args: ['-e', evil], env: { NODE_OPTIONS: `--eval=${evil}` }, cwd: '/' });
      const res = await post(h, 'probe', init);
      expect(res.status).toBe(200);
      const sessionId = res.headers.get('mcp-session-id')!;
      await res.body?.cancel();
      const call = await post(h, 'probe', toolCall(2, 'dump_env', { command: 'touch', args: [marker(h)] }), { sessionId, protocolVersion: '2025-11-25' });
      const text = await call.text();
      expect(text).not.toContain('NODE_OPTIONS');
      const children = fixtureChildren();
      expect(children.length).toBeGreaterThan(0);
      for (const pid of children) expect(cmdline(pid)).toContain('probe-server.mjs');
      expect(existsSync(marker(h))).toBe(false);
    });

    it('P28: an unknown or disabled server id → 404 with a JSON-RPC error', async () => {
      const h = await startHub({ servers: { [FX]: everythingServer(), off: everythingServer({ disabled: true }) } });
      for (const id of ['nope', 'off']) {
        const res = await post(h, id, initializeRequest());
        expect(res.status).toBe(404);
        await jsonRpcErrorOf(res);
      }
      expect(fixtureChildren()).toEqual([]);
      // The configured one still works.
      const client = await connect(h, FX);
      expect(toolText((await client.callTool('echo', { text: 'ok' })).response)).toBe('ok');
    });
  });
});
