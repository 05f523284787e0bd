/**
 * Profiles in the 2026-07-28 era (issue 15, point 2): an SDK v2 client pinned to the modern
 * revision → `/mcp/@name` over a profile whose members speak different eras (the dual-era fixture
 * pinned to `--era modern`, and legacy servers). Each member is reached in its own best era: the
 * modern one directly (its `input_required` keys and `requestState` are its own), the legacy ones
 * through the hub's bridge; `server/discover` and the lists are the profile's own; a listen stream
 * hears list changes only when the merged list really changes; a dead member fails only its own
 * tools; each member's own request timeout applies, in both eras.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { toolCall, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { isAlive, killQuietly } from '../helpers/processes.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer, type ServerEntry } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { alphaServer, SAFE_NAME } from './profile-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

function modernOnly(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'], ...extra };
}

/** `p`: a modern-only member and a legacy one; `q`: the modern one and alpha (whose list changes on demand); `m`: the modern one alone. */
function modernProfileHub(servers: Record<string, ServerEntry> = {}): Promise<TestHub> {
  return startHub({
    servers: { modern: modernOnly(), legacy: everythingServer(), alpha: alphaServer(), ...servers },
    config: { profiles: { p: { servers: ['modern', 'legacy'] }, q: { servers: ['modern', 'alpha'] }, m: { servers: ['modern'] } } },
  });
}

function textOf(result: unknown): string {
  const content = (result as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined;
  return (content ?? []).map((c) => c.text ?? '').join('');
}

/** An SDK v2 client pinned to 2026-07-28, answering elicitation and sampling. */
async function modernClient(hub: TestHub, id: string): Promise<{ client: ModernClient; asked: string[] }> {
  const asked: string[] = [];
  const client = new ModernClient({ name: 'modern-profile-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'a sampled answer' } };
  });
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(id)), { requestInit: { headers: hub.authHeader() } }));
  return { client, asked };
}

/** One modern request on raw HTTP (the envelope and headers an SDK would send); every message of its answer. */
async function modern(hub: TestHub, id: string, rpcId: number, method: string, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}): Promise<JsonRpcMessage[]> {
  const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
  const body = {
    jsonrpc: '2.0',
    id: rpcId,
    method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
  };
  const res = await post(hub, id, body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}) } });
  expect(res.headers.get('mcp-session-id')).toBeNull();
  return (await messagesOfResponse(res, 30_000)).messages;
}

/**
 * The pid of the child that answers the modern member's modern requests at its own endpoint: the
 * one child the hub keeps for the server's modern clients. The profile reaching the member through
 * the member's own modern upstream (not a legacy session of its own) is answered by the same one.
 */
async function ownModernChild(hub: TestHub): Promise<number> {
  return Number(toolText(finalOf(await modern(hub, 'modern', 99, 'tools/call', { name: 'whoami', arguments: {} }))));
}

function finalOf(messages: JsonRpcMessage[]): JsonRpcMessage {
  const last = messages.at(-1);
  if (!last) throw new Error('no answer');
  return last;
}

