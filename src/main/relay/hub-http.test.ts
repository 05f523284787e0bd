/**
 * The relay's own HTTP/1.1 client (hub-http.ts, hub-response.ts) against real servers on
 * loopback: kept-alive connections reused, an idle connection the server closed replaced without
 * the caller seeing it, "nothing listens there" told apart, and response framing read correctly
 * however the bytes are split.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleSockets, httpCall, HttpCallError, readText } from './hub-http.js';
import { ResponseParser, type ResponseHead } from './hub-response.js';
import { waitFor } from '../../../test/helpers/waits.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  closeIdleSockets();
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function listen(server: http.Server | net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    if (server instanceof http.Server) server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('httpCall', () => {
  it('reuses one kept-alive connection for sequential requests, and sends the body as written', async () => {
    let connections = 0;
    const bodies: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      });
    });
    server.on('connection', () => connections++);
    const url = await listen(server);
    for (const body of ['{"a":1}', '{"id":12345678901234567890}', 'ü'.repeat(100_000)]) {
      const res = await httpCall({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body });
      expect(res.statusCode).toBe(200);
      expect(await readText(res, Number.MAX_SAFE_INTEGER)).toBe(body);
    }
    expect(bodies[1]).toBe('{"id":12345678901234567890}');
    expect(connections).toBe(1);
  });

  it('replaces an idle connection the server closed, without the caller seeing it', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    server.keepAliveTimeout = 50;
    let closed = 0;
    server.on('connection', (socket: net.Socket) => socket.once('close', () => closed++));
    const url = await listen(server);
    expect(await readText(await httpCall({ method: 'GET', url, headers: {} }))).toBe('ok');
    // The server closes the idle kept-alive connection (its keepAliveTimeout): wait for that.
    await waitFor(() => closed === 1, 'the server to close the idle connection');
    expect(await readText(await httpCall({ method: 'GET', url, headers: {} }))).toBe('ok');
  });

  it('says "unreachable" when nothing listens, and refuses a header with a line break', async () => {
    const probe = net.createServer();
    const url = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = await httpCall({ method: 'GET', url, headers: {} }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpCallError);
    expect((refused as HttpCallError).unreachable).toBe(true);
    const bad = await httpCall({ method: 'GET', url, headers: { 'Mcp-Session-Id': 'a\r\nX-Evil: 1' } }).catch((err: unknown) => err);
    expect((bad as HttpCallError).unreachable).toBe(false);
  });

  it('reads a body that runs until the connection ends', async () => {
    const server = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it'));
    });
    const url = await listen(server);
    const res = await httpCall({ method: 'GET', url, headers: {} });
    expect(await readText(res)).toBe('all of it');
    expect(res.complete).toBe(true);
  });
});

describe('ResponseParser', () => {
  const wire = Buffer.from(
    'HTTP/1.1 100 Continue\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nX-Two: a\r\nx-two: b\r\n\r\n' +
      '5;ext=1\r\nhello\r\n' +
      'a\r\n, world!!!\r\n' +
      '0\r\nTrailer: t\r\n\r\n',
  );

  it('frames a chunked response the same however the bytes are split', () => {
    for (let size = 1; size <= wire.length; size++) {
      let head: ResponseHead | undefined;
      const body: Buffer[] = [];
      let done = 0;
      const parser = new ResponseParser('POST', { head: (h) => (head = h), body: (b) => body.push(Buffer.from(b)), done: () => done++ });
      for (let at = 0; at < wire.length; at += size) parser.push(wire.subarray(at, at + size));
      expect(head?.statusCode).toBe(200);
      expect(head?.headers['x-two']).toBe('a');
      expect(Buffer.concat(body).toString()).toBe('hello, world!!!');
      expect(done).toBe(1);
      expect(parser.leftover).toBe(false);
    }
  });

  it('ends a Content-Length body at its length and notices bytes after it', () => {
    const bodies: string[] = [];
    const parser = new ResponseParser('GET', { head: () => undefined, body: (b) => bodies.push(b.toString()), done: () => undefined });
    parser.push(Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabcEXTRA'));
    expect(bodies.join('')).toBe('abc');
    expect(parser.finished).toBe(true);
    expect(parser.leftover).toBe(true);
  });

  it('rejects what is not HTTP', () => {
    const parser = new ResponseParser('GET', { head: () => undefined, body: () => undefined, done: () => undefined });
    expect(() => parser.push(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP/);
  });
});
