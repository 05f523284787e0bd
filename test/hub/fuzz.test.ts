/**
 * A seeded fuzz run over the hub's whole front door (issue 17, "How it is checked"): a few thousand
 * requests to /mcp (per-server, profile and unknown endpoints, both protocol eras), /sse and
 * /messages, /api, /ui, /health and /.well-known, with methods, headers and bodies drawn from a
 * seeded generator — valid MCP traffic mixed with mutations of it (truncated and flipped JSON,
 * deep nesting, wrong types, batches, huge values, bad header values, foreign Hosts and Origins,
 * stale and garbage session ids). Real HTTP, real children.
 *
 * What must hold: no 5xx; every request answered (headers) within its deadline — the hub's own
 * request timeout plus slack, so a hang shows as a failure, not as a slow test; the hub still
 * serves a real client afterwards; and its heap, after a forced GC, within a stated bound of where
 * it started. The seed is printed on failure; PATCHBAY_FUZZ_SEED and PATCHBAY_FUZZ_N replay or
 * widen a run.
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { initializeRequest } from '../helpers/json-rpc.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';

const SEED = Number(process.env.PATCHBAY_FUZZ_SEED ?? 0x5eed_2026);
const N = Number(process.env.PATCHBAY_FUZZ_N ?? 2500);
const CONCURRENCY = 8;
const HUB_REQUEST_TIMEOUT_MS = 3000;
/** No answer (headers) within this is a hang. */
const HANG_MS = HUB_REQUEST_TIMEOUT_MS + 7000;
/** How much the heap may have grown once the run is over and garbage collected. */
const HEAP_BOUND_BYTES = 48 * 1024 * 1024;

/** mulberry32: small, fast, good enough to pick requests; the same seed gives the same run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Fuzzed {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Well-formed, on a live session: must succeed. */
  clean?: boolean;
  what: string;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

