#!/usr/bin/env node
// @ts-check
/**
 * A hand-rolled stdio MCP server for bench/profiles.mjs: `echo` plus TOOLS generated tools
 * (default 0), each with a realistic description and schema, so a profile of several of them
 * has a tools/list the size real servers produce. No SDK: it boots in a few milliseconds.
 *
 *   node bench/many-tools-server.mjs [TOOLS] [--bench-run=…]
 */
import { createInterface } from 'node:readline';

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 0);
/** @type {Array<{ name: string, description: string, inputSchema: Record<string, unknown> }>} */
const TOOLS = [
  { name: 'echo', description: 'Returns its text argument', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];
for (let i = 1; i <= count; i++) {
  TOOLS.push({
    name: `tool_${String(i).padStart(3, '0')}`,
    description: `Looks up record ${i} in the catalogue and returns it with its history. Use it when the user asks about item ${i}; pass the id and, optionally, how many history entries to include.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The record id' },
        history: { type: 'integer', minimum: 0, maximum: 100, description: 'History entries to include' },
        format: { type: 'string', enum: ['json', 'text'], description: 'Answer format' },
      },
      required: ['id'],
    },
  });
}

/** @param {unknown} id @param {unknown} result */
const reply = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined || typeof msg.method !== 'string') return;
  switch (msg.method) {
    case 'initialize':
      return reply(msg.id, { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'many-tools', version: '1.0.0' } });
    case 'tools/list':
      return reply(msg.id, { tools: TOOLS });
    case 'tools/call':
      return reply(msg.id, { content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? msg.params?.arguments?.id ?? '') }] });
    case 'ping':
      return reply(msg.id, {});
    default:
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } }) + '\n');
  }
});
process.stdin.on('end', () => process.exit(0));
