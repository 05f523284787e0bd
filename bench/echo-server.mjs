#!/usr/bin/env node
// @ts-check
/**
 * Minimal stdio MCP echo server for the benchmark, built on the official SDK v2 server
 * (`McpServer` + `StdioServerTransport`); tools in bench/lib/echo-logic.mjs. It exits when its
 * stdin closes, as a well-behaved stdio server does, so a gateway's shutdown is not padded
 * with a kill timeout.
 *
 * --dual-era serves both protocol eras with the SDK's `serveStdio` (the opening message pins
 * the connection's era): the server the hub's modern pass-through row talks 2026-07-28 to.
 */
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createEchoServer } from './lib/echo-logic.mjs';

if (process.argv.includes('--dual-era')) {
  serveStdio(() => createEchoServer());
} else {
  const server = createEchoServer();
  await server.connect(new StdioServerTransport());
}
process.stdin.once('end', () => process.exit(0));
process.stdin.once('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
