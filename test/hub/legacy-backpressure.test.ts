/**
 * Flow control at the legacy HTTP+SSE door (P33): every stream of a `/sse` session — the
 * standalone one and one per POST that carries requests — writes to the one GET response, and a
 * client that stops reading that response must hold its server back (a per-session child) or be
 * given up at the stream cap (a shared child), as at `/mcp` (test/hub/backpressure.test.ts, whose
 * method this file follows): real HTTP on loopback (a raw GET whose event stream is left unread, so
 * the socket fills; POSTs with fetch, answered 202), real child processes (the probe fixture's
 * `flood` tool), capture off, and what the hub holds measured as the live JS heap + external memory
 * after a forced GC.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { floodHeldBack, type FloodFiles } from '../helpers/flood.js';
import { initializeRequest, isResponse, toolCall, toolText, type JsonRpcId, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { rawStream } from '../helpers/raw-http.js';
import { probeServer } from '../helpers/server-entries.js';
import type { SseReader } from '../helpers/sse.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { liveBytes, MiB } from '../helpers/memory.js';

const BYTES = 16 * 1024;


/** A 2024-11-05 client on raw HTTP: its event stream is read only when the test says so. */
interface LegacyClient {
  reader: SseReader;
  /** POSTs one message to the endpoint the stream named; the hub answers 202. */
  post(message: JsonRpcMessage): Promise<void>;
  /** Reads the event stream until every request in `ids` is answered; every message read, in order. */
  readUntilAnswered(ids: JsonRpcId[], timeoutMs?: number): Promise<JsonRpcMessage[]>;
  /** A tools/call, answered on the stream (read at once). */
  tool(id: JsonRpcId, name: string, args: Record<string, unknown>): Promise<string>;
}

