/**
 * The hub's stdio door (src/main/core/hub/stdio-door.ts), driven as `patchbay relay --url` drives
 * it: a real engine in this process, real stdio children (the probe fixture), and a real Node
 * stream as the output — a PassThrough stands in for the relay's stdout (a pipe to a client that
 * is not here); reading it or not is what a client reading its stdin or not does. The relay's own
 * use of the door is test/relay/relay-url.test.ts's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from '../../src/shared/api/inspector-contract.js';
import type { LineOutput } from '../../src/main/core/hub/stdio-door.js';
import { apiCall } from '../helpers/hub-api.js';
import { floodHeldBack } from '../helpers/flood.js';
import { isAlive } from '../helpers/processes.js';
import { probeServer } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';

type Message = Record<string, unknown> & { id?: unknown; method?: string; result?: Record<string, unknown>; error?: { code: number; message: string } };

const MiB = 1024 * 1024;

/** A door on a PassThrough; `reading` false leaves the output unread (a client that stopped reading). */
function openDoor(h: TestHub, server: string, options: { highWaterMark?: number; reading?: boolean } = {}) {
  const out = new PassThrough({ highWaterMark: options.highWaterMark ?? 16 * 1024 });
  const output: LineOutput = {
    write: (line) => out.write(line),
    get writableLength() {
      return out.writableLength;
    },
    onDrain: (listener) => void out.once('drain', listener),
  };
  const warnings: string[] = [];
  const door = h.engine.hub.openStdioDoor(server, output, (m) => warnings.push(m));
  if (!door) throw new Error(`no stdio door for '${server}'`);
  const messages: Message[] = [];
  let buffer = '';
  const read = (): void => {
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        messages.push(JSON.parse(buffer.slice(0, nl)) as Message);
        buffer = buffer.slice(nl + 1);
      }
    });
  };
  if (options.reading !== false) read();
  const line = (message: Record<string, unknown>): Promise<void> => door.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
  const answer = (id: unknown, timeoutMs = 20_000): Promise<Message> => waitFor(() => messages.find((m) => m.id === id && !('method' in m)), `the door's answer to ${JSON.stringify(id)}`, timeoutMs);
  return { door, out, messages, warnings, line, answer, read };
}

const init = (id: unknown = 0) => ({ id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'door-test', version: '1' } } });
const call = (id: unknown, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({ id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } });
const text = (m: Message): string => ((m.result?.content as Array<{ text: string }> | undefined)?.[0]?.text ?? '');

async function ready(d: ReturnType<typeof openDoor>): Promise<void> {
  await d.line(init());
  expect((await d.answer(0)).result?.protocolVersion).toBe('2025-11-25');
  await d.line({ method: 'notifications/initialized' });
}

/** A hub with the probe, a door on it, initialized, and the pid of the child its session runs. */
async function doorOnProbe(): Promise<{ h: TestHub; d: ReturnType<typeof openDoor>; pid: number }> {
  const h = await startHub({ servers: { probe: probeServer() } });
  const d = openDoor(h, 'probe');
  await ready(d);
  await d.line(call('pid', 'whoami'));
  return { h, d, pid: Number(text(await d.answer('pid'))) };
}

