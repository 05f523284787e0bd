/**
 * A 2026-07-28 remote's answers reach a 2026-07-28 client through the hub as the server wrote
 * them (PROTOCOL Q11, fidelity): its spacing, key order and escapes, in a JSON body, in an SSE
 * stream after a notification, and at 1 MiB (routed on a skim, protocol/lazy-answer.ts). Only a
 * server that answers under another id gets its answer written again, under the client's id.
 *
 * The server is written by hand on node:http (a real server on loopback, no SDK), so its bytes
 * are known; the hub's entry pins it to the modern era (`protocol: "modern"`), so no probe is
 * needed before the first call.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { post } from '../helpers/mcp-http.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const MODERN = '2026-07-28';
const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** Bytes as a careless but valid server writes them: spaces, keys in its own order, escapes. */
const odd = (id: number | string, text: string): string => `{ "result" : {"resultType":"complete","content":[ {"type":"text","text":"${text}"} ],"isError":false} ,"id":${JSON.stringify(id)}, "jsonrpc":"2.0" }`;

async function rawModernServer(): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const m = JSON.parse(body) as { id: number | string; method: string; params: { name?: string; arguments?: { bytes?: number } } };
      if (m.method !== 'tools/call') {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no ${m.method} here` } }));
        return;
      }
      switch (m.params.name) {
        case 'json':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(odd(m.id, 'caf\\u00e9 \\/ \\"q\\"'));
          return;
        case 'sse':
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"w\\u00f6rking"}}\n\n`);
          res.end(`event: message\ndata: ${odd(m.id, 'done \\u2713')}\n\n`);
          return;
        case 'big':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(odd(m.id, 'x'.repeat(m.params.arguments?.bytes ?? 0)));
          return;
        case 'other-id':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(odd('not-yours', 'answered under another id'));
          return;
        default:
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'unknown tool' } }));
      }
    });
  });
  return `http://127.0.0.1:${await listenOnLoopback(server)}/mcp`;
}

function call(h: TestHub, id: number, name: string, args: Record<string, unknown> = {}): Promise<Response> {
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope } };
  return post(h, 'remote', body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name } });
}

/** The `data:` lines of an SSE body, in order. */
function dataOf(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice('data: '.length));
}

describe('a 2026-07-28 remote’s answers, through the hub', () => {
  it('go on as the server wrote them: a JSON body, an SSE stream after a notification, 1 MiB; under another id, written again under the client’s', async () => {
    const url = await rawModernServer();
    const h = await startHub({ servers: { remote: { url, protocol: 'modern' } } });

    const json = await call(h, 1, 'json');
    expect(json.status).toBe(200);
    expect(await json.text()).toBe(odd(1, 'caf\\u00e9 \\/ \\"q\\"'));

    const sse = await call(h, 2, 'sse');
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(dataOf(await sse.text())).toEqual([`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"w\\u00f6rking"}}`, odd(2, 'done \\u2713')]);

    const bytes = 1024 * 1024;
    const big = await call(h, 3, 'big', { bytes });
    expect(await big.text()).toBe(odd(3, 'x'.repeat(bytes)));

    const other = await call(h, 4, 'other-id');
    const answer = (await other.json()) as { id: unknown; result: { content: Array<{ text: string }> } };
    expect(answer.id).toBe(4);
    expect(answer.result.content[0]!.text).toBe('answered under another id');
  });
});