/** `GET /sse/probe`, then initialize + notifications/initialized through `/messages`. */
async function legacyClient(h: TestHub): Promise<LegacyClient> {
  const { res, reader } = await rawStream({ port: h.port, path: '/sse/probe', headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
  expect(res.statusCode).toBe(200);
  const first = await reader.nextEvent();
  expect(first).toMatchObject({ kind: 'event', event: 'endpoint' });
  const url = new URL(first!.data, h.url);
  const post = async (message: JsonRpcMessage): Promise<void> => {
    const answer = await fetch(url, { method: 'POST', headers: { ...h.authHeader(), 'Content-Type': 'application/json' }, body: JSON.stringify(message) });
    expect(answer.status).toBe(202);
    await answer.text();
  };
  const readUntilAnswered = async (ids: JsonRpcId[], timeoutMs = 30_000): Promise<JsonRpcMessage[]> => {
    const deadline = Date.now() + timeoutMs;
    const waiting = new Set(ids);
    const out: JsonRpcMessage[] = [];
    while (waiting.size > 0) {
      const next = await reader.nextMessage(Math.max(1, deadline - Date.now()));
      if (!next) throw new Error(`the event stream ended before the answers to ${[...waiting].join(', ')}`);
      out.push(next.message);
      if (isResponse(next.message) && next.message.id !== null && next.message.id !== undefined) waiting.delete(next.message.id);
    }
    return out;
  };
  await post(initializeRequest(0, '2024-11-05'));
  const init = await readUntilAnswered([0]);
  expect(init.at(-1)).toMatchObject({ id: 0, result: { protocolVersion: '2024-11-05' } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    reader,
    post,
    readUntilAnswered,
    async tool(id, name, args) {
      await post(toolCall(id, name, args));
      return toolText((await readUntilAnswered([id])).at(-1)!);
    },
  };
}

function floodCall(id: JsonRpcId, token: string, count: number, files: FloodFiles): JsonRpcMessage {
  return toolCall(id, 'flood', { count, bytes: BYTES, ...files }, { progressToken: token });
}

async function floodFiles(name: string): Promise<FloodFiles> {
  const dir = await tempDir('patchbay-legacy-backpressure-');
  return { doneFile: path.join(dir, `${name}.done`), waitFile: path.join(dir, `${name}.wait`) };
}

/** The progress numbers of one token's notifications, in the order they arrived. */
function progressOf(messages: JsonRpcMessage[], token: string): number[] {
  return messages
    .filter((m) => m.method === 'notifications/progress' && m.params?.progressToken === token)
    .map((m) => (m.params as { progress: number }).progress);
}

/** Process warnings while `run` runs (a listener leak shows as a MaxListenersExceededWarning). */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    await run();
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

describe('legacy HTTP+SSE door: flow control', () => {
  it('holds a per-session child back while its client does not read the event stream, stays bounded, and loses nothing', async () => {
    const COUNT = 3072; // 48 MiB: far more than the pipes and sockets between child and client hold
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    const client = await legacyClient(h);
    expect(await client.tool(1, 'echo', { text: 'warm' })).toBe('warm');
    const files = await floodFiles('flood');
    let held = 0;

    const warnings = await warningsDuring(async () => {
      const before = liveBytes();
      // From here the client reads nothing until the flood stands still.
      await client.post(floodCall(2, 'flood', COUNT, files));
      await floodHeldBack(files);
      held = liveBytes() - before;
      // Real backpressure: the child could not write its flood out while nobody read the stream.
      expect(existsSync(files.doneFile)).toBe(false);

      const messages = await client.readUntilAnswered([2]);
      expect(progressOf(messages, 'flood')).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      const answer = messages.at(-1)!;
      expect(answer.id).toBe(2);
      expect(toolText(answer)).toBe(`flooded ${COUNT}`);
      expect(existsSync(files.doneFile)).toBe(true);
      // The session goes on as before.
      expect(await client.tool(3, 'echo', { text: 'after' })).toBe('after');
    });
    expect(warnings).toEqual([]);
    console.log(`legacy per-session flood: ${(COUNT * BYTES) / MiB} MiB; the hub held ${(held / MiB).toFixed(1)} MiB while its client did not read`);
    // Generous: the stream's replay store (≤ 8 MiB) and a few socket chunks. Without flow control
    // at this door the hub held the whole flood (≥ 48 MiB).
    expect(held).toBeLessThan(24 * MiB);
  }, 60_000);

  it('two request streams on the one response: both are held back, both go on at its drain, each keeps its order', async () => {
    const COUNT = 1536; // 24 MiB each, written by one child at once: both streams block on the one response
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    const client = await legacyClient(h);
    expect(await client.tool(1, 'echo', { text: 'warm' })).toBe('warm');
    const a = await floodFiles('a');
    const b = await floodFiles('b');
    let held = 0;

    const warnings = await warningsDuring(async () => {
      const before = liveBytes();
      await client.post(floodCall(2, 'a', COUNT, a));
      await client.post(floodCall(3, 'b', COUNT, b));
      await floodHeldBack([a, b]);
      held = liveBytes() - before;
      expect(existsSync(a.doneFile) && existsSync(b.doneFile)).toBe(false);

      // A drain that released only one of the two blocked streams would leave the child paused
      // for good, and this read would time out.
      const messages = await client.readUntilAnswered([2, 3]);
      expect(progressOf(messages, 'a')).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      expect(progressOf(messages, 'b')).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      for (const [id, token] of [[2, 'a'], [3, 'b']] as const) {
        const at = messages.findIndex((m) => isResponse(m) && m.id === id);
        expect(toolText(messages[at]!)).toBe(`flooded ${COUNT}`);
        // Each answer comes after every notification of its own call.
        expect(messages.slice(at + 1).some((m) => m.params?.progressToken === token)).toBe(false);
      }
      expect(await client.tool(4, 'echo', { text: 'after' })).toBe('after');
    });
    expect(warnings).toEqual([]);
    console.log(`legacy per-session, two floods: ${(2 * COUNT * BYTES) / MiB} MiB; the hub held ${(held / MiB).toFixed(1)} MiB while its client did not read`);
    // Two streams' replay stores (≤ 8 MiB each) and a few socket chunks; without flow control, 48 MiB.
    expect(held).toBeLessThan(28 * MiB);
  }, 60_000);

  it('shared child: a legacy stream whose client does not read is given up at its cap with an error; another session is answered meanwhile', async () => {
    const COUNT = 4096; // 64 MiB: past what the sockets hold plus the 16 MiB cap
    const h = await startHub({ servers: { probe: probeServer({ shared: true }) }, engine: { capture: false } });
    const slow = await legacyClient(h);
    const other = await legacyClient(h);
    expect(await other.tool(1, 'echo', { text: 'warm' })).toBe('warm');
    const files = await floodFiles('flood');
    const before = liveBytes();

    // The slow client reads nothing from here until the flood is over.
    await slow.post(floodCall(1, 'flood', COUNT, files));
    // The other session's calls are answered while the slow client reads nothing.
    for (let i = 0; i < 5; i++) expect(await other.tool(10 + i, 'echo', { text: `other ${i}` })).toBe(`other ${i}`);
    // The shared child is not held back for one client: it writes its whole flood.
    await waitFor(() => existsSync(files.doneFile), 'the shared child to write its flood', 30_000, 50);
    const held = liveBytes() - before;

    const messages = await slow.readUntilAnswered([1]);
    const progress = progressOf(messages, 'flood');
    // What did reach the slow client is the beginning of the flood, in order, nothing skipped…
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(COUNT);
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
    // …and then its request's answer: an error that says why.
    const answer = messages.at(-1)!;
    expect(answer.id).toBe(1);
    expect(answer.error?.message).toMatch(/client stopped reading this stream/);
    // Only the request's stream was given up: the session, now read, goes on; so does the other.
    expect(await slow.tool(2, 'echo', { text: 'slow again' })).toBe('slow again');
    expect(await other.tool(20, 'echo', { text: 'after' })).toBe('after');
    console.log(`legacy shared flood: ${(COUNT * BYTES) / MiB} MiB; the slow stream got ${progress.length} before its cap; the hub held ${(held / MiB).toFixed(1)} MiB`);
    // The 16 MiB cap and the stream's replay store (≤ 8 MiB); without the cap, the whole flood.
    expect(held).toBeLessThan(40 * MiB);
  }, 60_000);
});
