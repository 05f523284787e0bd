/**
 * Hub-side flow control (issue 17, item 7's hub half): an HTTP client that stops reading a stream
 * must not make the hub buffer without bound what a stdio child keeps writing, and nothing may be
 * lost. Real HTTP on loopback (a node:http request whose response is left unread, so the socket
 * fills), real child processes (the probe fixture's `flood` tool: MiBs of progress notifications
 * on the call's stream). The hub runs in this process, capture off (the inspector keeps what it
 * captured within caps of its own); what the hub holds is measured as the live JS heap + external
 * memory after a forced GC.
 *
 * - Per-session child: the hub stops reading the child's stdout, so the child itself is held back
 *   (it cannot finish writing while the client does not read); once the client reads, every
 *   message arrives, in order.
 * - Shared child: it is never held back for one client (that would stall every session on it);
 *   the slow stream is given up at its backlog cap with a JSON-RPC error, the other session is
 *   answered throughout.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isResponse, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { rawStream } from '../helpers/raw-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { messagesOf } from '../helpers/sse.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { floodHeldBack } from '../helpers/flood.js';
import { liveBytes, MiB } from '../helpers/memory.js';

const BYTES = 16 * 1024;


/** A `flood` call on a raw request whose response this test does not read until told to. */
async function flood(h: TestHub, client: TestClient, count: number, files: { doneFile: string; waitFile: string }) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: { count, bytes: BYTES, ...files }, _meta: { progressToken: 'flood' } } });
  return rawStream({
    port: h.port,
    method: 'POST',
    path: '/mcp/probe',
    headers: {
      ...h.authHeader(),
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'Mcp-Session-Id': client.sessionId!,
      'MCP-Protocol-Version': client.protocolVersion!,
    },
    body,
  });
}

function progressOf(messages: JsonRpcMessage[]): number[] {
  return messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
}

describe('hub flow control', () => {
  it('holds a per-session child back while its client does not read, stays bounded, and loses nothing', async () => {
    const COUNT = 3072; // 48 MiB: far more than the pipes and sockets between child and client hold
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    const client = await connect(h, 'probe');
    await client.tool('echo', { text: 'warm' });
    const dir = await tempDir('patchbay-backpressure-');
    const files = { doneFile: path.join(dir, 'done'), waitFile: path.join(dir, 'wait') };
    const before = liveBytes();

    const { res, reader } = await flood(h, client, COUNT, files);
    expect(res.statusCode).toBe(200);
    await floodHeldBack(files);
    const held = liveBytes() - before;
    // Real backpressure: the child could not write its flood out while nobody read it.
    expect(existsSync(files.doneFile)).toBe(false);

    const messages = messagesOf(await reader.rest(120_000));
    expect(progressOf(messages)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    const answer = messages.at(-1)!;
    expect(isResponse(answer) && answer.id === 1).toBe(true);
    expect(JSON.stringify(answer.result)).toContain(`flooded ${COUNT}`);
    expect(existsSync(files.doneFile)).toBe(true);
    console.log(`per-session flood: ${(COUNT * BYTES) / MiB} MiB; the hub held ${(held / MiB).toFixed(1)} MiB while its client did not read`);
    // Generous: the stream's replay store (≤ 8 MiB) and a few socket chunks. Without flow
    // control the hub held the whole flood (≥ 48 MiB).
    expect(held).toBeLessThan(24 * MiB);
  }, 300_000);

  it('shared child: a stream whose client does not read is given up at its cap with an error; the other session is answered meanwhile', async () => {
    const COUNT = 4096; // 64 MiB: past what the sockets hold plus the 16 MiB cap
    const h = await startHub({ servers: { probe: probeServer({ shared: true }) }, engine: { capture: false } });
    const slow = await connect(h, 'probe');
    const other = await connect(h, 'probe');
    await other.tool('echo', { text: 'warm' });
    const dir = await tempDir('patchbay-backpressure-');
    const files = { doneFile: path.join(dir, 'done'), waitFile: path.join(dir, 'wait') };
    const before = liveBytes();

    const { reader } = await flood(h, slow, COUNT, files);
    // The other session's calls are answered while the slow client reads nothing.
    for (let i = 0; i < 5; i++) expect(await other.tool('echo', { text: `other ${i}` })).toBe(`other ${i}`);
    // The shared child is not held back for one client: it writes its whole flood.
    await waitFor(() => existsSync(files.doneFile), 'the shared child to write its flood', 120_000, 50);
    const held = liveBytes() - before;

    const messages = messagesOf(await reader.rest(120_000));
    const progress = progressOf(messages);
    // What did reach the slow client is the beginning of the flood, in order, nothing skipped…
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(COUNT);
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
    // …and then its request's answer: an error that says why.
    const answer = messages.at(-1)!;
    expect(isResponse(answer) && answer.id === 1).toBe(true);
    expect(answer.error?.message).toMatch(/client stopped reading this stream/);
    expect(await other.tool('echo', { text: 'after' })).toBe('after');
    console.log(`shared flood: ${(COUNT * BYTES) / MiB} MiB; the slow stream got ${progress.length} before its cap; the hub held ${(held / MiB).toFixed(1)} MiB`);
    // The 16 MiB cap and the stream's replay store (≤ 8 MiB); without the cap, the whole flood.
    expect(held).toBeLessThan(40 * MiB);
  }, 300_000);
});