function generator(random: () => number, ctx: { port: number; token: string; sessions: () => string[]; pathOf(session: string): string }) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number): boolean => random() < p;
  const int = (max: number): number => Math.floor(random() * max);

  const validMessages = (): unknown[] => [
    initializeRequest(int(1000), pick(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01', ''])),
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: int(1e6), method: 'tools/list' },
    { jsonrpc: '2.0', id: `s${int(1e6)}`, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(int(200)) } } },
    { jsonrpc: '2.0', id: int(1e6), method: 'tools/call', params: { name: 'sleep', arguments: { ms: int(50) } } },
    { jsonrpc: '2.0', id: int(1e6), method: 'tools/call', params: { name: pick(['nope', '', 'big']), arguments: pick([{}, null, [], 'x', { bytes: 'many' }]) } },
    { jsonrpc: '2.0', id: int(1e6), method: 'resources/read', params: { uri: pick(['test://static-text', 'file:///etc/passwd', '', '\u0000']) } },
    { jsonrpc: '2.0', id: int(1e6), method: 'prompts/list' },
    { jsonrpc: '2.0', id: int(1e6), method: 'ping' },
    { jsonrpc: '2.0', id: int(1e6), method: pick(['server/discover', 'tools/list', 'tools/call', 'subscriptions/listen']), params: { name: 'echo', arguments: { text: 'm' }, _meta: MODERN_META } },
    { jsonrpc: '2.0', id: int(1e6), result: {} },
    { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: int(10) } },
  ];

  const mutate = (text: string): string => {
    switch (int(9)) {
      case 0:
        return text.slice(0, int(text.length + 1));
      case 1: {
        const i = int(text.length);
        return text.slice(0, i) + pick(['"', '{', '}', ']', ',', '\\', '\u0000', 'ÿ', '\n']) + text.slice(i + 1);
      }
      case 2:
        return `[${text},${text}]`;
      case 3:
        return '['.repeat(600 + int(2000)) + ']'.repeat(600 + int(2000));
      case 4:
        return text.replace(/"jsonrpc":"2.0"/, pick(['"jsonrpc":"1.0"', '"jsonrpc":2', '']));
      case 5:
        return text.replace(/"id":[^,}]+/, pick(['"id":{}', '"id":[1]', '"id":1e400', '"id":true', '"id":null']));
      case 6:
        return pick(['', ' ', 'null', '[]', '{}', '1', '"str"', 'true', '[[]]', '{"jsonrpc":"2.0"}']);
      case 7:
        return text.replace(/"method":"[^"]*"/, `"method":${pick(['1', 'null', '"x".repeat(5)', `"${'m'.repeat(5000)}"`])}`);
      default:
        return JSON.stringify({ ...JSON.parse(text === '' ? '{}' : text.startsWith('{') ? text : '{}'), params: { big: 'y'.repeat(int(200_000)) } });
    }
  };

  const mcpPaths = ['/mcp/fx', '/mcp/fx', '/mcp/fx', '/mcp/probe', '/mcp', '/mcp/', '/mcp/@default', '/mcp/@nope', '/mcp/nope', '/mcp/%E0%A4%A', '/mcp/fx/extra', '/mcp/..%2F..%2Fetc'];
  const otherPaths = [
    '/health',
    '/.well-known/mcp-config',
    '/api/call/hub.status',
    '/api/call/servers.overview',
    '/api/call/%',
    '/api/call/nope',
    '/api/call/inspector.sessions.list',
    '/api/inspector/live',
    '/api/events',
    '/ui',
    '/ui/',
    '/ui/index.html',
    '/ui/../../etc/passwd',
    '/ui/%2e%2e/secret',
    '/sse/fx',
    '/sse/nope',
    '/messages/fx?sessionId=nope',
    '/messages/fx',
    '/oauth/callback?code=x&state=y',
    '/',
    '/favicon.ico',
    '/' + 'a'.repeat(5000),
  ];

  /** A well-formed request on a live session: the traffic the mutations hide among. */
  const clean = (): Fuzzed => {
    const sessions = ctx.sessions();
    const session = pick(sessions);
    const message = pick(validMessages().slice(1, 9));
    const body = JSON.stringify(message);
    const headers: Record<string, string> = {
      Host: `127.0.0.1:${ctx.port}`,
      Authorization: `Bearer ${ctx.token}`,
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': '2025-11-25',
    };
    return { method: 'POST', path: ctx.pathOf(session), headers, body, clean: true, what: `clean POST ${body.slice(0, 80)}` };
  };

  return (): Fuzzed => {
    if (chance(0.3) && ctx.sessions().length > 0) return clean();
    const headers: Record<string, string> = {};
    headers.Host = chance(0.93) ? `127.0.0.1:${ctx.port}` : pick([`evil.example:${ctx.port}`, `localhost:${ctx.port}`, `127.0.0.1:${ctx.port + 1}`, '', `[::1]:${ctx.port}`]);
    if (chance(0.15)) headers.Origin = pick([`http://127.0.0.1:${ctx.port}`, 'https://evil.example', 'null', `http://localhost:${ctx.port}`]);
    if (chance(0.9)) headers.Authorization = chance(0.92) ? `Bearer ${ctx.token}` : pick(['Bearer wrong', 'Basic abc', 'Bearer', `bearer ${ctx.token}`, `Bearer ${ctx.token}x`]);
    const toMcp = chance(0.7);
    const path = toMcp ? pick(mcpPaths) : pick(otherPaths);
    const method = toMcp ? pick(['POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS']) : pick(['GET', 'GET', 'POST', 'DELETE', 'OPTIONS']);
    if (chance(0.85)) headers.Accept = pick(['application/json, text/event-stream', 'application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html']);
    const sessions = ctx.sessions();
    // A live session's id on any request but DELETE (which would end it for the rest of the run).
    if (chance(0.5)) headers['Mcp-Session-Id'] = sessions.length > 0 && method !== 'DELETE' && chance(0.7) ? pick(sessions) : pick(['nope', '', 'x'.repeat(300), '../..', '\u00ff']);
    if (chance(0.4)) headers['MCP-Protocol-Version'] = pick(['2025-11-25', '2025-06-18', '2025-03-26', '2026-07-28', 'v999.0.0', 'garbage', '']);
    if (chance(0.2)) headers['Mcp-Method'] = pick(['tools/call', 'tools/list', 'server/discover', '']);
    if (chance(0.1)) headers['Mcp-Name'] = pick(['echo', '=?base64?!!!?=', 'x']);
    if (chance(0.05)) headers['Last-Event-ID'] = pick(['0', 'abc', '99999999', '1:2:3']);
    let body: string | undefined;
    if (method === 'POST' || method === 'PUT') {
      if (chance(0.9)) headers['Content-Type'] = pick(['application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']);
      const message = JSON.stringify(pick(validMessages()));
      body = chance(0.55) ? message : mutate(message);
    }
    return { method, path, headers, ...(body !== undefined ? { body } : {}), what: `${method} ${path.slice(0, 60)} ${body === undefined ? '' : body.slice(0, 80)}` };
  };
}