describe('a profile in the modern era (SDK v2 pinned to 2026-07-28 → /mcp/@p)', () => {
  it('server/discover is the profile’s; tools/list is the union under safe names; calls reach each member in its own era', async () => {
    const hub = await modernProfileHub();
    const { client } = await modernClient(hub, '@p');
    try {
      const discover = await client.discover();
      expect(discover.supportedVersions).toEqual([MODERN]);
      expect(discover.capabilities).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} });
      expect((discover._meta as Record<string, unknown>)[SERVER_INFO]).toMatchObject({ name: 'patchbay', title: "Patchbay profile 'p'" });
      expect(discover.instructions).toContain('## modern\n\nPatchbay test fixture serving both MCP protocol eras.');

      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of names) expect(name).toMatch(SAFE_NAME);
      expect(names).toEqual(expect.arrayContaining(['modern__echo', 'modern__era', 'modern__test_elicitation', 'legacy__echo', 'legacy__test_elicitation', 'legacy__touch_watched']));

      // The modern member is spoken to in 2026-07-28 itself, through its own modern upstream.
      expect(textOf(await client.callTool({ name: 'modern__era', arguments: {} }))).toBe('modern');
      expect(Number(textOf(await client.callTool({ name: 'modern__whoami', arguments: {} })))).toBe(await ownModernChild(hub));
      expect(textOf(await client.callTool({ name: 'modern__echo', arguments: { text: 'to modern' } }))).toBe('to modern');
      expect(textOf(await client.callTool({ name: 'legacy__echo', arguments: { text: 'to legacy' } }))).toBe('to legacy');

      // The merged list's cache hints are the most conservative of its members': the bridged
      // legacy member's lists are immediately stale and private.
      const listed = finalOf(await modern(hub, '@p', 7, 'tools/list'));
      expect(listed).toMatchObject({ id: 7, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private' } });
      const q = finalOf(await modern(hub, '@q', 8, 'prompts/list'));
      expect(q).toMatchObject({ id: 8, result: { resultType: 'complete', cacheScope: 'private' } });
      // A profile of the modern member alone keeps the member's own hints (public, five minutes).
      const own = finalOf(await modern(hub, '@m', 10, 'tools/list')).result as { ttlMs: number; cacheScope: string };
      expect(own.cacheScope).toBe('public');
      expect(own.ttlMs).toBeGreaterThan(0);
      expect(own.ttlMs).toBeLessThanOrEqual(300_000);

      // Methods the era removed are unknown here, as on a modern server.
      const res = await post(hub, '@p', { jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'ping' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ id: 9, error: { code: -32601 } });
    } finally {
      await client.close();
    }
  });

  it('MRTR: an input_required answer passes through with the member’s own keys and requestState; the retry reaches the same member', async () => {
    const hub = await modernProfileHub();
    const caps = { elicitation: {}, sampling: {} };

    // The modern member's own key (`elicitation`), not one the hub made up.
    const first = finalOf(await modern(hub, '@p', 1, 'tools/call', { name: 'modern__test_elicitation', arguments: { message: 'Who?' } }, caps));
    const asked = first.result as { resultType: string; inputRequests: Record<string, { method: string }>; requestState?: string };
    expect(asked.resultType).toBe('input_required');
    expect(Object.keys(asked.inputRequests)).toEqual(['elicitation']);
    expect(asked.inputRequests.elicitation!.method).toBe('elicitation/create');
    const done = finalOf(
      await modern(hub, '@p', 2, 'tools/call', { name: 'modern__test_elicitation', arguments: { message: 'Who?' }, inputResponses: { elicitation: { action: 'accept', content: { username: 'ann', email: 'ann@example.com' } } } }, caps),
    );
    expect(toolText(done)).toContain('"username":"ann"');

    // A requestState the member sealed itself comes back untouched and verifies there.
    const stated = finalOf(await modern(hub, '@p', 3, 'tools/call', { name: 'modern__test_input_required_result_request_state', arguments: {} }, caps));
    const state = stated.result as { inputRequests: Record<string, unknown>; requestState: string };
    expect(Object.keys(state.inputRequests)).toEqual(['confirm']);
    const verified = finalOf(
      await modern(hub, '@p', 4, 'tools/call', { name: 'modern__test_input_required_result_request_state', arguments: {}, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: state.requestState }, caps),
    );
    expect(toolText(verified)).toBe('state-ok: requestState verified and confirmation received');

    // The legacy member's elicitation/create request, made input_required by the hub's bridge.
    const bridged = finalOf(await modern(hub, '@p', 5, 'tools/call', { name: 'legacy__test_elicitation', arguments: { message: 'And you?' } }, caps));
    const legacyAsk = bridged.result as { resultType: string; inputRequests: Record<string, { method: string }>; requestState: string };
    expect(legacyAsk.resultType).toBe('input_required');
    const [key] = Object.keys(legacyAsk.inputRequests);
    expect(key).toMatch(/^input-\d+$/);
    const legacyDone = finalOf(
      await modern(hub, '@p', 6, 'tools/call', { name: 'legacy__test_elicitation', arguments: { message: 'And you?' }, inputResponses: { [key!]: { action: 'accept', content: { username: 'bob', email: 'bob@example.com' } } }, requestState: legacyAsk.requestState }, caps),
    );
    expect(toolText(legacyDone)).toContain('bob');

    // The SDK answers both kinds through its handlers and retries by itself.
    const { client, asked: handled } = await modernClient(hub, '@p');
    try {
      expect(textOf(await client.callTool({ name: 'modern__test_elicitation', arguments: { message: 'Modern asks' } }))).toContain('grace');
      expect(textOf(await client.callTool({ name: 'legacy__test_elicitation', arguments: { message: 'Legacy asks' } }))).toContain('grace');
      expect(textOf(await client.callTool({ name: 'modern__test_sampling', arguments: { prompt: 'hi' } }))).toContain('a sampled answer');
      expect(handled).toEqual(['elicitation: Modern asks', 'elicitation: Legacy asks', 'sampling']);
    } finally {
      await client.close();
    }
  });

  it('a listen stream hears a member’s real list change once, a toggle too, and nothing for a change that changes nothing', async () => {
    const hub = await modernProfileHub();
    const { client } = await modernClient(hub, '@q');
    const heard: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
    try {
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).toEqual(expect.arrayContaining(['modern__echo', 'alpha__echo', 'alpha__toggle_extra']));
      expect(before).not.toContain('alpha__extra');
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
      // The member's listen is on its own modern channel, the child its own endpoint uses.
      expect(Number(textOf(await client.callTool({ name: 'modern__whoami', arguments: {} })))).toBe(await ownModernChild(hub));

      // The modern member announces a change but its list is the same: the client's list is too.
      expect(textOf(await client.callTool({ name: 'modern__test_trigger_tool_change', arguments: {} }))).toBe('tools_list_changed published');
      // alpha (legacy, bridged) really adds a tool.
      expect(textOf(await client.callTool({ name: 'alpha__toggle_extra', arguments: {} }))).toBe('added');
      await waitFor(() => heard.length >= 1, 'tools/list_changed on the listen stream');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('alpha__extra');
      expect(textOf(await client.callTool({ name: 'alpha__extra', arguments: {} }))).toBe('extra');

      // A user's toggle reaches the open stream as well.
      const off = await apiCall(hub, 'profiles.setItem', { name: 'q', server: 'modern', kind: 'tools', item: 'echo', enabled: false });
      expect(off.ok).toBe(true);
      await waitFor(() => heard.length >= 2, 'tools/list_changed after the toggle');
      const after = (await client.listTools()).tools.map((t) => t.name);
      expect(after).not.toContain('modern__echo');
      expect(after).toContain('modern__era');
      // One notification per real change: none for the trigger, none twice.
      expect(heard).toEqual(['tools', 'tools']);
      await subscription.close();
    } finally {
      await client.close();
    }

    // A profile of the modern member alone passes on the member's own cache hints (public, for
    // minutes): a listening client keeps its list that long, and a toggle's list_changed is what
    // tells it otherwise.
    const { client: solo } = await modernClient(hub, '@m');
    const soloHeard: string[] = [];
    solo.setNotificationHandler('notifications/tools/list_changed', () => void soloHeard.push('tools'));
    try {
      const hints = finalOf(await modern(hub, '@m', 1, 'tools/list')).result as { ttlMs: number; cacheScope: string };
      expect(hints).toMatchObject({ cacheScope: 'public', ttlMs: expect.any(Number) });
      expect(hints.ttlMs).toBeGreaterThan(0);
      // A profile of one server still prefixes its names unless it says `prefix: false`.
      expect((await solo.listTools()).tools.map((t) => t.name)).toContain('modern__sleep');
      const subscription = await solo.listen({ toolsListChanged: true });
      expect((await apiCall(hub, 'profiles.setItem', { name: 'm', server: 'modern', kind: 'tools', item: 'sleep', enabled: false })).ok).toBe(true);
      await waitFor(() => soloHeard.length >= 1, 'tools/list_changed on the solo profile');
      expect((await solo.listTools()).tools.map((t) => t.name)).not.toContain('modern__sleep');
      expect(soloHeard).toEqual(['tools']);
      await subscription.close();
    } finally {
      await solo.close();
    }
  });

  it('a member that dies fails only its own calls, with an error naming it, and comes back', async () => {
    const hub = await modernProfileHub();
    const { client } = await modernClient(hub, '@p');
    try {
      const pid = Number(textOf(await client.callTool({ name: 'modern__whoami', arguments: {} })));
      expect(isAlive(pid)).toBe(true);
      expect(pid).toBe(await ownModernChild(hub));
      // Dies while answering: the call in flight fails with the member's name.
      const crashed = finalOf(await modern(hub, '@p', 1, 'tools/call', { name: 'modern__crash', arguments: { code: 3 } }));
      expect(crashed.error?.message).toMatch(/^server 'modern'/);
      expect(crashed.error?.data).toMatchObject({ server: 'modern' });
      await waitFor(() => !isAlive(pid), 'the crashed child to be gone');
      // The other member never noticed; the dead one's tools stay listed.
      expect(textOf(await client.callTool({ name: 'legacy__echo', arguments: { text: 'still here' } }))).toBe('still here');
      expect((await client.listTools({}, { cacheMode: 'refresh' } as never)).tools.map((t) => t.name)).toContain('modern__whoami');
      // It comes back (a new child) and answers again.
      const again = await waitFor(async () => {
        const out = finalOf(await modern(hub, '@p', 2, 'tools/call', { name: 'modern__whoami', arguments: {} }));
        return out.error ? undefined : Number(toolText(out));
      }, 'the modern member to answer again', 15_000, 100);
      expect(again).not.toBe(pid);
      // Killed from outside, with nothing in flight: the next call starts it again.
      killQuietly(again, 'SIGKILL');
      await waitFor(() => !isAlive(again), 'the killed child to be gone');
      const third = await waitFor(async () => {
        const out = finalOf(await modern(hub, '@p', 3, 'tools/call', { name: 'modern__whoami', arguments: {} }));
        return out.error ? undefined : Number(toolText(out));
      }, 'the modern member to answer after the kill', 15_000, 100);
      expect(third).not.toBe(again);
      // Back in its own era: its input_required keys are its own.
      const asked = finalOf(await modern(hub, '@p', 4, 'tools/call', { name: 'modern__test_elicitation', arguments: { message: 'back?' } }, { elicitation: {} }));
      expect(Object.keys((asked.result as { inputRequests: Record<string, unknown> }).inputRequests)).toEqual(['elicitation']);
    } finally {
      await client.close();
    }
  });

  it("each member's own requestTimeoutMs cuts its calls through the profile, in both eras", async () => {
    const hub = await modernProfileHub({ modern: modernOnly({ requestTimeoutMs: 1500 }), legacy: everythingServer({ requestTimeoutMs: 1500 }) });
    const cut = finalOf(await modern(hub, '@p', 1, 'tools/call', { name: 'modern__sleep', arguments: { ms: 600_000 } }));
    expect(cut.error).toMatchObject({ code: -32603, message: "Request timed out: server 'modern' did not answer 'tools/call' within 1.5s", data: { server: 'modern' } });
    const bridged = finalOf(await modern(hub, '@p', 2, 'tools/call', { name: 'legacy__sleep', arguments: { ms: 600_000 } }));
    expect(bridged.error?.message).toMatch(/^Request timed out: server 'legacy' did not answer 'tools\/call' within 1\.5s/);

    // A legacy client of the same profile (its session knows only the profile's deadline).
    const legacy = await connect(hub, '@p');
    const res = await legacy.post(toolCall(3, 'legacy__sleep', { ms: 600_000 }));
    const answer = (await withTimeout(messagesOfResponse(res, 60_000), 60_000, 'the timed-out call')).messages.find((m) => m.id === 3)!;
    expect(answer.error).toMatchObject({ code: -32603, message: "Request timed out: server 'legacy' did not answer 'tools/call' within 1.5s", data: { server: 'legacy' } });
    // The member still answers what comes next.
    expect(toolText((await legacy.callTool('legacy__echo', { text: 'after' })).response)).toBe('after');
  });
});
