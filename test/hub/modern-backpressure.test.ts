/**
 * Flow control at the modern (2026-07-28) door (issue 17): a modern call cannot be held back for
 * one client — the bridge serves every modern client of a legacy server over a legacy session it
 * shares, and a modern stdio child is multiplexed — so a reply whose client stops reading gets the
 * cap-only bound a shared child's stream gets (test/hub/backpressure.test.ts, whose method this
 * file follows): once a write of it was refused and its backlog passed the hub's cap, the call is
 * answered with an error after what the client has yet to read, and cancelled upstream. A client
 * that is merely slow over one large message is not cut off for it.
 *
 * Real HTTP on loopback (raw 2026-07-28 POSTs whose response is left unread, so the socket fills),
 * real child processes (the probe fixture's `flood` tool, which with `cancelFile` stops when the
 * call is cancelled and says so), capture off; what the hub holds is measured as the live JS heap
 * + external memory after a forced GC.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { isResponse, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { rawStream } from '../helpers/raw-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { messagesOf, sseItemsOfText } from '../helpers/sse.js';
import { readSlowly } from '../helpers/slow-read.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { liveBytes, MiB } from '../helpers/memory.js';

const BYTES = 16 * 1024;
const MODERN = '2026-07-28';
/** One client identity for every request here: the bridge serves them all over one legacy session, one child. */
const CLIENT_INFO = { name: 'modern-backpressure', version: '1.0.0' };


function modernRequest(h: TestHub, id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}): { headers: Record<string, string>; body: string } {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {}, ...meta },
    },
  };
  const headers = { ...h.authHeader(), Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name };
  return { headers, body: JSON.stringify(body) };
}

/** A modern tools/call on a raw request whose response this test reads only when it wants to. */
function modernRaw(h: TestHub, id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return rawStream({ port: h.port, method: 'POST', path: '/mcp/probe', ...modernRequest(h, id, name, args, meta) });
}

/** A modern tools/call whose answer is read at once: its final message. */
async function modernTool(h: TestHub, id: number, name: string, args: Record<string, unknown>): Promise<JsonRpcMessage> {
  const { headers, body } = modernRequest(h, id, name, args);
  const res = await fetch(h.mcpUrl('probe'), { method: 'POST', headers, body });
  const { messages } = await messagesOfResponse(res, 20_000);
  const answer = messages.at(-1)!;
  expect(isResponse(answer) && answer.id === id).toBe(true);
  return answer;
}



function progressOf(messages: JsonRpcMessage[]): number[] {
  return messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
}

describe('modern door: flow control', () => {
  it('a bridged call whose client does not read is given up at the cap with an error and cancelled upstream; another client of the same child is answered meanwhile', async () => {
    const COUNT = 3072; // 48 MiB: far past what the sockets hold plus the 16 MiB cap
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    // The bridge's legacy session and its child exist before anything is measured.
    expect(toolText(await modernTool(h, 1, 'echo', { text: 'warm' }))).toBe('warm');
    const dir = await tempDir('patchbay-modern-backpressure-');
    const files = { doneFile: path.join(dir, 'done'), waitFile: path.join(dir, 'wait'), cancelFile: path.join(dir, 'cancelled') };
    const before = liveBytes();

    // From here the flooding client reads nothing until the flood is over.
    const { res, reader } = await modernRaw(h, 2, 'flood', { count: COUNT, bytes: BYTES, ...files }, { progressToken: 'flood' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    // Another modern client of the same child (same client info: the same legacy session) is answered meanwhile.
    for (let i = 0; i < 5; i++) expect(toolText(await modernTool(h, 10 + i, 'echo', { text: `other ${i}` }))).toBe(`other ${i}`);
    // The call is cancelled upstream (without the cap the child writes its whole flood instead).
    await waitFor(() => existsSync(files.cancelFile) || existsSync(files.doneFile), 'the flood to be cancelled', 30_000, 50);
    const held = liveBytes() - before;
    console.log(`modern bridged flood: ${(COUNT * BYTES) / MiB} MiB; the hub held ${(held / MiB).toFixed(1)} MiB while its client did not read`);
    // The 16 MiB cap, the legacy stream's replay store (≤ 8 MiB) and a few socket chunks; without
    // the cap, the whole flood (≥ 48 MiB).
    expect(held).toBeLessThan(40 * MiB);
    expect(existsSync(files.doneFile)).toBe(false);
    const cancelled = JSON.parse(readFileSync(files.cancelFile, 'utf8')) as { written: number; reason: string };
    expect(cancelled.reason).toBe('the client stopped reading');
    expect(cancelled.written).toBeLessThan(COUNT);

    const messages = messagesOf(await reader.rest(30_000));
    const progress = progressOf(messages);
    // What did reach the client is the beginning of the flood, in order, nothing skipped…
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(COUNT);
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
    // …and then its request's answer: an error that says why, the last thing on the stream.
    const answer = messages.at(-1)!;
    expect(isResponse(answer) && answer.id === 2).toBe(true);
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(/client stopped reading this stream/);
    expect(reader.ended).toBe(true);
    // The child goes on serving both.
    expect(toolText(await modernTool(h, 3, 'echo', { text: 'after' }))).toBe('after');
    console.log(`the slow client got ${progress.length} of ${COUNT} before its cap; the probe wrote ${cancelled.written}`);
  }, 60_000);

  it('a client slow over one large message is not cut off: a 20 MiB notification and a 20 MiB answer arrive whole', async () => {
    const BIG = 20 * MiB; // past the 16 MiB cap in one message
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    expect(toolText(await modernTool(h, 1, 'echo', { text: 'warm' }))).toBe('warm');
    const dir = await tempDir('patchbay-modern-backpressure-');

    // One 20 MiB progress notification (a stream), then the answer; the client starts reading late, and slowly.
    const doneFile = path.join(dir, 'done');
    const streamed = await modernRaw(h, 2, 'flood', { count: 1, bytes: BIG, doneFile }, { progressToken: 'big' });
    expect(streamed.res.statusCode).toBe(200);
    await waitFor(() => existsSync(doneFile), 'the probe to write its large notification and answer', 20_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const messages = messagesOf(await sseItemsOfText(await readSlowly(streamed.res)));
    expect(messages).toHaveLength(2);
    expect(progressOf(messages)).toEqual([1]);
    expect(((messages[0]!.params as { message: string }).message).length).toBe(BIG);
    expect(messages[1]!.id).toBe(2);
    expect(toolText(messages[1]!)).toBe('flooded 1');

    // A single 20 MiB answer (one JSON body), read late and slowly.
    const single = await modernRaw(h, 3, 'nested_ids', { bytes: BIG });
    expect(single.res.statusCode).toBe(200);
    expect(single.res.headers['content-type']).toMatch(/^application\/json/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answer = JSON.parse(await readSlowly(single.res)) as JsonRpcMessage;
    expect(answer.id).toBe(3);
    expect(answer.error).toBeUndefined();
    expect((answer.result as { structuredContent: { pad: string } }).structuredContent.pad.length).toBe(BIG);
  }, 60_000);
});
