/**
 * What a hostile or broken peer does to the hub (issue 17's defects 1–4 and 6), over real HTTP
 * with real children: JSON nested thousands of levels deep from a client or a server, a batch that
 * reuses an id, a stateless server's deadlines and batches, a child that never answers
 * `initialize`, a client that gives up while it starts, and a request with two Host headers.
 * Never a hang: every wait has a deadline, and a hang shows up as that deadline failing.
 */
import { describe, expect, it } from 'vitest';
import { apiCall } from '../helpers/hub-api.js';
import { initializeRequest, toolCall, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { jsonRpcErrorOf, messagesOfResponse, post } from '../helpers/mcp-http.js';
import { fixtureChildren, isAlive } from '../helpers/processes.js';
import { rawExchange } from '../helpers/raw-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';

const DEPTH = 6000;
const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('deeply nested JSON', () => {
  it('a client body nested deeper than 512 levels gets a 400 JSON-RPC error, even pretty-printed or in a batch', async () => {
    const hub = await startHub({ servers: { probe: probeServer() } });
    const client = await connect(hub, 'probe');
    // A newline in the body means the hub re-serializes it for stdio: that used to overflow the
    // stack and leave a 200 event stream with no answer.
    const pretty = `{"jsonrpc":"2.0","id":7,\n"method":"tools/call","params":{"name":"echo","arguments":{"text":${deep(DEPTH)}}}}`;
    const res = await client.post(pretty);
    expect(res.status).toBe(400);
    expect((await jsonRpcErrorOf(res)).error).toEqual({ code: -32600, message: 'Invalid Request: the body nests JSON deeper than 512 levels' });

    const old = await connect(hub, 'probe', { protocolVersion: '2025-03-26' });
    const batch = `[${JSON.stringify(toolCall(1, 'echo', { text: 'fine' }))},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deep(DEPTH)}}}}]`;
    const batched = await old.post(batch);
    expect(batched.status).toBe(400);
    expect((await jsonRpcErrorOf(batched)).error.message).toContain('deeper than 512 levels');

    // The session goes on.
    expect(await client.tool('echo', { text: 'still here' })).toBe('still here');
  });

  it('a server answer nested too deep becomes the hub’s error answer; a shared server’s other calls go on', async () => {
    const hub = await startHub({ servers: { probe: probeServer({ shared: true }) } });
    const client = await connect(hub, 'probe');
    // An unrelated call in flight on the same session while the deep answer arrives.
    const slow = client.callTool('slow_progress', { steps: 3, intervalMs: 100 }, { progressToken: 'p' });
    const outcome = await client.callTool('deep', { depth: DEPTH });
    expect(outcome.response.error).toMatchObject({ code: -32603, message: "server 'probe' sent JSON nested deeper than 512 levels", data: { server: 'probe' } });
    expect((await slow).response.result).toBeDefined();
    expect(await client.tool('echo', { text: 'after' })).toBe('after');
  });

  it('the inspector is not poisoned: it lists, pairs, searches and exports the session', async () => {
    const hub = await startHub({ servers: { probe: probeServer() } });
    const client = await connect(hub, 'probe');
    await client.callTool('deep', { depth: DEPTH });
    await client.post(`{"jsonrpc":"2.0","id":99,\n"method":"ping","params":{"x":${deep(DEPTH)}}}`).then((r) => r.body?.cancel());
    const sessions = await apiCall<{ sessions: Array<{ id: string }> }>(hub, 'inspector.sessions.list', {});
    expect(sessions.ok).toBe(true);
    const session = sessions.value!.sessions[0]!.id;
    for (const [name, input] of [
      ['inspector.events.list', { session }],
      ['inspector.exchanges.list', { session, full: true }],
      ['inspector.search', { query: 'deep' }],
      ['inspector.export', { session, format: 'jsonl' }],
      ['inspector.export', { session, format: 'har' }],
    ] as const) {
      const answer = await apiCall(hub, name, input);
      expect(answer, name).toMatchObject({ ok: true });
    }
    const exchanges = await apiCall<{ exchanges: Array<{ method: string; status: string }> }>(hub, 'inspector.exchanges.list', { session });
    // The server's answer never reached the client: the hub answered in its place.
    expect(exchanges.value!.exchanges.find((x) => x.method === 'tools/call')).toMatchObject({ status: 'orphaned', reason: "server 'probe' sent JSON nested deeper than 512 levels" });
  });
});

describe('batches', () => {
  it('a 2025-03-26 batch that uses one id twice is refused at once, never a stream left open', async () => {
    const hub = await startHub({ servers: { probe: probeServer({ requestTimeoutMs: 3000 }) } });
    const client = await connect(hub, 'probe', { protocolVersion: '2025-03-26' });
    const res = await client.post([toolCall('dup', 'echo', { text: 'a' }), toolCall('dup', 'echo', { text: 'b' })]);
    expect(res.status).toBe(400);
    expect((await jsonRpcErrorOf(res)).error).toEqual({ code: -32600, message: 'Invalid Request: request id "dup" appears twice in the batch' });
    // 1 and "1" are different ids: that batch is fine.
    const ok = await client.post([toolCall(1, 'echo', { text: 'n' }), toolCall('1', 'echo', { text: 's' })]);
    expect(ok.status).toBe(200);
    const { messages } = await messagesOfResponse(ok);
    expect(messages.map((m) => m.id).sort()).toEqual([1, '1']);
  });
});

describe('stateless servers', () => {
  it('enforce the request deadline, and answer a one-element batch', async () => {
    const hub = await startHub({ servers: { probe: probeServer({ stateless: true, requestTimeoutMs: 800 }) } });
    const res = await post(hub, 'probe', toolCall(1, 'hang'), { protocolVersion: '2025-03-26' });
    expect(res.status).toBe(200);
    const { messages } = await messagesOfResponse(res, 15_000);
    expect(messages.find((m) => m.id === 1)?.error?.message).toMatch(/^Request timed out: server 'probe' did not answer 'tools\/call' within 800ms/);

    const batch = await post(hub, 'probe', [toolCall(2, 'echo', { text: 'alone' })], { protocolVersion: '2025-03-26' });
    const answered = await messagesOfResponse(batch, 15_000);
    expect(answered.messages.find((m) => m.id === 2)?.result).toMatchObject({ content: [{ type: 'text', text: 'alone' }] });
  });
});

describe('a child that never answers initialize', () => {
  it('gets a start-up deadline: the client hears why, with the child’s stderr, and the child is stopped', async () => {
    const hub = await startHub({ servers: { mute: probeServer({ env: { PROBE_NO_INIT: '1' }, startupTimeoutMs: 700, warmSpare: false }) } });
    const res = await post(hub, 'mute', initializeRequest());
    const { messages } = await messagesOfResponse(res, 15_000);
    const error = (messages[0] as JsonRpcMessage).error;
    expect(error?.message).toBe(`server 'mute' did not answer initialize within 700ms (raise "startupTimeoutMs" in its config if it needs longer): never answering initialize`);
    await waitFor(() => fixtureChildren().length === 0, 'the mute child to be stopped', 15_000);
    expect(hub.engine.hub.sessions.size).toBe(0);
  });

  it('a client that gives up while the server starts takes the session and the child with it', async () => {
    const hub = await startHub({ servers: { mute: probeServer({ env: { PROBE_NO_INIT: '1' }, warmSpare: false }) } });
    const abort = new AbortController();
    const pending = post(hub, 'mute', initializeRequest(), { signal: abort.signal }).catch((err: Error) => err);
    const [pid] = await waitFor(() => (fixtureChildren().length > 0 ? fixtureChildren() : undefined), 'the child to start');
    abort.abort();
    expect(await withTimeout(pending, 10_000, 'the aborted request')).toBeInstanceOf(Error);
    await waitFor(() => !isAlive(pid!), `child ${pid} to be stopped once its client left`, 15_000);
    expect(hub.engine.hub.sessions.size).toBe(0);
  });
});

describe('Host', () => {
  it('a request with two Host headers is refused with 400, in either order', async () => {
    const hub = await startHub({ servers: { probe: probeServer() } });
    for (const hosts of [[`127.0.0.1:${hub.port}`, `evil.example:${hub.port}`], [`evil.example:${hub.port}`, `127.0.0.1:${hub.port}`]]) {
      const raw = await rawExchange(hub.port, `GET /health HTTP/1.1\r\nHost: ${hosts[0]}\r\nHost: ${hosts[1]}\r\nConnection: close\r\n\r\n`);
      expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(raw).toContain('more than one Host header');
    }
  });
});
