/**
 * Issue 27: a remote upstream's requests are POSTed by the hub itself (remote-post.ts), on
 * kept-alive connections, and each answer goes on as the server wrote it, read as it arrives.
 * The server here is a few lines of node:http on loopback that speaks just enough Streamable
 * HTTP, so the test can see the connections it accepts and choose the exact text of its answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/core/log/logger.js';
import { resultPending } from '../../src/main/core/protocol/lazy-answer.js';
import { createRemoteUpstream } from '../../src/main/core/upstream/remote-connect.js';
import { createRemoteFetch } from '../../src/main/core/upstream/remote-fetch.js';
import type { RemoteUpstream } from '../../src/main/core/upstream/remote-upstream.js';
import type { UpstreamHttpExchange } from '../../src/main/core/upstream/upstream.js';
import { onCleanup } from '../helpers/cleanup.js';
import type { JsonRpcMessage } from '../helpers/json-rpc.js';
import { withTimeout } from '../helpers/waits.js';

/**
 * A tools/call answer as a server may write it: an escaped character and a number that
 * `JSON.stringify(JSON.parse(text))` would both write differently ("é", 1.5).
 */
function answerText(id: unknown, text: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"_meta":{"name":"caf\\u00e9","weight":1.50}}}`;
}

/** A 50 MB answer's text (PROTOCOL: large messages pass whole). */
const BIG = 'x'.repeat(50 * 1024 * 1024);
/** ASCII for a few chunks, then 2-, 3- and 4-byte characters (what a decoding shortcut for ASCII must hand over). */
const WIDE = `${'x'.repeat(200_000)}${'é☃😀'.repeat(30_000)}`;

interface MiniServer {
  url: string;
  /** How many TCP connections carried the tools/call POSTs so far. */
  callConnections(): number;
  /** POSTs of `tools/call` so far. */
  calls(): number;
  /** While set, a tools/call's SSE stream writes a progress notification and waits for this before its answer. */
  hold: Promise<void> | undefined;
}

async function startMiniServer(): Promise<MiniServer> {
  const sockets = new Set<Socket>();
  const sampled = new Map<unknown, (reply: string) => void>();
  let calls = 0;
  const state: MiniServer = { url: '', callConnections: () => sockets.size, calls: () => calls, hold: undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method?: string; params?: { arguments?: { text?: string } }; result?: { content?: { text?: string } } };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === undefined) {
        // The client's answer to the server's request (sampling, below).
        sampled.get(message.id)?.(message.result?.content?.text ?? '');
        return void res.writeHead(202).end();
      }
      if (message.method === 'initialize') {
        const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'mini', version: '1' } };
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'mini-session' });
        return void res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }
      calls++;
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = message.params?.arguments?.text ?? '';
      if (text === 'wide') {
        // Written in pieces cut inside multi-byte characters, each flushed apart from the next.
        const bytes = Buffer.from(`event: message\ndata: ${answerText(message.id, WIDE)}\n\n`);
        const cuts = [65_536, 131_072, 200_101, 200_102, 250_003, 300_001, bytes.length];
        let from = 0;
        const next = (): void => {
          const to = cuts.shift()!;
          const last = to === bytes.length;
          res.write(bytes.subarray(from, to), () => (last ? res.end() : setImmediate(next)));
          from = to;
        };
        return next();
      }
      const answer = (): void => void res.end(`event: message\ndata: ${answerText(message.id, text === 'big' ? BIG : text)}\n\n`);
      if (text === 'sample') {
        // A server request in the middle of the call, on its stream; the answer waits for the client's.
        const id = `s-${String(message.id)}`;
        res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}\n\n`);
        sampled.set(id, (reply) => void res.end(`event: message\ndata: ${answerText(message.id, `sampled: ${reply}`)}\n\n`));
        return;
      }
      const hold = state.hold;
      if (!hold) return answer();
      res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n`);
      void hold.then(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  onCleanup(() => server.closeAllConnections());
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return state;
}

/** A remote upstream to the mini server, initialized; every message it forwards is collected with its text. */
type Answer = { message: JsonRpcMessage; raw: string };

/** The text of an echo answer. */
function echoed(message: JsonRpcMessage): string | undefined {
  return (message as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text;
}

async function connected(server: MiniServer): Promise<{ upstream: RemoteUpstream; received: Answer[]; exchanges: UpstreamHttpExchange[]; next(id: number | string): Promise<Answer>; echo(id: number, text: string): Promise<Answer> }> {
  const config = { url: server.url };
  const upstream = createRemoteUpstream('mini', config, config, { fetch: createRemoteFetch({}), logger: createLogger('test') });
  onCleanup(() => upstream.close());
  const received: Answer[] = [];
  const exchanges: UpstreamHttpExchange[] = [];
  const waiters = new Map<unknown, (m: Answer) => void>();
  upstream.onmessage = (message, raw) => {
    const entry = { message: message as JsonRpcMessage, raw };
    received.push(entry);
    waiters.get((message as { id?: unknown }).id)?.(entry);
  };
  upstream.onevent = (event) => {
    if (event.type === 'http') exchanges.push(event.exchange);
  };
  const next = (id: number | string): Promise<Answer> => withTimeout(new Promise((resolve) => waiters.set(id, resolve)), 10_000, `the answer to ${id}`);
  const initialized = next(0);
  upstream.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  await initialized;
  upstream.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  /** A tools/call of the mini server's echo, and its answer. */
  const echo = (id: number, text: string): Promise<Answer> => {
    const answered = next(id);
    upstream.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    return answered;
  };
  return { upstream, received, exchanges, next, echo };
}

describe('a remote upstream POSTs its requests itself (issue 27)', () => {
  it('forwards each answer with the text the server wrote, not serialized again', async () => {
    const server = await startMiniServer();
    const { echo, exchanges } = await connected(server);
    const { message, raw } = await echo(1, 'hello');
    expect(raw).toBe(answerText(1, 'hello'));
    expect((message as { result?: { _meta?: unknown } }).result?._meta).toEqual({ name: 'café', weight: 1.5 });
    // The POST is still reported to observers, with its id known without reading the body again.
    expect(exchanges.at(-1)).toMatchObject({ method: 'POST', status: 200, ids: [1] });
  });

  it('sequential calls reuse kept-alive connections', async () => {
    const server = await startMiniServer();
    const { echo } = await connected(server);
    const n = 40;
    for (let id = 1; id <= n; id++) expect((await echo(id, `n${id}`)).raw).toBe(answerText(id, `n${id}`));
    expect(server.calls()).toBe(n);
    // A connection per call without keep-alive. With it, one, or two when the next call is sent
    // while the last answer's stream is still closing (the answer is forwarded as soon as it is
    // read, before the end of its body, so that connection may still be busy for a moment).
    expect(server.callConnections()).toBeLessThanOrEqual(2);
  });

  it('forwards a notification on the answer stream before the answer has come', async () => {
    const server = await startMiniServer();
    const { upstream, next, received } = await connected(server);
    let release!: () => void;
    server.hold = new Promise<void>((resolve) => (release = resolve));
    const progressed = new Promise<void>((resolve) => {
      const previous = upstream.onmessage!;
      upstream.onmessage = (message, raw, local) => {
        previous(message, raw, local);
        if ((message as { method?: string }).method === 'notifications/progress') resolve();
      };
    });
    const answered = next(5);
    upstream.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'later' } } });
    await withTimeout(progressed, 10_000, 'the progress notification');
    expect(received.some((r) => (r.message as { id?: unknown }).id === 5)).toBe(false);
    release();
    expect((await answered).raw).toBe(answerText(5, 'later'));
  });

  it('a 50 MB answer arrives whole, with the text the server wrote', async () => {
    const server = await startMiniServer();
    const { echo } = await connected(server);
    const { message, raw } = await echo(9, 'big');
    // Routed on a skim and handed on unparsed (lazy-answer.ts); it reads as the text when asked.
    expect(resultPending(message)).toBe(true);
    expect(raw.length).toBe(answerText(9, BIG).length);
    expect(raw === answerText(9, BIG)).toBe(true);
    expect(echoed(message)?.length).toBe(BIG.length);
  });

  it('an answer that turns from ASCII to multi-byte characters after a few chunks, cut inside characters, arrives as written', async () => {
    const server = await startMiniServer();
    const { echo } = await connected(server);
    const { message, raw } = await echo(10, 'wide');
    expect(resultPending(message)).toBe(true);
    expect(raw === answerText(10, WIDE)).toBe(true);
    expect(echoed(message) === WIDE).toBe(true);
  });

  it('a server request in the middle of a call reaches the client, and the call is answered after the client answers it', async () => {
    const server = await startMiniServer();
    const { upstream, next, received } = await connected(server);
    const answered = next(3);
    upstream.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'sample' } } });
    const asked = await next('s-3');
    expect((asked.message as { method?: string }).method).toBe('sampling/createMessage');
    expect(received.some((r) => (r.message as { id?: unknown }).id === 3)).toBe(false);
    upstream.send({ jsonrpc: '2.0', id: 's-3', result: { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } } });
    expect((await answered).raw).toBe(answerText(3, 'sampled: hi'));
  });
});
