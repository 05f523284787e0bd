/**
 * PROTOCOL Q13 (fidelity: no message size makes the hub drop an answer). A stdio server sends one
 * very large notification during a call, then the call's result; a client that reads as fast as
 * it can must get both, through every door (2025 `/mcp`, the legacy `/sse` door, the 2026-07-28
 * door through the era bridge), whether the server's child is the session's own or shared.
 * Flow control judges a client by what it fails to take over time, never by the size of one
 * message: one write of 20 or 50 MiB is not a client that stopped reading.
 *
 * Real processes (the probe fixture's `flood` tool with `count: 1`: one notification of `bytes`,
 * then the answer) and real HTTP on loopback; capture off (the inspector's own caps are not the
 * subject here).
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { isResponse, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { MiB } from '../helpers/memory.js';
import { rawStream } from '../helpers/raw-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

const MODERN = '2026-07-28';

function hub(): Promise<TestHub> {
  return startHub({ servers: { own: probeServer(), shared: probeServer({ shared: true }) }, engine: { capture: false } });
}

/** The sizes of the notifications' pads, and whether the call's own answer came after them. */
function judge(messages: JsonRpcMessage[], id: number | string): { pads: number[]; answer: string | undefined } {
  const pads: number[] = [];
  for (const m of messages) {
    if (m.method === 'notifications/message') pads.push(((m.params as { data: { pad: string } }).data.pad).length);
    if (m.method === 'notifications/progress') pads.push(((m.params as { message: string }).message).length);
  }
  const answer = messages.find((m) => isResponse(m) && m.id === id);
  return { pads, answer: answer === undefined ? undefined : JSON.stringify(answer.result ?? answer.error) };
}

describe('Q13: a notification larger than any stream cap, then the result: both arrive', () => {
  for (const mode of ['own', 'shared'] as const) {
    for (const size of [20, 50]) {
      it(`/mcp (2025), ${mode === 'own' ? 'per-session' : 'shared'} child: ${size} MiB notification, then the result`, async () => {
        const h = await hub();
        const client = await connect(h, mode);
        const bytes = size * MiB;
        const outcome = await client.callTool('flood', { count: 1, bytes }, undefined, 120_000);
        const { pads, answer } = judge(outcome.messages, outcome.response.id!);
        expect(pads).toEqual([bytes]);
        expect(answer).toContain('flooded 1');
      }, 180_000);
    }
  }

  it('/mcp (2025), shared child: two 20 MiB notifications back to back (more than the cap behind the one being read), then the result', async () => {
    // The second waits behind the first while the client reads it: over the 16 MiB cap, but the
    // client keeps taking, so it is not stalled and nothing is given up.
    const h = await hub();
    const client = await connect(h, 'shared');
    const outcome = await client.callTool('flood', { count: 2, bytes: 20 * MiB }, undefined, 120_000);
    const { pads, answer } = judge(outcome.messages, outcome.response.id!);
    expect(pads).toEqual([20 * MiB, 20 * MiB]);
    expect(answer).toContain('flooded 2');
  }, 180_000);

  it('the legacy /sse door: a 20 MiB notification, then the result', async () => {
    const h = await hub();
    const { reader, close } = await rawStream({ port: h.port, path: '/sse/own', headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
    try {
      const endpoint = (await reader.nextEvent())!.data;
      const send = (body: unknown): Promise<Response> => fetch(new URL(endpoint, h.url), { method: 'POST', headers: { ...h.authHeader(), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect((await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } })).status).toBe(202);
      expect((await reader.nextEvent())!.data).toContain('"protocolVersion"');
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect((await send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'flood', arguments: { count: 1, bytes: 20 * MiB } } })).status).toBe(202);
      const messages: JsonRpcMessage[] = [];
      while (!messages.some((m) => isResponse(m) && m.id === 1)) {
        const event = await reader.nextEvent(120_000);
        if (!event) break;
        messages.push(JSON.parse(event.data) as JsonRpcMessage);
      }
      const { pads, answer } = judge(messages, 1);
      expect(pads).toEqual([20 * MiB]);
      expect(answer).toContain('flooded 1');
    } finally {
      close();
    }
  }, 180_000);

  for (const mode of ['own', 'shared'] as const) {
    it(`the 2026-07-28 door (bridged to a 2025 server, ${mode === 'own' ? 'per-session' : 'shared'} child): a 20 MiB progress notification, then the result`, async () => {
      const h = await hub();
      const body = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'flood',
          arguments: { count: 1, bytes: 20 * MiB },
          _meta: { progressToken: 'big', 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      };
      const res = await post(h, mode, body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'flood' } });
      const { messages } = await messagesOfResponse(res, 120_000);
      const { pads, answer } = judge(messages, 7);
      expect(pads).toEqual([20 * MiB]);
      expect(answer).toContain('flooded 1');
    }, 180_000);
  }
});
