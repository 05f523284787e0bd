/**
 * The era bridge and progress (issue 17, no cross-talk): modern clients with the same identity
 * share the bridge's legacy session, and nothing stops them from using the same progress token.
 * The server is given each call's own token and every client gets its own progress back, under
 * the token it asked with. Real HTTP on loopback, a real child (the probe fixture's
 * `slow_progress`, one child for the bridge session).
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { isResponse, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const MODERN = '2026-07-28';
/** One identity for every request: the bridge serves them over one legacy session. */
const CLIENT_INFO = { name: 'bridge-progress', version: '1.0.0' };

async function slowProgress(h: TestHub, id: number, steps: number, progressToken: unknown): Promise<JsonRpcMessage[]> {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'slow_progress',
      arguments: { steps, intervalMs: 40 },
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {}, ...(progressToken === undefined ? {} : { progressToken }) },
    },
  };
  const headers = { ...h.authHeader(), Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow_progress' };
  const res = await fetch(h.mcpUrl('probe'), { method: 'POST', headers, body: JSON.stringify(body) });
  return (await messagesOfResponse(res, 20_000)).messages;
}

describe('era bridge: progress', () => {
  it('clients sharing the bridge session with the same progress token each get only their own progress', async () => {
    const h = await startHub({ servers: { probe: probeServer() } });
    const steps = [3, 5, 4, 6];
    const outs = await Promise.all(steps.map((n, i) => slowProgress(h, i + 1, n, 'same')));
    outs.forEach((messages, i) => {
      const progress = messages.filter((m) => m.method === 'notifications/progress');
      expect(progress.map((m) => (m.params as { progress: number }).progress)).toEqual(Array.from({ length: steps[i]! }, (_, k) => k + 1));
      for (const p of progress) expect((p.params as { progressToken: unknown; total: number }).progressToken).toBe('same');
      for (const p of progress) expect((p.params as { total: number }).total).toBe(steps[i]);
      const answer = messages.at(-1)!;
      expect(isResponse(answer) && answer.id === i + 1).toBe(true);
      expect(toolText(answer)).toBe(`done after ${steps[i]} steps`);
    });
  }, 60_000);

  it('a call that asked for no progress gets none, while another call on the session gets its own', async () => {
    const h = await startHub({ servers: { probe: probeServer() } });
    const [quiet, loud] = await Promise.all([slowProgress(h, 1, 4, undefined), slowProgress(h, 2, 3, 7)]);
    expect(quiet.filter((m) => m.method === 'notifications/progress')).toHaveLength(0);
    const progress = loud.filter((m) => m.method === 'notifications/progress');
    expect(progress).toHaveLength(3);
    for (const p of progress) expect((p.params as { progressToken: unknown }).progressToken).toBe(7);
  }, 60_000);
});
