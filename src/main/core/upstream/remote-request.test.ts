/**
 * remote-request.ts against a real HTTP server on loopback, through a real undici Agent.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../../../../test/helpers/cleanup.js';
import { listenOnLoopback } from '../../../../test/helpers/loopback-server.js';
import { dispatchRequest } from './remote-request.js';

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ url: URL; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', (s) => sockets.add(s));
  return { url: new URL(`http://127.0.0.1:${await listenOnLoopback(server)}/mcp?x=1`), sockets };
}

function agent(options: ConstructorParameters<typeof Agent>[0] = {}): Agent {
  const a = new Agent(options);
  onCleanup(() => a.close());
  return a;
}

const POST = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' };

describe('dispatchRequest', () => {
  it('sends the method, path with its query, headers and body; reads headers by name, repeated ones joined, and the body as text', async () => {
    const seen: Array<{ method?: string; url?: string; type?: string; body: string }> = [];
    const { url } = await serve((req, res, body) => {
      seen.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Many', ['a', 'b']);
      res.setHeader('Mcp-Session-Id', 's-1');
      res.write('{"jsonrpc":"2.0","id":1,"result":{"t":"é');
      setTimeout(() => res.end('✓"}}'), 10);
    });
    const request = dispatchRequest(agent());
    const res = await request(url, POST);
    expect(res.statusCode).toBe(200);
    expect(res.header('content-type')).toBe('application/json');
    expect(res.header('mcp-session-id')).toBe('s-1');
    expect(res.header('x-many')).toBe('a, b');
    expect(res.header('x-none')).toBeUndefined();
    expect(res.headers()).toMatchObject({ 'content-type': 'application/json', 'x-many': ['a', 'b'], 'mcp-session-id': 's-1' });
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"result":{"t":"é✓"}}');
    expect(seen).toEqual([{ method: 'POST', url: '/mcp?x=1', type: 'application/json', body: POST.body }]);
  });

  it('hands chunks to the reader as they arrive, those that came with the headers first, and settles at the end', async () => {
    let finish: (() => void) | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('event: message\ndata: 1\n\n');
      finish = () => res.end('event: message\ndata: 2\n\n');
    });
    const res = await dispatchRequest(agent())(url, POST);
    // Nobody read yet: the first event waits in the response, not lost.
    await new Promise((r) => setTimeout(r, 50));
    const got: string[] = [];
    const done = res.read((chunk) => {
      got.push(chunk.toString('utf8'));
      if (got.length === 1) finish!();
    });
    await done;
    expect(got.join('')).toBe('event: message\ndata: 1\n\nevent: message\ndata: 2\n\n');
    await expect(res.read(() => undefined)).rejects.toThrow('the body was read already');
  });

  it('an abort before the request, or while its body is read, rejects with the signal’s reason', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const request = dispatchRequest(agent());
    const early = new AbortController();
    early.abort(new Error('gave up early'));
    await expect(request(url, { ...POST, signal: early.signal })).rejects.toThrow('gave up early');
    const later = new AbortController();
    const res = await request(url, { ...POST, signal: later.signal });
    const reading = res.read(() => undefined);
    later.abort(new Error('gave up while reading'));
    await expect(reading).rejects.toThrow('gave up while reading');
  });

  it('keeps its connections from one request to the next; dump() drops a small body, and cuts a body past its limit with its connection', async () => {
    let big = false;
    let bigSocket: Socket | undefined;
    const { url, sockets } = await serve((req, res) => {
      if (!big) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
      bigSocket = req.socket;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${'x'.repeat(64 * 1024)}\n\n`), 1);
      res.on('close', () => clearInterval(timer));
    });
    const request = dispatchRequest(agent());
    for (let i = 0; i < 10; i++) expect(await (await request(url, POST)).text()).toBe('not here');
    // Kept alive: one connection, or two where the next request was dispatched before the pool
    // had the first one back (undici's own request() does the same); never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
    await (await request(url, POST)).dump();
    big = true;
    const stream = await request(url, POST);
    await stream.dump(); // an endless stream: without the limit this never settles
    await new Promise<void>((resolve) => (bigSocket!.destroyed ? resolve() : bigSocket!.once('close', () => resolve())));
  });

  it('cancel() cuts a body still arriving (its reader sees the abort) and is nothing once the body ended', async () => {
    let open: Socket | undefined;
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (req.url?.includes('x=1')) {
        open = req.socket;
        res.write('data: 1\n\n'); // and the stream stays open
      } else res.end('data: done\n\n');
    });
    const request = dispatchRequest(agent());
    const endless = await request(url, POST);
    const reading = endless.read(() => endless.cancel());
    await expect(reading).rejects.toThrow('The response body was not wanted');
    await new Promise<void>((resolve) => (open!.destroyed ? resolve() : open!.once('close', () => resolve())));
    const ended = await request(new URL(url.href.replace('?x=1', '')), POST);
    expect(await ended.text()).toBe('data: done\n\n');
    ended.cancel();
  });

  it('rejects with undici’s error when the server cannot be reached, and a silent body fails at the agent’s body timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(': open\n\n'); // then nothing
    });
    const closed = new URL(url);
    closed.port = '1';
    await expect(dispatchRequest(agent())(closed, POST)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const res = await dispatchRequest(agent({ bodyTimeout: 200 }))(url, POST);
    await expect(res.text()).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });
});
