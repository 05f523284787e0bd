#!/usr/bin/env node
// @ts-check
/**
 * The floor: the echo server (bench/lib/echo-logic.mjs) served in-process by the official SDK's
 * own Streamable HTTP server transport (`@modelcontextprotocol/node`), stateful, one `McpServer`
 * + transport per session — the SDK's documented pattern. Loopback only.
 *
 *   node bench/sdk-http-server.mjs --port N [--json | --modern]
 *
 * --port 0 picks a free port (printed as "listening <port>"). --json answers requests with
 * application/json instead of an SSE stream (`enableJsonResponse`), for a diagnostic row.
 * --modern serves revision 2026-07-28 with the SDK's own `createMcpHandler` (sessionless, a
 * fresh server per request, legacy traffic refused): the floor for the hub's modern rows.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createEchoServer } from './lib/echo-logic.mjs';

const portArg = process.argv.indexOf('--port');
const port = portArg === -1 ? 0 : Number(process.argv[portArg + 1]);
const json = process.argv.includes('--json');
const modern = process.argv.includes('--modern')
  ? toNodeHandler(createMcpHandler(() => createEchoServer(), { legacy: 'reject' }))
  : undefined;

/** @type {Map<string, NodeStreamableHTTPServerTransport>} */
const transports = new Map();

const http = createServer(async (req, res) => {
  try {
    const url = req.url ?? '/';
    if (url === '/health') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (!url.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    if (modern) {
      await modern(req, res);
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId) {
      const transport = transports.get(sessionId);
      if (!transport) {
        res
          .writeHead(404, { 'Content-Type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
        return;
      }
      await transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end();
      return;
    }
    // A request without a session id must be an initialize: a new server + transport for it.
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
      },
    });
    const server = createEchoServer();
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(err) } }),
    );
  }
});
http.keepAliveTimeout = 65_000;
http.listen(port, '127.0.0.1', () => {
  const address = http.address();
  process.stdout.write(
    `listening ${typeof address === 'object' && address ? address.port : port}\n`,
  );
});
const stop = () => {
  for (const t of transports.values()) void t.close();
  http.close();
  http.closeAllConnections();
  setTimeout(() => process.exit(0), 200).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
