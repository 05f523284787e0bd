#!/usr/bin/env node
// @ts-check
/**
 * The same echo server as bench/echo-server.mjs, hand-rolled: newline-delimited JSON-RPC with no
 * SDK, so it boots in a fraction of the time. Used only by the `hub-rawecho` diagnostic row, to
 * separate what the hub costs when it opens a session from what booting an SDK server costs.
 */
import { createInterface } from 'node:readline';

const MAX_BLOB = 16 * 1024 * 1024;
const TOOLS = [
  {
    name: 'echo',
    description: 'Returns its text argument',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'blob',
    description: 'Returns a text of the given size in bytes',
    inputSchema: {
      type: 'object',
      properties: { bytes: { type: 'integer', minimum: 0, maximum: MAX_BLOB } },
      required: ['bytes'],
    },
  },
];

/** @param {unknown} id @param {unknown} result */
const reply = (id, result) =>
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
/** @param {unknown} id @param {number} code @param {string} message */
const fail = (id, code, message) =>
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n');

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  /** @type {any} */
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return fail(null, -32700, 'Parse error');
  }
  if (m.id === undefined || typeof m.method !== 'string') return; // notifications and responses
  switch (m.method) {
    case 'initialize':
      return reply(m.id, {
        protocolVersion: m.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'patchbay-bench-echo-raw', version: '1.0.0' },
      });
    case 'ping':
      return reply(m.id, {});
    case 'tools/list':
      return reply(m.id, { tools: TOOLS });
    case 'tools/call': {
      const args = m.params?.arguments ?? {};
      if (m.params?.name === 'echo' && typeof args.text === 'string')
        return reply(m.id, { content: [{ type: 'text', text: args.text }] });
      if (
        m.params?.name === 'blob' &&
        Number.isInteger(args.bytes) &&
        args.bytes >= 0 &&
        args.bytes <= MAX_BLOB
      )
        return reply(m.id, { content: [{ type: 'text', text: 'x'.repeat(args.bytes) }] });
      return fail(m.id, -32602, 'Invalid params');
    }
    default:
      return fail(m.id, -32601, `Method not found: ${m.method}`);
  }
});
rl.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
