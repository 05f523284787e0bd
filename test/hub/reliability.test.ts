/**
 * Reliability (ARCHITECTURE "Reliability rules", PROTOCOL P7/P8/P15): children that die, bad and
 * oversize bodies, unknown sessions, timeouts and cancellation. Never a hang: every wait here has
 * a generous deadline, and a hang shows up as that deadline failing.
 */
import { describe, expect, it } from 'vitest';
import { initializeRequest, toolCall, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { ACCEPT_BOTH, del, get, jsonRpcErrorOf, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { isAlive } from '../helpers/processes.js';
import { rawRequest, uploadLarge } from '../helpers/raw-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';

const FX = 'fx';

function hub(extra: Partial<Parameters<typeof startHub>[0]> = {}): Promise<TestHub> {
  return startHub({ servers: { [FX]: everythingServer(), shared: everythingServer({ shared: true }), probe: probeServer() }, ...extra });
}

/** Posts a call and resolves with its response, however long the stream takes (bounded). */
async function call(client: TestClient, message: JsonRpcMessage, timeoutMs = 10_000): Promise<JsonRpcMessage> {
  const res = await client.post(message);
  expect(res.status).toBe(200);
  const { messages } = await messagesOfResponse(res, timeoutMs);
  const response = messages.find((m) => m.id === message.id && m.method === undefined);
  if (!response) throw new Error(`no response to ${JSON.stringify(message.id)} in ${JSON.stringify(messages)}`);
  return response;
}

interface ErrorData {
  exitCode?: number;
  signal?: string;
  stderr?: string;
  server?: string;
}

describe('reliability', () => {
  describe('a child that dies mid-call', () => {
    it('crash tool: the pending call gets a JSON-RPC error quoting the exit code and stderr tail, quickly', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const response = await withTimeout(call(client, toolCall(1, 'crash', { code: 3 })), 5000, 'the error for a call whose child crashed');
      expect(response.error).toBeDefined();
      expect(response.error!.code).toBe(-32603);
      expect(response.error!.message).toContain('exited with code 3');
      expect(response.error!.message).toContain('crashing on purpose');
      const data = response.error!.data as ErrorData;
      expect(data.exitCode).toBe(3);
      expect(data.stderr).toContain('crashing on purpose');
    });

    it('crash: the stderr tail is reliably part of the error (10 crashes in a row)', async () => {
      const h = await hub();
      const failures: string[] = [];
      for (let i = 0; i < 10; i++) {
        const client = await connect(h, 'probe');
        const response = await withTimeout(call(client, toolCall(1, 'crash', { code: 40 + i })), 5000, `crash ${i}`);
        const msg = response.error?.message ?? '';
        if (!msg.includes(`exited with code ${40 + i}`) || !msg.includes('probe crashing on purpose')) failures.push(msg);
      }
      expect(failures).toEqual([]);
    });

    it('after a crash, a new session works, and so does the crashed session (its child is restarted)', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const pid = Number(await client.tool('whoami'));
      const crashed = await call(client, toolCall(2, 'crash', { code: 1 }));
      expect(crashed.error).toBeDefined();
      const fresh = await connect(h, FX);
      expect(await fresh.tool('echo', { text: 'new session' })).toBe('new session');
      expect(await client.tool('echo', { text: 'same session' })).toBe('same session');
      expect(Number(await client.tool('whoami'))).not.toBe(pid);
    });

    it('killing the child (SIGKILL) while a call waits → JSON-RPC error naming the signal, quickly', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const pid = Number(await client.tool('whoami'));
      const res = await client.post(toolCall(3, 'sleep', { ms: 60_000 }));
      const reader = new SseReader(res.body!);
      // The call is in flight once its stream is open (the priming event of a 2025-11-25 session).
      await reader.nextEvent();
      process.kill(pid, 'SIGKILL');
      const got = await withTimeout(reader.nextMessage(), 5000, 'the error for a call whose child was killed');
      expect(got?.message.id).toBe(3);
      expect(got?.message.error?.code).toBe(-32603);
      expect(got?.message.error?.message).toMatch(/SIGKILL/);
      expect((got?.message.error?.data as ErrorData).signal).toBe('SIGKILL');
      expect(await withTimeout(reader.next(), 5000, 'the stream to end')).toBeUndefined();
    });

    it('every pending call of the session gets the error, not just one', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const sleeps = [10, 11, 12].map((id) => call(client, toolCall(id, 'sleep', { ms: 60_000 })));
      // Make sure the sleeps reached the child before it dies: a call after them returns first.
      expect(await client.tool('echo', { text: 'ordered' })).toBe('ordered');
      const crash = call(client, toolCall(13, 'crash', { code: 9 }));
      const all = await withTimeout(Promise.all([...sleeps, crash]), 5000, 'errors for every pending call');
      for (const r of all) expect(r.error?.message).toContain('exited with code 9');
    });

    it('shared mode: a crash of the shared child fails the pending calls of every session; then all go on', async () => {
      const h = await hub();
      const a = await connect(h, 'shared');
      const b = await connect(h, 'shared');
      const waiting = call(b, toolCall('b-sleep', 'sleep', { ms: 60_000 }));
      expect(await b.tool('echo', { text: 'sleep is in' })).toBe('sleep is in');
      const crashed = await withTimeout(call(a, toolCall('a-crash', 'crash', { code: 5 })), 5000, 'the crash error in session a');
      expect(crashed.error?.message).toContain('exited with code 5');
      const bErr = await withTimeout(waiting, 5000, 'the crash error in session b');
      expect(bErr.error?.message).toContain('exited with code 5');
      expect(await a.tool('echo', { text: 'a again' })).toBe('a again');
      expect(await b.tool('echo', { text: 'b again' })).toBe('b again');
      expect(await a.tool('whoami')).toBe(await b.tool('whoami'));
    });

    it('a command that does not exist → a JSON-RPC error for initialize, not a hang', async () => {
      const h = await startHub({ servers: { missing: { command: '/nonexistent/patchbay-no-such-command', args: [] } } });
      const res = await withTimeout(post(h, 'missing', initializeRequest(1)), 10_000, 'the answer to initialize of a missing command');
      const { messages } = await withTimeout(messagesOfResponse(res), 10_000, 'the initialize body');
      const answer = messages.find((m) => m.id === 1);
      expect(answer?.error).toBeDefined();
      expect(answer?.error?.message).toMatch(/not found|ENOENT|could not start/i);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    });

    it('a child that exits at start → initialize gets a JSON-RPC error quoting its exit code and stderr', async () => {
      const h = await startHub({
        servers: { dies: { command: process.execPath, args: ['-e', 'process.stderr.write("cannot start: missing API key\\n", () => process.exit(7))'], warmSpare: false } },
      });
      const res = await withTimeout(post(h, 'dies', initializeRequest(1)), 10_000, 'the answer to initialize of a dying child');
      const { messages } = await messagesOfResponse(res);
      const answer = messages.find((m) => m.id === 1);
      expect(answer?.error?.message).toContain('exited with code 7');
      expect(answer?.error?.message).toContain('missing API key');
    });
  });

  describe('bad bodies', () => {
    it('malformed JSON {"incomplete": json → 400/-32700', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await client.post('{"incomplete": json');
      expect(res.status).toBe(400);
      const body = await jsonRpcErrorOf(res);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    for (const chunked of [false, true]) {
      it(`a 20 MiB ${chunked ? 'chunked ' : ''}body → 413 with a readable JSON-RPC error (no reset); the next request on a new connection works`, async () => {
        const h = await hub();
        const client = await connect(h, FX);
        const headers = { ...h.authHeader(), Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', 'Mcp-Session-Id': client.sessionId!, 'MCP-Protocol-Version': '2025-11-25' };
        const result = await withTimeout(uploadLarge({ port: h.port, path: `/mcp/${FX}`, headers, size: 20 * 1024 * 1024, chunked }), 30_000, 'the answer to a 20 MiB upload');
        expect(result.status).toBe(413);
        expect(String(result.headers['content-type'])).toMatch(/^application\/json/);
        const body = JSON.parse(result.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
        expect(body.jsonrpc).toBe('2.0');
        expect(body.id).toBeNull();
        expect(typeof body.error.code).toBe('number');
        const next = await rawRequest({ port: h.port, method: 'POST', path: `/mcp/${FX}`, headers, body: JSON.stringify(toolCall(2, 'echo', { text: 'after the big one' })) });
        expect(next.status).toBe(200);
        expect(next.text).toContain('after the big one');
      }, 60_000);
    }
  });

  it('unknown session → 404 on POST, GET and DELETE', async () => {
    const h = await hub();
    const o = { sessionId: 'ffffffffffffffffffffffffffffffff', protocolVersion: '2025-11-25' };
    const p = await post(h, FX, toolCall(1, 'echo', { text: 'x' }), o);
    const g = await get(h, FX, o);
    const d = await del(h, FX, o);
    for (const res of [p, g, d]) {
      expect(res.status).toBe(404);
      expect((await jsonRpcErrorOf(res)).error.code).toBe(-32001);
    }
  });

  describe('timeouts', () => {
    it('a request past requestTimeoutMs → JSON-RPC error, and the server gets notifications/cancelled', async () => {
      const h = await startHub({ servers: { probe: probeServer({ requestTimeoutMs: 300 }) }, tickMs: 25 });
      const client = await connect(h, 'probe');
      const response = await withTimeout(call(client, toolCall('slow-1', 'hang')), 10_000, 'the timeout error');
      expect(response.error).toBeDefined();
      expect(response.error!.message).toMatch(/timed out/i);
      const input = (JSON.parse(await client.tool('dump_input')) as string[]).map((l) => JSON.parse(l) as JsonRpcMessage);
      const cancel = input.find((m) => m.method === 'notifications/cancelled');
      expect(cancel?.params?.requestId).toBe('slow-1');
    });

    it('the everything server: sleep past requestTimeoutMs → JSON-RPC error; the session goes on', async () => {
      // Not too short: the SDK-based fixture's first calls take a while on a busy machine.
      const h = await startHub({ servers: { [FX]: everythingServer({ requestTimeoutMs: 2000 }) }, tickMs: 25 });
      const client = await connect(h, FX);
      expect(await client.tool('echo', { text: 'warm' })).toBe('warm');
      const response = await withTimeout(call(client, toolCall('long', 'sleep', { ms: 60_000 })), 15_000, 'the timeout error');
      expect(response.error?.message).toMatch(/timed out/i);
      expect(await client.tool('echo', { text: 'after timeout' })).toBe('after timeout');
    });

    it('progress notifications extend the timeout', async () => {
      const h = await startHub({ servers: { probe: probeServer({ requestTimeoutMs: 300 }) }, tickMs: 25 });
      const client = await connect(h, 'probe');
      const res = await client.post(toolCall(1, 'slow_progress', { steps: 8, intervalMs: 120 }, { progressToken: 'keep-going' }));
      const { messages } = await messagesOfResponse(res, 10_000);
      const response = messages.find((m) => m.id === 1)!;
      expect(toolText(response)).toBe('done after 8 steps');
      expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(8);
    });
  });

  describe('cancellation', () => {
    it('a request the client cancels (notifications/cancelled) ends its stream, and the server is told', async () => {
      const h = await hub();
      const client = await connect(h, 'probe');
      const res = await client.post(toolCall(9, 'hang'));
      const reader = new SseReader(res.body!);
      await reader.nextEvent(); // priming: the request is on its way
      const ack = await client.notify('notifications/cancelled', { requestId: 9, reason: 'user pressed stop' });
      expect(ack.status).toBe(202);
      const rest = await withTimeout(reader.rest(), 5000, 'the cancelled request’s stream to end');
      expect(rest.filter((i) => i.kind === 'event' && i.data.includes('"id":9'))).toEqual([]);
      const input = (JSON.parse(await client.tool('dump_input')) as string[]).map((l) => JSON.parse(l) as JsonRpcMessage);
      expect(input.find((m) => m.method === 'notifications/cancelled')?.params?.requestId).toBe(9);
    });

    it('the everything server: cancelling a sleep ends its stream; the session goes on', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await client.post(toolCall(10, 'sleep', { ms: 60_000 }));
      const reader = new SseReader(res.body!);
      await reader.nextEvent();
      await client.notify('notifications/cancelled', { requestId: 10 });
      await withTimeout(reader.rest(), 5000, 'the cancelled request’s stream to end');
      expect(await client.tool('echo', { text: 'after cancel' })).toBe('after cancel');
    });

    it('shared mode: cancelling in one session does not cancel another session’s request with the same id', async () => {
      const h = await hub();
      const a = await connect(h, 'shared');
      const b = await connect(h, 'shared');
      const ra = await a.post(toolCall(1, 'sleep', { ms: 60_000 }));
      const readerA = new SseReader(ra.body!);
      await readerA.nextEvent();
      const bDone = call(b, toolCall(1, 'sleep', { ms: 300 }));
      await a.notify('notifications/cancelled', { requestId: 1 });
      await withTimeout(readerA.rest(), 5000, 'a’s cancelled stream to end');
      const bResponse = await withTimeout(bDone, 10_000, 'b’s own sleep to finish');
      expect(toolText(bResponse)).toBe('slept');
    });
  });

  it('a client that drops its connection mid-call leaves the hub healthy', async () => {
    const h = await hub();
    const client = await connect(h, FX);
    const abort = new AbortController();
    const res = await client.post(toolCall('dropped', 'sleep', { ms: 500 }), { signal: abort.signal });
    const reader = new SseReader(res.body!);
    await reader.nextEvent();
    abort.abort();
    await reader.cancel();
    expect(await client.tool('echo', { text: 'healthy' })).toBe('healthy');
    const other = await connect(h, FX);
    expect(await other.tool('echo', { text: 'others too' })).toBe('others too');
  });

  it('sessions are bounded: past maxSessions initialize → 503 with a JSON-RPC error, and a freed slot is reusable', async () => {
    const h = await hub({ hub: { maxSessions: 2 } });
    const a = await connect(h, 'probe');
    await connect(h, 'probe');
    const res = await post(h, 'probe', initializeRequest(1));
    expect(res.status).toBe(503);
    await jsonRpcErrorOf(res);
    await (await a.delete()).body?.cancel();
    const c = await connect(h, 'probe');
    expect(await c.tool('echo', { text: 'slot reused' })).toBe('slot reused');
  });

  it('children of ended sessions do not pile up', async () => {
    const h = await hub();
    const pids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await connect(h, FX);
      pids.push(Number(await c.tool('whoami')));
      await (await c.delete()).body?.cancel();
    }
    for (const pid of pids) await waitFor(() => !isAlive(pid), `child ${pid} to exit`);
  });
});
