/**
 * Issue 26, on-demand tools for big profiles (docs/profiles.md, "On-demand tools"): a profile of
 * three real stdio servers and 60+ tools lists only its pinned tools and three meta-tools; a
 * client finds a tool by words, describes it, calls it and gets what a direct call gets; the
 * call reaches the member as that tool's own call (the inspector's member session names it); in
 * a 2025 session the found tool then joins the list (`list_changed`); a client token's entry in
 * `clients` turns it on for that client only, in both eras; a 2026-07-28 client gets the same;
 * the token meter counts both ways.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import type { ProfileView } from '../../src/shared/api/profiles-contract.js';
import { ClientTokenStore } from '../../src/main/core/home/client-tokens.js';
import { dataPaths } from '../../src/main/core/home/paths.js';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { connect, TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { alphaServer } from './profile-harness.js';

const MANY_TOOLS = path.join(REPO_ROOT, 'bench', 'many-tools-server.mjs');
const META = ['patchbay__call_tool', 'patchbay__describe_tool', 'patchbay__find_tools'];

async function value<T>(hub: TestHub, name: string, input: unknown = {}): Promise<T> {
  const answer = await apiCall<T>(hub, name, input);
  if (!answer.ok) throw new Error(`${name}: ${answer.code} ${answer.message}`);
  return answer.value as T;
}

function bigHub(onDemand: unknown): Promise<TestHub> {
  return startHub({
    servers: { everything: everythingServer(), catalogue: { command: process.execPath, args: [MANY_TOOLS, '40'] }, alpha: alphaServer() },
    config: { profiles: { big: { servers: ['everything', 'catalogue', 'alpha'], onDemand } } },
  });
}

async function listed(client: TestClient): Promise<string[]> {
  return ((await client.request('tools/list')).response.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort();
}

function structured<T>(m: JsonRpcMessage): T {
  return (m.result as { structuredContent: T }).structuredContent;
}

describe('on-demand tools', () => {
  it('lists pinned and meta-tools only; finds, describes and calls a tool as a direct call would; the found tool joins the session', async () => {
    const hub = await bigHub({ pinned: ['alpha__echo'] });
    const all = await value<ProfileView>(hub, 'profiles.show', { name: 'big', refresh: true });
    expect(all.totals.tools).toBeGreaterThanOrEqual(60);

    const client = await connect(hub, '@big');
    expect(await listed(client)).toEqual(['alpha__echo', ...META]);

    const found = structured<{ tools: Array<{ name: string; arguments: string[] }> }>((await client.callTool('patchbay__find_tools', { query: 'image content', limit: 3 })).response);
    expect(found.tools[0]!.name).toBe('everything__test_image_content');
    // Argument names are searched too, and typos are forgiven in longer words.
    const byArgs = structured<{ tools: Array<{ name: string }> }>((await client.callTool('patchbay__find_tools', { query: 'catalogue histroy record 17' })).response);
    expect(byArgs.tools[0]!.name).toBe('catalogue__tool_017');

    const described = structured<{ tool: { name: string; inputSchema: unknown } }>((await client.callTool('patchbay__describe_tool', { name: 'catalogue__tool_017' })).response);
    expect(described.tool).toMatchObject({ name: 'catalogue__tool_017', inputSchema: { required: ['id'] } });

    const direct = await connect(hub, 'everything');
    const viaMeta = await client.callTool('patchbay__call_tool', { name: 'everything__test_image_content', arguments: {} });
    expect(viaMeta.response.result).toEqual((await direct.callTool('test_image_content')).response.result);
    // The session hears that its list changed (the called tool joined it), before the answer.
    expect(viaMeta.messages.map((m) => m.method ?? 'answer')).toEqual(['notifications/tools/list_changed', 'answer']);
    expect(await listed(client)).toEqual(['alpha__echo', 'catalogue__tool_017', 'everything__test_image_content', ...META].sort());

    // The member got the tool's own call: its session in the inspector names test_image_content.
    const memberCall = await waitFor(async () => {
      const sessions = (await value<{ sessions: InspectorSession[] }>(hub, 'inspector.sessions.list', { limit: 1000 })).sessions;
      for (const s of sessions.filter((x) => x.server === 'everything' && x.transport.client === 'profile')) {
        const xs = (await value<{ exchanges: Exchange[] }>(hub, 'inspector.exchanges.list', { session: s.id, full: true, limit: 1000 })).exchanges;
        const call = xs.find((x) => x.method === 'tools/call' && (x.request as { params?: { name?: unknown } }).params?.name === 'test_image_content');
        if (call) return call;
      }
      return undefined;
    }, "the member's own tools/call in the inspector");
    expect(memberCall.status).toBe('ok');

    // A name nobody has is the tool's error, for the model to read.
    const unknown = await client.callTool('patchbay__call_tool', { name: 'no_such_tool' });
    expect(unknown.response.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("No tool named 'no_such_tool'") }] });
  }, 90_000);

  it('is a per-client choice: a client token listed in `clients` gets it, the hub token the whole list; the meter counts both ways', async () => {
    const hub = await bigHub({ enabled: false, clients: { cursor: true } });
    const tokens = await ClientTokenStore.open(dataPaths(hub.dataDir).clientTokensFile);
    const { token } = await tokens.mint({ client: 'cursor', label: 'Cursor', file: path.join(hub.dataDir, 'mcp.json') });
    await tokens.close();
    const asCursor = new TestClient({ ...hub, authHeader: () => ({ Authorization: `Bearer ${token}` }) }, '@big');
    await asCursor.connect();
    expect(await listed(asCursor)).toEqual(META);
    const everyone = await connect(hub, '@big');
    expect((await listed(everyone)).length).toBeGreaterThanOrEqual(60);
    // 2026-07-28 requests carry the token too: Cursor's get the meta-tools, the hub token's all.
    const modernTools = async (authorization: Record<string, string>): Promise<string[]> => {
      const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl('@big')), { requestInit: { headers: authorization } }));
      try {
        return (await client.listTools()).tools.map((t) => t.name).sort();
      } finally {
        await client.close();
      }
    };
    expect(await modernTools({ Authorization: `Bearer ${token}` })).toEqual(META);
    expect((await modernTools(hub.authHeader())).length).toBeGreaterThanOrEqual(60);

    const view = await value<ProfileView>(hub, 'profiles.show', { name: 'big' });
    expect(view.onDemand).toMatchObject({ enabled: false, clients: { cursor: true }, totals: { tools: 3 } });
    expect(view.onDemand!.totals.tokens).toBeLessThan(view.totals.tokens / 10);
    // 60+ tools are over Cursor's limit; three are not.
    expect(view.warnings.some((w) => w.client === 'Cursor' && w.kind === 'tools')).toBe(true);
    expect(view.onDemand!.warnings).toEqual([]);
  }, 90_000);

  it('serves a 2026-07-28 client the same way', async () => {
    const hub = await bigHub(true);
    const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl('@big')), { requestInit: { headers: hub.authHeader() } }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(META);
      const found = (await client.callTool({ name: 'patchbay__find_tools', arguments: { query: 'alpha echo' } })).structuredContent as { tools: Array<{ name: string }> };
      expect(found.tools[0]!.name).toBe('alpha__echo');
      const called = await client.callTool({ name: 'patchbay__call_tool', arguments: { name: 'alpha__echo', arguments: { text: 'hi' } } });
      expect(toolText({ jsonrpc: '2.0', id: 0, result: called })).toBe('alpha: hi');
    } finally {
      await client.close();
    }
  }, 90_000);
});
