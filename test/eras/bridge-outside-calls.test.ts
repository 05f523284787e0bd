/**
 * PROTOCOL Q12 (fidelity: every server→client request gets an answer): a 2026-07-28 client
 * reaches a 2025-only server through the hub's bridge, which holds a legacy session for it. The
 * server may ask that session something while no call of the client is open — the official
 * server-everything asks `roots/list` 350 ms after `notifications/initialized` when the client
 * declared roots. A modern client can be asked only inside a call that may answer
 * `input_required`, so the hub answers at once (ping: an empty result; anything else: -32601
 * saying why); without that the server waits for its own 60 s timeout on every new bridge session.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import type { JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { probeServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';
import { startCaptureHub, type CaptureHub } from '../inspector/inspector-harness.js';

const MODERN = '2026-07-28';
/** The official "everything" server from npm (SDK v1: the 2025 era only). */
const SERVER_EVERYTHING = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

async function modern(h: CaptureHub, server: string, id: number, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown>): Promise<JsonRpcMessage[]> {
  const name = method === 'tools/call' ? params.name : undefined;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'roots-client', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
  };
  const res = await post(h, server, body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}) } });
  return (await messagesOfResponse(res)).messages;
}

describe('Q12: server requests outside any call of a bridged modern client are answered at once', () => {
  it('server-everything (npm) asks roots/list after initialized: the hub refuses it at once, and the server says so on stderr', async () => {
    const h = await startCaptureHub({ servers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const [listed] = await modern(h, 'everything', 1, 'tools/list', {}, { roots: { listChanged: true } });
    expect((listed!.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);

    // The server's roots/list failed with the hub's answer, long before its own 60 s timeout
    // (the wait below is a bound on the test, not a measurement).
    const failed = async (): Promise<string | undefined> => {
      const events = await h.events();
      return events.find((e) => e.kind === 'stderr' && (e.text ?? '').includes('Failed to request roots'))?.text;
    };
    let line: string | undefined;
    await waitFor(async () => (line = await failed()) !== undefined, "server-everything's 'Failed to request roots' line", 15_000);
    expect(line).toContain("can answer 'roots/list' only during a tools/call, prompts/get or resources/read");

    // The inspector shows the server's request answered by the hub.
    const bridgeSession = (await h.sessions()).find((s) => s.server === 'everything' && s.transport.client === 'bridge');
    expect(bridgeSession).toBeDefined();
    const exchanges = await h.exchanges(bridgeSession!.id);
    expect(exchanges.find((x) => x.method === 'roots/list')).toMatchObject({ requester: 'server', status: 'error' });
  });

  it('ping outside a call gets an empty result, any other request -32601; the session keeps working', async () => {
    const gate = path.join(await tempDir('patchbay-ask-gate-'), 'ask');
    const h = await startCaptureHub({ servers: { probe: probeServer({ env: { PROBE_ASK: 'ping,roots/list,sampling/createMessage', PROBE_ASK_GATE: gate } }) } });
    const [listed] = await modern(h, 'probe', 1, 'tools/list', {}, { roots: {}, sampling: {} });
    expect(listed).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    // The first call is over: what the server asks now belongs to no call.
    writeFileSync(gate, '');
    expect(existsSync(gate)).toBe(true);
    const answers = async (): Promise<Array<Record<string, unknown>>> => {
      const [called] = await modern(h, 'probe', 2, 'tools/call', { name: 'dump_input', arguments: {} }, { roots: {}, sampling: {} });
      const text = ((called!.result as { content: Array<{ text: string }> }).content[0]!.text);
      return (JSON.parse(text) as string[]).map((l) => JSON.parse(l) as Record<string, unknown>).filter((m) => typeof m.id === 'string' && m.id.startsWith('probe-ask-'));
    };
    let got: Array<Record<string, unknown>> = [];
    await waitFor(async () => (got = await answers()).length === 3, 'the answers to the probe server’s three requests', 15_000);
    const byId = new Map(got.map((m) => [m.id, m]));
    expect(byId.get('probe-ask-1')).toEqual({ jsonrpc: '2.0', id: 'probe-ask-1', result: {} });
    expect(byId.get('probe-ask-2')).toMatchObject({ error: { code: -32601, message: expect.stringContaining("'roots/list'") } });
    expect(byId.get('probe-ask-3')).toMatchObject({ error: { code: -32601, message: expect.stringContaining("'sampling/createMessage'") } });
  });
});