describe('the hub’s stdio door', () => {
  it('serves a 2025 client line by line: the answer on the output, the client’s own text upstream, a session observed as stdio', async () => {
    const h = await startHub({ servers: { probe: probeServer() } });
    const d = openDoor(h, 'probe');
    await ready(d);
    // Spacing and key order as the client wrote them: the line goes upstream untouched.
    const raw = '{ "method":"tools/call", "jsonrpc":"2.0","params":{"name":"echo","arguments":{"text":"hé \\u00e9"}},  "id":"a"}';
    await d.door.send(raw);
    expect(text(await d.answer('a'))).toBe('hé é');
    await d.line(call(2, 'dump_input'));
    const upstream = JSON.parse(text(await d.answer(2))) as string[];
    expect(upstream).toContain(raw);
    const session = await waitFor(async () => (await apiCall<{ sessions: InspectorSession[] }>(h, 'inspector.sessions.list', { limit: 100 })).value?.sessions.find((s) => s.server === 'probe'), 'the captured session');
    expect(session.transport).toEqual({ client: 'stdio', upstream: 'stdio' });
    expect(d.warnings).toEqual([]);
    await d.door.close();
  });

  it('refuses what the /mcp door refuses, in its words, with an error per request and nothing lost after', async () => {
    const h = await startHub({ servers: { probe: probeServer() }, hub: { maxBodyBytes: 4096 } });
    const d = openDoor(h, 'probe');
    await d.line(call(1, 'echo', { text: 'too early' }));
    expect((await d.answer(1)).error).toEqual({ code: -32000, message: 'Bad Request: the session is not initialized (send initialize first)' });
    await ready(d);
    await d.line(call(2, 'hang'));
    await d.line(call(2, 'echo', { text: 'same id' }));
    expect((await d.answer(2)).error).toEqual({ code: -32600, message: 'Invalid Request: request id 2 is already in use in this session' });
    await d.door.send(JSON.stringify([call(3, 'echo'), call(4, 'echo')].map((m) => ({ jsonrpc: '2.0', ...m }))));
    for (const id of [3, 4]) expect((await d.answer(id)).error).toEqual({ code: -32600, message: 'Invalid Request: batches are not supported in protocol version 2025-11-25' });
    await d.line(call(5, 'echo', { text: 'x'.repeat(5000) }));
    expect((await d.answer(5)).error).toEqual({ code: -32600, message: 'Payload Too Large: the body is over the 4096-byte limit' });
    await d.door.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"deep":${'['.repeat(600)}${']'.repeat(600)}}}}`);
    expect((await d.answer(6)).error).toEqual({ code: -32600, message: 'Invalid Request: the body nests JSON deeper than 512 levels' });
    await d.door.send('{"jsonrpc":"2.0","id":7}');
    expect((await d.answer(7)).error).toEqual({ code: -32600, message: 'Invalid Request: the body is not a JSON-RPC 2.0 message' });
    await d.door.send('{"jsonrpc":"2.0","id":8,');
    expect(d.messages.at(-1)).toMatchObject({ id: null, error: { code: -32700 } });
    // And the session goes on.
    await d.line(call(9, 'echo', { text: 'still here' }));
    expect(text(await d.answer(9))).toBe('still here');
    await d.door.close();
  });

  it('re-creates a session that ended under it by replaying the client’s initialize, then forwards the line', async () => {
    const { h, d, pid: first } = await doorOnProbe();
    // What a config change does to a server's sessions.
    await h.engine.hub.closeSessionsOf('probe');
    await waitFor(() => !isAlive(first), 'the first child to stop');
    await d.line(call(2, 'whoami'));
    const second = Number(text(await d.answer(2)));
    expect(second).not.toBe(first);
    await d.line(call(3, 'dump_input'));
    const upstream = (JSON.parse(text(await d.answer(3))) as string[]).map((l) => JSON.parse(l) as Message);
    expect(upstream.map((m) => m.method ?? '')).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/call']);
    expect(upstream.slice(2).map((m) => m.id)).toEqual([2, 3]);
    expect(upstream[0]!.id).toBe('patchbay-relay-replay-1');
    // The replayed initialize's answer is the door's, never the client's.
    expect(d.messages.filter((m) => m.id === 'patchbay-relay-replay-1')).toEqual([]);
    expect(d.warnings).toEqual(['the session ended (closed); re-creating it (replaying initialize)']);
    await d.door.close();
  });

  it('a server that does not start: initialize answered with its error; each later line tries again and says so, never as a lost session', async () => {
    const h = await startHub({ servers: { gone: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } });
    const d = openDoor(h, 'gone');
    await d.line(init());
    expect((await d.answer(0)).error?.code).toBe(-32603);
    await d.line(call(1, 'echo'));
    const error = (await d.answer(1)).error!;
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^no session: the server did not answer initialize: /);
    expect(d.warnings).toEqual(['no session yet (the server did not answer initialize): trying again (replaying initialize)']);
    await d.door.close();
  });

  it('holds a stdio child back while its reader does not read, and loses nothing once it does', async () => {
    const COUNT = 2048; // 32 MiB of progress notifications: far more than the pipes hold
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    const d = openDoor(h, 'probe', { reading: false });
    const dir = await tempDir('patchbay-door-flow-');
    const files = { doneFile: path.join(dir, 'done'), waitFile: path.join(dir, 'wait') };
    await d.line(init());
    await d.line({ method: 'notifications/initialized' });
    await d.line(call(1, 'flood', { count: COUNT, bytes: 16 * 1024, ...files }, { progressToken: 'p' }));
    await floodHeldBack(files);
    expect(existsSync(files.doneFile)).toBe(false);
    // Bounded: the output holds what the stream wrote before it was held back, not the flood.
    expect(d.out.writableLength).toBeLessThan(16 * MiB);
    d.read();
    const answer = await d.answer(1, 120_000);
    expect(text(answer)).toContain(`flooded ${COUNT}`);
    const progress = d.messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
    expect(progress).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    await d.door.close();
  }, 180_000);

  it('gives up a shared child’s stream when its reader stalls past the cap, with an error for the call; other clients are served meanwhile', async () => {
    const COUNT = 2048; // 32 MiB: past the 2 × 8 MiB cap
    const h = await startHub({ servers: { probe: probeServer({ shared: true }) }, engine: { capture: false } });
    const slow = openDoor(h, 'probe', { reading: false });
    const other = openDoor(h, 'probe');
    const dir = await tempDir('patchbay-door-stall-');
    await slow.line(init());
    await slow.line({ method: 'notifications/initialized' });
    await ready(other);
    await slow.line(call(1, 'flood', { count: COUNT, bytes: 16 * 1024, doneFile: path.join(dir, 'done'), waitFile: path.join(dir, 'wait') }, { progressToken: 'p' }));
    // A shared child cannot be held back for one client: it runs to its end …
    await waitFor(() => existsSync(path.join(dir, 'done')), 'the shared child to finish its flood', 120_000);
    await other.line(call(2, 'echo', { text: 'meanwhile' }));
    expect(text(await other.answer(2))).toBe('meanwhile');
    // … and the stalled reader's stream was given up at its cap, so it did not hold the flood.
    expect(slow.out.writableLength).toBeLessThan(24 * MiB);
    slow.read();
    const answer = await slow.answer(1, 60_000);
    expect(answer.error?.message).toMatch(/the client stopped reading this stream, and it was closed with \d+ MiB waiting in the hub/);
    await slow.door.close();
    await other.door.close();
  }, 180_000);

  it('drains what is still on its way, then closes its session and stops the child', async () => {
    const { d, pid } = await doorOnProbe();
    await d.line(call(2, 'slow_progress', { steps: 3, intervalMs: 100 }));
    await d.door.drain(10_000);
    expect(text(await d.answer(2, 1))).toBe('done after 3 steps');
    await d.door.close();
    await waitFor(() => !isAlive(pid), 'the child to stop');
    // A closed door takes nothing more.
    await d.line(call(3, 'echo', { text: 'late' }));
    expect(d.messages.some((m) => m.id === 3)).toBe(false);
  });

  it('is not offered for a server that is not configured, or is stateless', async () => {
    const h = await startHub({ servers: { probe: probeServer(), once: probeServer({ stateless: true }) } });
    const output: LineOutput = { write: () => true, writableLength: 0, onDrain: (l) => l() };
    expect(h.engine.hub.openStdioDoor('nope', output)).toBeUndefined();
    expect(h.engine.hub.openStdioDoor('once', output)).toBeUndefined();
    const door = h.engine.hub.openStdioDoor('probe', output);
    expect(door).toBeDefined();
    await door!.close();
  });
});