interface Outcome {
  status: number;
  hang: boolean;
  error?: string;
}

/** Sends one request; reads the body for at most a moment (event streams stay open), then lets go. */
function send(port: number, r: Fuzzed): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => done({ status: 0, hang: true }), HANG_MS);
    const headers: Record<string, string> = { ...r.headers };
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent: false, setHost: false });
    req.on('error', (err) => done({ status: 0, hang: false, error: err.message }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      // An answer's stream ends by itself (its response, or the hub's deadline); a standalone
      // GET stream does not, and its headers were the answer.
      if (isStream && r.method === 'GET') return done({ status, hang: false });
      res.on('data', () => undefined);
      res.on('end', () => done({ status, hang: false }));
      res.on('error', () => done({ status, hang: false }));
    });
    req.end(r.body);
  });
}

function forceGc(): void {
  v8.setFlagsFromString('--expose_gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('seeded fuzz over /mcp, /sse, /messages, /api, /ui, /health', () => {
  it(`${N} requests (seed ${SEED}): no 5xx, no hang, a working hub and a bounded heap afterwards`, { timeout: 600_000 }, async () => {
    const hub = await startHub({
      servers: { fx: everythingServer({ shared: true, requestTimeoutMs: HUB_REQUEST_TIMEOUT_MS }), probe: probeServer({ shared: true, requestTimeoutMs: HUB_REQUEST_TIMEOUT_MS }) },
      hub: { maxBodyBytes: 256 * 1024 },
    });
    // Real sessions whose ids the fuzzer reuses (a known id with foreign traffic is the interesting case).
    const clients = await Promise.all([connect(hub, 'fx'), connect(hub, 'fx'), connect(hub, 'probe')]);
    const known = clients.map((c) => c.sessionId).filter((s): s is string => s !== undefined);
    const pathOf = (session: string): string => (session === clients[2]!.sessionId ? '/mcp/probe' : '/mcp/fx');

    forceGc();
    const heapBefore = process.memoryUsage().heapUsed;
    const next = generator(prng(SEED), { port: hub.port, token: hub.token!, sessions: () => known, pathOf });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (sent < N) {
        sent++;
        const r = next();
        const o = await send(hub.port, r);
        statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
        if (r.clean && !(o.status >= 200 && o.status < 300)) failures.push(`HTTP ${o.status} for a well-formed request: ${r.what}`);
        if (o.hang) failures.push(`no answer within ${HANG_MS} ms: ${r.what}`);
        else if (o.status >= 500) failures.push(`HTTP ${o.status}: ${r.what}`);
        else if (o.error && o.status === 0) failures.push(`connection error (${o.error}): ${r.what}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures, `seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`).toEqual([]);
    // The run did reach the MCP handlers, not only the guards.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(N / 5);

    // The hub still serves a real client, on an old session and on a new one.
    expect(await clients[0]!.tool('echo', { text: 'after the storm' })).toBe('after the storm');
    const fresh = await connect(hub, 'fx');
    expect(await fresh.tool('echo', { text: 'fresh' })).toBe('fresh');

    forceGc();
    const grown = process.memoryUsage().heapUsed - heapBefore;
    expect(grown, `heap grew by ${Math.round(grown / 1024 / 1024)} MiB`).toBeLessThan(HEAP_BOUND_BYTES);
  });
});
