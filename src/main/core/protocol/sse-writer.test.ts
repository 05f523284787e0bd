/**
 * The one SSE writer: its framing, and how it judges a reader's pace (PROTOCOL Q13) — by what the
 * reader fails to take over time, never by the size of one message. Real HTTP on loopback: a
 * node:http server whose response the test writes to, and a client socket that reads only when
 * the test lets it. Time is passed in (`now`), so nothing here waits on the clock.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseWriter } from './sse-writer.js';

const MiB = 1024 * 1024;

interface Pair {
  writer: SseWriter;
  res: ServerResponse;
  /** The client's side: paused until `read()`. */
  incoming: IncomingMessage;
  /** Reads everything until the response ends. */
  readAll(): Promise<string>;
}

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function pair(): Promise<Pair> {
  const got = new Promise<ServerResponse>((resolve) => {
    server = createServer((_req, res) => resolve(res));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const port = (server!.address() as AddressInfo).port;
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, resolve);
    req.on('error', reject);
    req.end();
  });
  const res = await got;
  const writer = new SseWriter(res);
  writer.open({ 'X-Test': '1' });
  const incoming = await answered;
  incoming.pause();
  return {
    writer,
    res,
    incoming,
    readAll: () =>
      new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        incoming.resume();
      }),
  };
}

/** Waits until the socket takes nothing more (the backlog holds still over a few turns). */
async function settled(writer: SseWriter): Promise<void> {
  let last = -1;
  let still = 0;
  while (still < 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    still = writer.backlog === last ? still + 1 : 0;
    last = writer.backlog;
  }
}

const limits = { maxBacklogBytes: 4 * MiB, stallMs: 10_000 };

describe('SseWriter', () => {
  it('frames events, priming events and comments as the spec writes them, headers first', async () => {
    const p = await pair();
    expect(p.incoming.headers['content-type']).toBe('text/event-stream');
    expect(p.incoming.headers['x-test']).toBe('1');
    p.writer.event('{"a":1}', 's-1');
    p.writer.event('hello', undefined, 'endpoint');
    p.writer.prime('s-0');
    p.writer.comment('keepalive');
    p.writer.comment();
    p.writer.end('bye');
    expect(await p.readAll()).toBe('id: s-1\nevent: message\ndata: {"a":1}\n\nevent: endpoint\ndata: hello\n\nid: s-0\ndata: \n\n: keepalive\n\n:\n\n: bye\n\n');
  });

  it('one huge event to a reader that takes its time is never a stall, however long it takes', async () => {
    const p = await pair();
    const t0 = Date.now();
    expect(p.writer.event('x'.repeat(20 * MiB))).toBe(false);
    expect(p.writer.blocked).toBe(true);
    // What follows it is small: nothing waits behind the event being read beyond it.
    p.writer.event('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(p.writer.queued).toBeLessThan(1024);
    expect(p.writer.stalled(limits, t0 + 3_600_000)).toBe(false);
  });

  it('more than the cap behind the current event: stalled only once the reader took nothing for stallMs', async () => {
    // The writer's last progress is somewhere between `before` (the stream opened) and `after`
    // (the socket's last take): the bounds hold however long a busy machine takes in between.
    const before = Date.now();
    const p = await pair();
    const chunk = 'y'.repeat(64 * 1024);
    // Enough to fill the sockets and pile 6 MiB (over the 4 MiB cap, under twice it) behind the head.
    while (p.writer.backlog < 7 * MiB) p.writer.event(chunk);
    const after = Date.now();
    expect(p.writer.blocked).toBe(true);
    expect(p.writer.queued).toBeGreaterThan(limits.maxBacklogBytes);
    expect(p.writer.queued).toBeLessThan(2 * limits.maxBacklogBytes);
    expect(p.writer.stalled(limits, after)).toBe(false);
    expect(p.writer.stalled(limits, before + limits.stallMs - 1)).toBe(false);
    expect(p.writer.stalled(limits, after + limits.stallMs + 1)).toBe(true);
  });

  it('a reader that keeps taking is not stalled, even late', async () => {
    const p = await pair();
    const t0 = Date.now();
    const chunk = 'z'.repeat(64 * 1024);
    while (p.writer.backlog < 7 * MiB) p.writer.event(chunk);
    expect(p.writer.stalled(limits, t0)).toBe(false);
    // The reader takes some, then stops: the time counts from when it last took something.
    const before = p.writer.backlog;
    p.incoming.resume();
    while (p.writer.backlog >= before) await new Promise((resolve) => setImmediate(resolve));
    p.incoming.pause();
    const t1 = t0 + 60_000;
    // Taken since the last look: progress, so not stalled however late it is asked.
    expect(p.writer.stalled(limits, t1)).toBe(false);
    // Then it takes nothing more (the sockets settle full): stalled once stallMs have passed.
    while (p.writer.backlog < 7 * MiB) p.writer.event(chunk);
    await settled(p.writer);
    expect(p.writer.stalled(limits, t1 + 1)).toBe(false);
    expect(p.writer.stalled(limits, t1 + limits.stallMs + 1)).toBe(true);
  });

  it('more than twice the cap piled up behind the current event: stalled at once (the memory bound)', async () => {
    const p = await pair();
    const t0 = Date.now();
    const chunk = 'w'.repeat(64 * 1024);
    while (p.writer.backlog < 11 * MiB) p.writer.event(chunk);
    expect(p.writer.queued).toBeGreaterThan(2 * limits.maxBacklogBytes);
    expect(p.writer.stalled(limits, t0)).toBe(true);
  });
});
