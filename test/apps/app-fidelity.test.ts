/**
 * Issue 26, MCP Apps through every endpoint: the real App servers from npm
 * (`server-basic-react`, `server-budget-allocator`) answer `tools/list` (each tool's `_meta.ui`)
 * and the read of their `ui://` resource (`text/html;profile=mcp-app`, with its `_meta`) through
 * `/mcp/<server>`, through `patchbay relay <server>` and through a profile exactly as they answer
 * a client that runs them itself: the same bytes (the profile's list is its own — prefixed names —
 * but every tool's `_meta` is the server's, and the read is byte for byte the server's).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { post } from '../helpers/mcp-http.js';
import { sseItemsOfText, messagesOf } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { relayEnv, requireBuild, BIN } from '../relay/relay-helpers.js';
import { APP_MIME, initializeWithUi, listAndRead, npmAppServer, rawStdio, UI_CAPABILITIES } from './app-harness.js';

beforeAll(requireBuild);

const APPS = [
  { id: 'basic', pkg: 'server-basic-react', uri: 'ui://get-time/mcp-app.html', tool: 'get-time' },
  { id: 'budget', pkg: 'server-budget-allocator', uri: 'ui://budget-allocator/mcp-app.html', tool: 'get-budget-data' },
] as const;

/** The answer's raw JSON text from a POST's body (application/json, or the one SSE event that carries it). */
async function answerText(res: Response, id: number): Promise<string> {
  const body = await res.text();
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) return body;
  const events = (await sseItemsOfText(body)).filter((i) => i.kind === 'event');
  const event = events.find((e) => (JSON.parse(e.data) as { id?: unknown }).id === id);
  if (!event) throw new Error(`no answer ${id} in ${body.slice(0, 300)}`);
  return event.data;
}

/** initialize (declaring the UI extension), tools/list and the read, as raw HTTP to /mcp/<id>. */
async function overHttp(hub: TestHub, serverId: string, uri: string): Promise<{ list: string; read: string }> {
  const init = await post(hub, serverId, { jsonrpc: '2.0', ...initializeWithUi(0) });
  expect(init.status).toBe(200);
  messagesOf(await sseItemsOfText(await init.text()));
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  const o = { ...(sessionId ? { sessionId } : {}), protocolVersion: '2025-11-25' };
  expect((await post(hub, serverId, { jsonrpc: '2.0', method: 'notifications/initialized' }, o)).status).toBe(202);
  const list = await answerText(await post(hub, serverId, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, o), 1);
  const read = await answerText(await post(hub, serverId, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri } }, o), 2);
  return { list, read };
}

describe('MCP Apps from npm through the hub, the relay and a profile', () => {
  it.each(APPS)('$pkg: tools/list and the ui:// read are the same bytes direct, through /mcp/$id and through the relay', async (a) => {
    const entry = npmAppServer(a.pkg);
    const direct = await listAndRead(rawStdio(entry.command, entry.args ?? []), a.uri);
    // What the server says is what a host needs: a tool with a UI, and the UI itself.
    const tool = (JSON.parse(direct.list) as { result: { tools: Array<{ name: string; _meta?: { ui?: { resourceUri?: string } } }> } }).result.tools.find((t) => t.name === a.tool);
    expect(tool?._meta?.ui?.resourceUri).toBe(a.uri);
    const content = (JSON.parse(direct.read) as { result: { contents: Array<{ uri: string; mimeType: string; text: string }> } }).result.contents[0]!;
    expect(content).toMatchObject({ uri: a.uri, mimeType: APP_MIME });
    expect(content.text).toContain('<html');

    const hub = await startHub({ servers: { [a.id]: entry } });
    expect(await overHttp(hub, a.id, a.uri)).toEqual(direct);
    const relayed = await listAndRead(rawStdio(process.execPath, [BIN, 'relay', a.id, '--no-start'], relayEnv(hub.dataDir)), a.uri);
    expect(relayed).toEqual(direct);
  }, 90_000);

  it('through a profile of both: every tool keeps its _meta, each ui:// read is the server\'s bytes, and an app\'s call by the tool\'s own name reaches its server', async () => {
    const hub = await startHub({ servers: { basic: npmAppServer('server-basic-react'), budget: npmAppServer('server-budget-allocator') }, config: { profiles: { apps: { servers: ['basic', 'budget'] } } } });
    const profile = await connect(hub, '@apps', { capabilities: UI_CAPABILITIES });
    const listed = (await profile.request('tools/list')).response.result as { tools: Array<{ name: string; title?: string; _meta?: unknown }> };
    for (const a of APPS) {
      const entry = npmAppServer(a.pkg);
      const direct = await listAndRead(rawStdio(entry.command, entry.args ?? []), a.uri);
      const own = (JSON.parse(direct.list) as { result: { tools: Array<{ name: string; _meta?: unknown }> } }).result.tools;
      for (const tool of own) {
        const exposed = listed.tools.find((t) => t.name === `${a.id}__${tool.name}`);
        expect(exposed?._meta).toEqual(tool._meta);
      }
      expect(await overHttp(hub, '@apps', a.uri)).toMatchObject({ read: direct.read });
      // The host passes the app's own call on: the name the app knows, not the profile's.
      const byOwnName = await profile.callTool(a.tool);
      expect(byOwnName.response.error).toBeUndefined();
      expect(byOwnName.response.result).toMatchObject({ content: [{ type: 'text' }] });
    }
  }, 90_000);
});
