/**
 * PROTOCOL P10 (streams) and no cross-talk: progress goes with the request that asked for it, and
 * progress for a request that is no longer pending (the client cancelled it, and the server did
 * not stop) is dropped — it used to land on whatever other request stream was open. Real HTTP on
 * loopback, a real child (the probe fixture's `slow_progress`, which ignores cancellation).
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { toolCall, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { messagesOf, SseReader } from '../helpers/sse.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';

const tokens = (messages: JsonRpcMessage[]): unknown[] =>
  messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progressToken: unknown }).progressToken);

describe('progress routing', () => {
  it('progress of a cancelled request reaches no other stream', async () => {
    const h = await startHub({ servers: { probe: probeServer() } });
    const c = await connect(h, 'probe');
    const cancelled = await c.post(toolCall(1, 'slow_progress', { steps: 10, intervalMs: 50 }, { progressToken: 'p' }));
    const other = await c.post(toolCall(2, 'slow_progress', { steps: 16, intervalMs: 50 }, { progressToken: 'q' }));
    // Cancel once the first call is under way: its first progress has arrived.
    const p = new SseReader(cancelled.body!);
    const first = await p.nextMessage(10_000);
    expect(first?.message.method).toBe('notifications/progress');
    const note = await c.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'test' } });
    expect(note.status).toBe(202);
    await note.body?.cancel();

    const q = (await messagesOfResponse(other, 20_000)).messages;
    // Only its own progress, all of it, then its answer; the probe went on sending 'p' meanwhile.
    expect(tokens(q)).toEqual(Array.from({ length: 16 }, () => 'q'));
    expect(toolText(q.at(-1)!)).toBe('done after 16 steps');
    // The cancelled request's stream ended without an answer, its progress only its own.
    const rest = messagesOf(await p.rest(20_000));
    expect(rest.some((m) => m.id === 1)).toBe(false);
    for (const t of tokens([first!.message, ...rest])) expect(t).toBe('p');
  }, 60_000);
});
