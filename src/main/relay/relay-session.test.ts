/**
 * The relay's client side of Streamable HTTP against a scripted server on loopback: what it sends
 * (P2, P22), how it resumes a broken stream (P12), re-creates a lost session (P17), and that a
 * request never goes unanswered.
 */
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setLogLevel, type Logger } from '../core/index.js';
import { parseOutgoing } from './outgoing.js';
import { RelaySession, type EndpointSource } from './relay-session.js';

setLogLevel('error');

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
  at: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown> | undefined) => void;

interface Logged {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/**
 * Emits 'change' whenever the test can learn something new: a request reached the scripted
 * server, a message reached the client, the relay logged a line. Waits re-check on it.
 */
const changes = new EventEmitter();
const changed = (): void => void changes.emit('change');

/** The relay's logger, recording every line (the relay says there what it decided to do). */
function recordingLogger(records: Logged[]): Logger {
  const at =
    (level: Logged['level']) =>
    (message: string): void => {
      records.push({ level, message });
      changed();
    };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

async function scriptedServer(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      seen.push({ method: req.method ?? '', headers: req.headers, body, at: Date.now() });
      changed();
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

function session(
  url: string | (() => Promise<{ url: string; token: string | undefined }>),
  defaultRetryMs?: number,
): { relay: RelaySession; out: Array<Record<string, unknown>>; logs: Logged[] } {
  const out: Array<Record<string, unknown>> = [];
  const logs: Logged[] = [];
  const endpoint: EndpointSource = {
    get: typeof url === 'string' ? async () => ({ url, token: 'test-token' }) : url,
    invalidate: () => undefined,
  };
  const relay = new RelaySession({
    endpoint,
    logger: recordingLogger(logs),
    ...(defaultRetryMs !== undefined ? { defaultRetryMs } : {}),
    deliver: (json) => {
      expect(json).not.toContain('\n');
      out.push(JSON.parse(json) as Record<string, unknown>);
      changed();
    },
  });
  cleanups.push(() => relay.close());
  return { relay, out, logs };
}

function send(relay: RelaySession, message: Record<string, unknown>): Promise<void> {
  const parsed = parseOutgoing(JSON.stringify({ jsonrpc: '2.0', ...message }));
  if (!parsed.ok) throw new Error(parsed.message);
  return relay.send(parsed.value);
}

/** Resolves with `probe`'s first value that is neither undefined nor false, re-checked on every change. */
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

const INIT = { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', ...headers });
  res.flushHeaders();
}

/** A server whose initialize negotiates `version` and gives session `sid()`. */
function initAnswer(res: ServerResponse, body: Record<string, unknown>, sid: string, version = '2025-06-18'): void {
  json(res, 200, { jsonrpc: '2.0', id: body.id, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } }, { 'Mcp-Session-Id': sid });
}

async function connect(relay: RelaySession): Promise<void> {
  await send(relay, INIT);
  await send(relay, { method: 'notifications/initialized' });
}

describe('relay session (client side of Streamable HTTP)', () => {
  it('sends the session id and the negotiated version after initialize, and tolerates 405 on GET (P2, P22, P12)', async () => {
    const { url, seen } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no' } }, { Allow: 'POST' });
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-1');
      if (body?.id === undefined) return void res.writeHead(202).end();
      sse(res);
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { ok: true } })}\n\n`);
    });
    // A retry delay of 1 ms: a relay that did retry the GET would do so at once, within the
    // exchanges below.
    const { relay, out, logs } = session(url, 1);
    await connect(relay);
    await send(relay, { id: 1, method: 'tools/list' });
    await until('the tools/list answer', () => out.find((m) => m.id === 1));
    expect(out.map((m) => m.id)).toEqual([0, 1]);
    const init = seen.find((s) => s.body?.method === 'initialize')!;
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.headers['mcp-protocol-version']).toBeUndefined();
    expect(init.headers.authorization).toBe('Bearer test-token');
    for (const s of seen.filter((x) => x !== init)) {
      expect(s.headers['mcp-session-id']).toBe('sid-1');
      expect(s.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
    for (const s of seen.filter((x) => x.method === 'POST')) expect(s.headers.accept).toBe('application/json, text/event-stream');
    // The relay logs this line as it stops trying the GET stream (get-stream.ts); one GET by then.
    const gaveUp = 'the hub offers no GET stream (HTTP 405)';
    await until('the relay to give up the GET stream', () => logs.some((l) => l.message === gaveUp));
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(1);
    // Later traffic of the session does not reopen it either.
    await send(relay, { id: 2, method: 'tools/list' });
    await until('the second tools/list answer', () => out.find((m) => m.id === 2));
    await relay.close();
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(1);
    expect(logs.filter((l) => l.message === gaveUp)).toEqual([{ level: 'debug', message: gaveUp }]);
  });

  it('resumes a stream that closed early with Last-Event-ID, after the retry delay the server asked for (P12)', async () => {
    let closedAt = 0;
    let pendingId: unknown;
    const { url, seen } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET' && req.headers['last-event-id'] === undefined) return json(res, 405, {});
      if (req.method === 'GET') {
        sse(res);
        res.write(`id: e-2\ndata: \n\n`);
        res.write(`event: message\nid: e-3\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: pendingId, result: { resumed: true } })}\n\n`);
        return; // kept open, as some servers do: the relay lets go once its answers are in
      }
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-1', '2025-11-25');
      if (body?.id === undefined) return void res.writeHead(202).end();
      pendingId = body.id;
      sse(res);
      res.write('id: e-1\nretry: 400\ndata: \n\n');
      setTimeout(() => {
        closedAt = Date.now();
        res.end();
      }, 50);
    });
    // A default far beyond the wait below: the resumption can only come in time if the relay
    // waits what the server's `retry: 400` asked for.
    const { relay, out } = session(url, 60_000);
    await connect(relay);
    await send(relay, { id: 7, method: 'tools/call', params: { name: 'slow' } });
    const answer = await until('the resumed answer', () => out.find((m) => m.id === 7));
    expect(answer.result).toEqual({ resumed: true });
    const resume = seen.find((s) => s.method === 'GET' && s.headers['last-event-id'] !== undefined)!;
    expect(resume.headers['last-event-id']).toBe('e-1');
    expect(resume.headers['mcp-session-id']).toBe('sid-1');
    // Not before the delay (timers never fire early; 50 ms of slack for clock granularity).
    expect(resume.at - closedAt).toBeGreaterThanOrEqual(350);
  });

  it('re-creates a lost session by replaying initialize, then sends the message again (P17)', async () => {
    let sessions = 0;
    let live = '';
    const { url, seen } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, {});
      if (body?.method === 'initialize') {
        live = `sid-${++sessions}`;
        return initAnswer(res, body, live);
      }
      if (req.headers['mcp-session-id'] !== live) return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      if (body?.id === undefined) return void res.writeHead(202).end();
      json(res, 200, { jsonrpc: '2.0', id: body.id, result: { session: live } });
    });
    const { relay, out } = session(url);
    await connect(relay);
    live = 'forgotten'; // the server restarts and forgets sid-1
    await send(relay, { id: 1, method: 'tools/list' });
    const answer = await until('the answer on the new session', () => out.find((m) => m.id === 1));
    expect(answer.result).toEqual({ session: 'sid-2' });
    // The client saw one initialize answer (its own), never the replay's.
    expect(out.filter((m) => (m.result as { protocolVersion?: string } | undefined)?.protocolVersion)).toHaveLength(1);
    const inits = seen.filter((s) => s.body?.method === 'initialize');
    expect(inits).toHaveLength(2);
    expect(inits[1]!.body?.params).toEqual(INIT.params);
    expect(inits[1]!.body?.id).not.toBe(0);
    expect(inits[1]!.headers['mcp-session-id']).toBeUndefined();
    // notifications/initialized went out again on the new session, before the retried request.
    const order = seen.filter((s) => s.method === 'POST' && s.headers['mcp-session-id'] === 'sid-2').map((s) => s.body?.method);
    expect(order.slice(0, 2)).toEqual(['notifications/initialized', 'tools/list']);
  });

  it('answers a request with a JSON-RPC error when the hub refuses it or breaks off, keeping the id', async () => {
    const { url } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, {});
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-1');
      if (body?.id === undefined) return void res.writeHead(202).end();
      if (body.method === 'a') return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: nope' } });
      if (body.method === 'b') return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
      sse(res);
      res.end(); // no event id: cannot be resumed
    });
    const { relay, out } = session(url);
    await connect(relay);
    await send(relay, { id: 'a1', method: 'a' });
    await send(relay, { id: 'b1', method: 'b' });
    await send(relay, { id: 'c1', method: 'c' });
    await until('three errors', () => out.length === 4);
    const byId = new Map(out.map((m) => [m.id, m.error as { code: number; message: string } | undefined]));
    expect(byId.get('a1')).toEqual({ code: -32600, message: 'Bad Request: nope' });
    expect(byId.get('b1')?.code).toBe(-32603);
    expect(byId.get('b1')?.message).toContain('HTTP 500: boom');
    expect(byId.get('c1')?.message).toContain('before the response arrived');
  });

  it('answers with an error, never a hang, when there is no hub to talk to', async () => {
    const { relay, out } = session(async () => {
      throw new Error('no hub is running and --no-start was given');
    });
    await send(relay, INIT);
    expect(out).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'no hub is running and --no-start was given' } }]);
  });

  it('lets the next line go once a request is written: a hub holding a JSON answer does not hold up its cancellation', async () => {
    let held: { res: ServerResponse; body: Record<string, unknown> } | undefined;
    const { url, seen } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, {});
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-j');
      if (body?.method === 'tools/call') {
        held = { res, body }; // a 2025 POST answered with application/json: no headers until the answer
        return;
      }
      if (body?.method === 'notifications/cancelled') {
        res.writeHead(202).end();
        return json(held!.res, 200, { jsonrpc: '2.0', id: held!.body.id, error: { code: -32800, message: 'cancelled' } });
      }
      if (body?.method === 'ping') return json(res, 200, { jsonrpc: '2.0', id: body.id, result: {} });
      res.writeHead(202).end();
    });
    const { relay, out } = session(url);
    await connect(relay);
    void send(relay, { id: 5, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    void send(relay, { id: 6, method: 'ping' });
    await until('the ping answer while the call is open', () => out.find((m) => m.id === 6));
    expect(out.some((m) => m.id === 5)).toBe(false);
    void send(relay, { method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } });
    const answer = await until('the call\'s answer after its cancellation', () => out.find((m) => m.id === 5));
    expect(answer.error).toMatchObject({ code: -32800 });
    expect(seen.filter((x) => x.body?.method === 'notifications/cancelled')).toHaveLength(1);
  });

  it('reads a large chunked SSE answer whole, split anywhere, and keeps ids beyond 2^53 as written', async () => {
    const text = 'ü'.repeat(3 * 1024 * 1024); // multi-byte characters split across chunks
    const { url } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, {});
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-b');
      if (body?.method !== 'tools/call') return void res.writeHead(202).end();
      sse(res);
      // The id as the client wrote it (the scripted server's JSON.parse would round it).
      const data = `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":12345678901234567890}`;
      const event = Buffer.from(`id: e1\nevent: message\ndata: ${data}\n\n`);
      // Uneven writes: chunk boundaries fall inside characters, inside the data, inside the head.
      let at = 0;
      const step = (): void => {
        if (at >= event.length) return void res.end();
        const size = 1 + ((at * 7919) % 65521);
        res.write(event.subarray(at, at + size));
        at += size;
        setImmediate(step);
      };
      step();
    });
    const raw: string[] = [];
    const seenRaw = new RelaySession({
      endpoint: { get: async () => ({ url, token: undefined }), invalidate: () => undefined },
      logger: recordingLogger([]),
      deliver: (line) => {
        raw.push(line);
        changed();
      },
    });
    cleanups.push(() => seenRaw.close());
    await connect(seenRaw);
    const big = '{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"blob","arguments":{}}}';
    const parsed = parseOutgoing(big);
    if (!parsed.ok) throw new Error(parsed.message);
    void seenRaw.send(parsed.value);
    const line = await until('the large answer', () => raw.find((l) => l.length > text.length), 20_000);
    expect(line.endsWith('"id":12345678901234567890}')).toBe(true);
    expect((JSON.parse(line) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text).toBe(text);
  });

  it('deletes its session on close', async () => {
    const { url, seen } = await scriptedServer((req, res, body) => {
      if (req.method === 'GET') return json(res, 405, {});
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      if (body?.method === 'initialize') return initAnswer(res, body, 'sid-9');
      res.writeHead(202).end();
    });
    const { relay } = session(url);
    await connect(relay);
    await relay.close();
    const del = seen.find((s) => s.method === 'DELETE');
    expect(del?.headers['mcp-session-id']).toBe('sid-9');
  });
});
