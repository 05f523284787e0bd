// @ts-check
/**
 * The echo server's logic, shared by the stdio server (bench/echo-server.mjs) and the SDK's own
 * Streamable HTTP server (bench/sdk-http-server.mjs), so every target runs the same tool code:
 * the official SDK v2 `McpServer` with two tools.
 *
 *   echo {text}  → a text content block with the same text
 *   blob {bytes, json?} → a text content block of exactly `bytes` ASCII characters: `x`s, or
 *                         (`json: true`) JSON text, as a tool that returns data as text writes it
 *                         (in the message every quote of it is escaped: one escape every few bytes)
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** Largest blob the server will build (16 MiB): a typo must not eat the machine's memory. */
const MAX_BLOB = 16 * 1024 * 1024;
/** Built once per size and kind: the bench measures transport cost, not string building. */
/** @type {Map<string, string>} */
const blobs = new Map();

/** @param {number} bytes @param {boolean} json */
function blobOf(bytes, json) {
  const key = `${json ? 'json' : 'x'}:${bytes}`;
  let text = blobs.get(key);
  if (text === undefined) {
    text = json ? jsonText(bytes) : 'x'.repeat(bytes);
    blobs.set(key, text);
  }
  return text;
}

/** JSON text of records, cut to exactly `bytes` characters (a cut is still text). @param {number} bytes */
function jsonText(bytes) {
  /** @type {string[]} */
  const parts = [];
  let size = 0;
  for (let i = 0; size <= bytes; i++) {
    const part = JSON.stringify({ id: i, name: `item-${i}`, path: `/data/items/${i}.json`, ok: i % 2 === 0, tags: ['a', 'b'] });
    parts.push(part);
    size += part.length + 1;
  }
  return `[${parts.join(',')}]`.slice(0, bytes);
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
      inputSchema: z.object({ bytes: z.number().int().min(0).max(MAX_BLOB), json: z.boolean().optional() }),
    },
    async ({ bytes, json }) => ({ content: [{ type: 'text', text: blobOf(bytes, json === true) }] }),
  );
  return server;
}
