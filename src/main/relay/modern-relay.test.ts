/**
 * The relay's modern-era side (2026-07-28) against a scripted server on loopback: what a modern
 * line's POST carries (no session, the era's headers), that modern requests run side by side and
 * beside the legacy queue, cancellation by closing the stream, the errors a client gets (never a
 * hang), the HeaderMismatch retry, and a hub that is not there yet.
 */
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setLogLevel, type Logger } from '../core/index.js';
import { parseOutgoing } from './outgoing.js';
import { RelaySession, type EndpointSource, type HubEndpoint } from './relay-session.js';

setLogLevel('error');

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown> | undefined;
  req: IncomingMessage;
  res: ServerResponse;
  /** Set when the client closed the connection before the response ended. */
  closedEarly: boolean;
}

type Handler = (seen: Seen) => void;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const changes = new EventEmitter();
const changed = (): void => void changes.emit('change');

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => quiet };

async function scriptedServer(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const entry: Seen = { method: req.method ?? '', headers: req.headers, raw, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined, req, res, closedEarly: false };
      res.once('close', () => {
        if (!res.writableEnded) entry.closedEarly = true;
        changed();
      });
      seen.push(entry);
      handler(entry);
      changed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

function session(endpoint: EndpointSource | string): { relay: RelaySession; out: Array<Record<string, unknown>> } {
  const out: Array<Record<string, unknown>> = [];
  const source: EndpointSource = typeof endpoint === 'string' ? { get: async () => ({ url: endpoint, token: 'test-token' }), invalidate: () => undefined } : endpoint;
  const relay = new RelaySession({
    endpoint: source,
    logger: quiet,
    deliver: (json) => {
      expect(json).not.toContain('\n');
      out.push(JSON.parse(json) as Record<string, unknown>);
      changed();
    },
  });
  cleanups.push(() => relay.close());
  return { relay, out };
}

/** Sends a line (as the client wrote it, its text untouched); does not wait for the answer. */
function send(relay: RelaySession, line: string | Record<string, unknown>): void {
  const parsed = parseOutgoing(typeof line === 'string' ? line : JSON.stringify({ jsonrpc: '2.0', ...line }));
  if (!parsed.ok) throw new Error(parsed.message);
  void relay.send(parsed.value);
}

function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = (): void => {
      const value = probe();
      if (value === undefined || value === false) return;
      stop();
      resolve(value);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const stop = (): void => {
      clearTimeout(timer);
      changes.off('change', check);
    };
    changes.on('change', check);
    check();
  });
}

const V = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };

function modern(id: number | string | undefined, method: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  const message: Record<string, unknown> = { method, params: { ...params, _meta: { ...ENVELOPE, ...((params._meta as object | undefined) ?? {}) } } };
  if (id !== undefined) message.id = id;
  return message;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function result(s: Seen, value: Record<string, unknown>): void {
  json(s.res, 200, { jsonrpc: '2.0', id: s.body?.id, result: { resultType: 'complete', ...value } });
}

const TOOLS = { tools: [{ name: 'regional', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } }] };

