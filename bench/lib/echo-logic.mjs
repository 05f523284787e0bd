// @ts-check
/**
 * The echo server's logic, shared by the stdio server (bench/echo-server.mjs) and the SDK's own
 * Streamable HTTP server (bench/sdk-http-server.mjs), so every target runs the same tool code:
 * the official SDK v2 `McpServer` with two tools.
 *
 *   echo {text}  → a text content block with the same text
 *   blob {bytes} → a text content block of exactly `bytes` ASCII characters
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** Largest blob the server will build (16 MiB): a typo must not eat the machine's memory. */
const MAX_BLOB = 16 * 1024 * 1024;
/** Built once per size: the bench measures transport cost, not string building. */
/** @type {Map<number, string>} */
const blobs = new Map();

/** @param {number} bytes */
function blobOf(bytes) {
  let text = blobs.get(bytes);
  if (text === undefined) {
    text = 'x'.repeat(bytes);
    blobs.set(bytes, text);
  }
  return text;
}

export function createEchoServer() {
  const server = new McpServer({ name: 'patchbay-bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its text argument', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'blob',
    {
      description: 'Returns a text of the given size in bytes',
      inputSchema: z.object({ bytes: z.number().int().min(0).max(MAX_BLOB) }),
    },
    async ({ bytes }) => ({ content: [{ type: 'text', text: blobOf(bytes) }] }),
  );
  return server;
}