describe('relay session, modern era (2026-07-28)', () => {
  it('sends a modern line on its own POST: no session, the era’s headers, the line untouched', async () => {
    const { url, seen } = await scriptedServer((s) => {
      if (s.body?.method === 'tools/list') return result(s, TOOLS);
      result(s, { content: [] });
    });
    const { relay, out } = session(url);
    // Key order and spacing as a client wrote them: the body goes out byte for byte.
    const line = `{"params":{"_meta":${JSON.stringify(ENVELOPE)}},"method":"tools/list", "jsonrpc":"2.0","id":1}`;
    send(relay, line);
    await until('the tools/list answer', () => out.find((m) => m.id === 1));
    send(relay, modern(2, 'tools/call', { name: 'regional', arguments: { region: 'eu-west 1' } }));
    send(relay, modern(3, 'prompts/get', { name: 'grüße' }));
    send(relay, modern(4, 'resources/read', { uri: 'file:///a.txt' }));
    await until('three answers', () => out.length === 4);

    const list = seen[0]!;
    expect(list.raw).toBe(line);
    for (const s of seen) {
      expect(s.method).toBe('POST');
      expect(s.headers['mcp-session-id']).toBeUndefined();
      expect(s.headers['mcp-protocol-version']).toBe(V);
      expect(s.headers['mcp-method']).toBe(s.body?.method);
      expect(s.headers.accept).toBe('application/json, text/event-stream');
      expect(s.headers['content-type']).toBe('application/json');
      expect(s.headers.authorization).toBe('Bearer test-token');
    }
    const byMethod = new Map(seen.map((s) => [s.body?.method, s.headers]));
    expect(byMethod.get('tools/list')!['mcp-name']).toBeUndefined();
    // Learned from the tools/list answer that passed through: the declared parameter is mirrored.
    expect(byMethod.get('tools/call')).toMatchObject({ 'mcp-name': 'regional', 'mcp-param-region': 'eu-west 1' });
    expect(byMethod.get('prompts/get')!['mcp-name']).toBe(`=?base64?${Buffer.from('grüße').toString('base64')}?=`);
    expect(byMethod.get('resources/read')!['mcp-name']).toBe('file:///a.txt');
    // The hub's answers reach the client as they came.
    expect(out.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
  });

  it('runs modern requests side by side, and beside a legacy request that is still waiting', async () => {
    let held: Seen | undefined;
    const { url, seen } = await scriptedServer((s) => {
      const method = s.body?.method;
      if (method === 'initialize') {
        s.res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'sid-1' });
        return s.res.end(JSON.stringify({ jsonrpc: '2.0', id: s.body?.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
      }
      if (s.method === 'GET') return json(s.res, 405, {});
      if (s.body?.id === undefined) return void s.res.writeHead(202).end();
      if (method === 'legacy/slow') return; // never answered: the legacy queue waits for its headers
      if (method === 'wait') {
        held = s; // answered only when 'release' arrives
        return;
      }
      if (method === 'release') {
        result(held!, { released: true });
        return result(s, { woke: 1 });
      }
    });
    const { relay, out } = session(url);
    send(relay, { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await until('the initialize answer', () => out.find((m) => m.id === 0));
    send(relay, { id: 'L', method: 'legacy/slow' });
    await until('the legacy request to reach the server', () => seen.some((s) => s.body?.method === 'legacy/slow'));
    // A second legacy request does not wait for the first one's headers either (a hub answering
    // JSON holds them until the answer): it goes out once the first is written.
    send(relay, { id: 'L2', method: 'legacy/after' });
    // The modern 'wait' is answered only after 'release' reached the server: were modern requests
    // serialized (or queued behind the legacy one), neither would ever be answered.
    send(relay, modern('w', 'wait'));
    await until('wait to reach the server', () => held);
    send(relay, modern('r', 'release'));
    await until('both modern answers', () => out.some((m) => m.id === 'w') && out.some((m) => m.id === 'r'));
    await until('the second legacy request to reach the server', () => seen.some((s) => s.body?.method === 'legacy/after'));
    for (const s of seen.filter((x) => x.body?.method === 'wait' || x.body?.method === 'release')) expect(s.headers['mcp-session-id']).toBeUndefined();
  });

  it('delivers an SSE answer’s notifications before its response, each on one line', async () => {
    const { url } = await scriptedServer((s) => {
      s.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } };
      // Data split over two lines, as SSE allows: re-serialised to one for stdio.
      s.res.write(`event: message\ndata: ${JSON.stringify(progress).replace(',', ',\ndata: ')}\n\n`);
      s.res.end(`:keep-alive\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: s.body?.id, result: { resultType: 'complete', content: [] } })}\n\n`);
    });
    const { relay, out } = session(url);
    send(relay, modern(7, 'tools/call', { name: 'slow', _meta: { progressToken: 'p' } }));
    await until('the answer', () => out.find((m) => m.id === 7));
    expect(out.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 7]);
  });

  it('cancels an in-flight request by closing its stream; the cancellation is not sent on, and nothing more arrives for it', async () => {
    const { url, seen } = await scriptedServer((s) => {
      if (s.body?.method === 'tools/call') {
        s.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        s.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`);
        return; // then silence: only the client's cancellation ends it
      }
      result(s, {});
    });
    const { relay, out } = session(url);
    send(relay, modern(5, 'tools/call', { name: 'hang', _meta: { progressToken: 1 } }));
    await until('the progress notification', () => out.length === 1);
    send(relay, modern(undefined, 'notifications/cancelled', { requestId: 5, reason: 'user' }));
    const call = seen[0]!;
    await until('the stream to be closed by the relay', () => call.closedEarly);
    // A cancellation of what is not in flight is dropped, also not sent on.
    send(relay, modern(undefined, 'notifications/cancelled', { requestId: 99 }));
    send(relay, modern(6, 'tools/list'));
    await until('the next answer', () => out.some((m) => m.id === 6));
    expect(seen.map((s) => s.body?.method)).toEqual(['tools/call', 'tools/list']);
    expect(out.filter((m) => m.id === 5)).toEqual([]);
  });

  it('keeps a subscriptions/listen stream open; a stream that breaks off answers the listen request with an error', async () => {
    let listen: Seen | undefined;
    const { url } = await scriptedServer((s) => {
      if (s.body?.method !== 'subscriptions/listen') return result(s, {});
      listen = s;
      s.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      s.res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' }, notifications: {} } })}\n\n`);
    });
    const { relay, out } = session(url);
    send(relay, modern('L1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await until('the acknowledgement', () => out.length === 1);
    // Waiting for answers (stdin closed) does not wait for an open subscription.
    await relay.drain(60_000);
    listen!.req.socket.destroy(); // the hub goes away
    const answer = await until('the error for the listen request', () => out.find((m) => m.id === 'L1'));
    expect(answer.error).toMatchObject({ code: -32603 });
    expect((answer.error as { message: string }).message).toMatch(/broke off.*subscriptions\/listen again/);
  });

  it('answers a refused request with the hub’s JSON-RPC error (its code and data) under the request’s id', async () => {
    const { url } = await scriptedServer((s) => {
      const method = s.body?.method;
      if (method === 'a') return json(s.res, 400, { jsonrpc: '2.0', id: s.body?.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: '2099-01-01' } } });
      if (method === 'b') return json(s.res, 400, { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'Invalid _meta envelope' } });
      if (method === 'c') return json(s.res, 404, { jsonrpc: '2.0', id: s.body?.id, error: { code: -32601, message: 'Method not found' } });
      if (method === 'd') return void s.res.writeHead(502, { 'Content-Type': 'text/plain' }).end('bad gateway');
      if (method === 'e') return void s.res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end();
      json(s.res, 200, { jsonrpc: '2.0', id: s.body?.id, result: {} });
    });
    const { relay, out } = session(url);
    for (const id of ['a', 'b', 'c', 'd', 'e']) send(relay, modern(id, id));
    await until('five answers', () => out.length === 5);
    const byId = new Map(out.map((m) => [m.id, m.error as { code: number; message: string; data?: unknown }]));
    expect(byId.get('a')).toEqual({ code: -32022, message: 'Unsupported protocol version', data: { supported: [V], requested: '2099-01-01' } });
    expect(byId.get('b')).toEqual({ code: -32602, message: 'Invalid _meta envelope' });
    expect(byId.get('c')).toEqual({ code: -32601, message: 'Method not found' });
    expect(byId.get('d')).toMatchObject({ code: -32603, message: expect.stringContaining('HTTP 502: bad gateway') });
    expect(byId.get('e')).toMatchObject({ code: -32603, message: expect.stringContaining('before the response arrived') });
  });

  it('on HeaderMismatch for a tools/call, lists the tools again (with the call’s envelope) and retries once with the headers they declare', async () => {
    const { url, seen } = await scriptedServer((s) => {
      if (s.body?.method === 'tools/list') return result(s, TOOLS);
      if (s.headers['mcp-param-region'] !== 'north') return json(s.res, 400, { jsonrpc: '2.0', id: s.body?.id, error: { code: -32020, message: 'Header mismatch: Mcp-Param-Region is absent' } });
      result(s, { content: [{ type: 'text', text: 'ok' }] });
    });
    const { relay, out } = session(url);
    send(relay, modern(1, 'tools/call', { name: 'regional', arguments: { region: 'north' } }));
    const answer = await until('the answer', () => out.find((m) => m.id === 1));
    expect(answer.result).toMatchObject({ content: [{ text: 'ok' }] });
    expect(seen.map((s) => s.body?.method)).toEqual(['tools/call', 'tools/list', 'tools/call']);
    const list = seen[1]!;
    expect(String(list.body?.id)).toMatch(/^patchbay-relay-tools-/);
    expect((list.body?.params as { _meta: unknown })._meta).toEqual(ENVELOPE);
    // The relay's own tools/list answer stays inside the relay.
    expect(out).toHaveLength(1);
  });

  it('finds the hub again when it is not answering, and sends the request again (nothing was received)', async () => {
    const { url, seen } = await scriptedServer((s) => result(s, { ok: true }));
    const dead = await scriptedServer(() => undefined);
    const deadUrl = dead.url;
    await cleanups.pop()!(); // close it: connections are refused from now on
    const stale: HubEndpoint = { url: deadUrl, token: 't' };
    let current: HubEndpoint = stale;
    const invalidated: Array<HubEndpoint | undefined> = [];
    const { relay, out } = session({
      get: async () => current,
      invalidate: (e) => {
        invalidated.push(e);
        current = { url, token: 't' };
      },
    });
    send(relay, modern(1, 'tools/list'));
    const answer = await until('the answer from the hub found again', () => out.find((m) => m.id === 1));
    expect(answer.result).toMatchObject({ ok: true });
    expect(invalidated).toEqual([stale]);
    expect(seen).toHaveLength(1);
  });

  it('answers a method no header can carry with an error, without sending it; a bad envelope goes to the hub to judge', async () => {
    const { url, seen } = await scriptedServer((s) => json(s.res, 400, { jsonrpc: '2.0', id: s.body?.id, error: { code: -32602, message: 'Invalid _meta envelope' } }));
    const { relay, out } = session(url);
    send(relay, modern(1, 'tools/ca\u00efl'));
    // A claim that is not a version string: still the modern path, with no version header.
    send(relay, { id: 2, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 42 } } });
    await until('two answers', () => out.length === 2);
    expect(out.find((m) => m.id === 1)?.error).toMatchObject({ code: -32600, message: expect.stringContaining('Mcp-Method') });
    expect(out.find((m) => m.id === 2)?.error).toMatchObject({ code: -32602 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['mcp-protocol-version']).toBeUndefined();
    expect(seen[0]!.headers['mcp-session-id']).toBeUndefined();
    expect(seen[0]!.headers['mcp-method']).toBe('tools/list');
  });

  it('closing the relay cuts open streams and delivers nothing more', async () => {
    const { url, seen } = await scriptedServer((s) => {
      s.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      s.res.flushHeaders();
    });
    const { relay, out } = session(url);
    send(relay, modern('L', 'subscriptions/listen'));
    send(relay, modern(2, 'tools/call', { name: 'x' }));
    await until('both streams open', () => seen.length === 2);
    await relay.close();
    await until('the server to see both closed', () => seen.every((s) => s.closedEarly));
    expect(out).toEqual([]);
  });
});
