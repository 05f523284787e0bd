/**
 * Issue 26, MCP Apps behind a profile and across the eras, with the app fixture
 * (test/fixtures/app-server.mjs: the extension's own server helpers on the SDK v2 server):
 * - an app-only tool (`_meta.ui.visibility: ["app"]`) is not in the profile's list (the model's),
 *   nor in its token totals, and is callable by its profile name and by its own name;
 * - a tool's own name that two members share is refused with the names to use instead;
 * - `prefix` per member and `prefix: false` on a profile of several servers;
 * - a `ui://` URI two members claim is made unique per member (`ui://<server>/<rest>`) in the
 *   tools' `_meta.ui` and the resources list alike, and a read of each reaches its member, in
 *   both eras; a URI only one member has stays byte for byte;
 * - the client's `io.modelcontextprotocol/ui` capability reaches the server through
 *   `/mcp/<server>`, a profile and both era bridges, and a member's declared extension reaches
 *   the client of the profile.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { toolText } from '../helpers/json-rpc.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { appFixture, UI_CAPABILITIES, UI_EXTENSION } from './app-harness.js';

const UI_DECLARED = JSON.stringify({ [UI_EXTENSION]: UI_CAPABILITIES.extensions[UI_EXTENSION] });

function names(result: unknown): string[] {
  return ((result as { tools: Array<{ name: string }> }).tools ?? []).map((t) => t.name).sort();
}

async function legacyText(hub: TestHub, serverId: string, tool: string): Promise<string> {
  const client = new LegacyClient({ name: 'legacy-host', version: '1' }, { capabilities: UI_CAPABILITIES });
  await client.connect(new LegacyHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  try {
    return toolText({ jsonrpc: '2.0', id: 0, result: await client.callTool({ name: tool, arguments: {} }) });
  } finally {
    await client.close();
  }
}

async function modernText(hub: TestHub, serverId: string, tool: string): Promise<string> {
  const client = new ModernClient({ name: 'modern-host', version: '1' }, { capabilities: UI_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  try {
    return toolText({ jsonrpc: '2.0', id: 0, result: await client.callTool({ name: tool, arguments: {} }) });
  } finally {
    await client.close();
  }
}

describe('MCP Apps behind profiles and across the eras', () => {
  it('hides an app-only tool from the profile\'s list and totals, and still calls it by either name', async () => {
    const hub = await startHub({ servers: { board: appFixture(), chart: appFixture({ app: 'chart' }) }, config: { profiles: { apps: { servers: ['board', 'chart'] } } } });
    // The server's own endpoint passes everything on: the host filters by visibility itself.
    const direct = await connect(hub, 'board', { capabilities: UI_CAPABILITIES });
    expect(names((await direct.request('tools/list')).response.result)).toEqual(['board_refresh', 'show_board', 'ui_capability']);

    const profile = await connect(hub, '@apps', { capabilities: UI_CAPABILITIES });
    expect(names((await profile.request('tools/list')).response.result)).toEqual(['board__show_board', 'board__ui_capability', 'chart__show_chart', 'chart__ui_capability']);
    expect(toolText((await profile.callTool('board__board_refresh')).response)).toBe('refreshed board');
    expect(toolText((await profile.callTool('chart_refresh')).response)).toBe('refreshed chart');

    const shown = await apiCall<{ totals: { tools: number }; members: Array<{ server: string; tools: Array<{ name: string; appOnly?: boolean }> }> }>(hub, 'profiles.show', { name: 'apps' });
    expect(shown.ok).toBe(true);
    expect(shown.value!.totals.tools).toBe(4);
    expect(shown.value!.members.find((m) => m.server === 'board')!.tools.find((t) => t.name === 'board_refresh')).toMatchObject({ appOnly: true });
  }, 60_000);

  it('refuses a tool\'s own name that two members share, naming the profile names to call', async () => {
    const hub = await startHub({ servers: { one: appFixture(), two: appFixture() }, config: { profiles: { twins: { servers: ['one', 'two'] } } } });
    const profile = await connect(hub, '@twins');
    const ambiguous = await profile.callTool('show_board');
    expect(ambiguous.response.error?.message).toBe('Tool show_board is offered by 2 servers of this profile (one, two): call it by its name in the profile (one__show_board, two__show_board)');
    expect(toolText((await profile.callTool('two__show_board')).response)).toBe('board shown');
  }, 60_000);

  it('prefixes per member, and unprefixed names of several servers take a suffix only where they clash', async () => {
    const hub = await startHub({
      servers: { board: appFixture(), chart: appFixture({ app: 'chart' }) },
      config: { profiles: { mixed: { servers: { board: { prefix: false }, chart: {} } }, bare: { servers: ['board', 'chart'], prefix: false } } },
    });
    const mixed = await connect(hub, '@mixed');
    expect(names((await mixed.request('tools/list')).response.result)).toEqual(['chart__show_chart', 'chart__ui_capability', 'show_board', 'ui_capability']);
    const bare = await connect(hub, '@bare');
    const listed = names((await bare.request('tools/list')).response.result);
    expect(listed.filter((n) => !n.startsWith('ui_capability'))).toEqual(['show_board', 'show_chart']);
    // Both servers have ui_capability: both names take a suffix, and the bare name is ambiguous.
    expect(listed.filter((n) => n.startsWith('ui_capability'))).toEqual([expect.stringMatching(/^ui_capability_[a-z2-7]{6}$/), expect.stringMatching(/^ui_capability_[a-z2-7]{6}$/)]);
    expect((await bare.callTool('ui_capability')).response.error?.message).toMatch(/^Tool ui_capability is offered by 2 servers of this profile \(board, chart\)/);
    expect(toolText((await bare.callTool('show_chart')).response)).toBe('chart shown');
  }, 60_000);

  it('carries the client\'s MCP Apps capability to the server in both eras, through a profile and both bridges', async () => {
    const hub = await startHub({
      servers: { auto: appFixture(), legacy: appFixture({ era: 'legacy' }), modern: appFixture({ era: 'modern' }) },
      config: { profiles: { apps: { servers: ['auto'] } } },
    });
    expect(await legacyText(hub, 'auto', 'ui_capability')).toBe(UI_DECLARED);
    expect(await legacyText(hub, '@apps', 'auto__ui_capability')).toBe(UI_DECLARED);
    // A 2026-07-28 client of the profile, calling by the tool's own name as an app does.
    expect(await modernText(hub, '@apps', 'ui_capability')).toBe(UI_DECLARED);
    expect(await modernText(hub, 'auto', 'ui_capability')).toBe(UI_DECLARED);
    // 2026-07-28 client → 2025-only server, and 2025 client → 2026-only server.
    expect(await modernText(hub, 'legacy', 'ui_capability')).toBe(UI_DECLARED);
    expect(await legacyText(hub, 'modern', 'ui_capability')).toBe(UI_DECLARED);
    // And the other way: the member's declared extension reaches the profile's client.
    const profile = await connect(hub, '@apps', { capabilities: UI_CAPABILITIES });
    expect((profile.initializeResult!.capabilities as { extensions?: unknown }).extensions).toEqual({ [UI_EXTENSION]: {} });
  }, 90_000);

  it('makes a ui:// URI two members claim unique per member, and reads each from its member, in both eras', async () => {
    const hub = await startHub({ servers: { one: appFixture(), two: appFixture(), chart: appFixture({ app: 'chart' }) }, config: { profiles: { twins: { servers: ['one', 'two', 'chart'] } } } });
    const legacy = await connect(hub, '@twins', { capabilities: UI_CAPABILITIES });
    const modern = new ModernClient({ name: 'modern-host', version: '1' }, { capabilities: UI_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernHttpTransport(new URL(hub.mcpUrl('@twins')), { requestInit: { headers: hub.authHeader() } }));
    try {
      const uiOf = (tools: Array<{ name: string; _meta?: { ui?: { resourceUri?: string } } }>, name: string) => tools.find((t) => t.name === name)?._meta?.ui?.resourceUri;
      const legacyTools = (await legacy.request('tools/list')).response.result as { tools: Array<{ name: string; _meta?: { ui?: { resourceUri?: string } } }> };
      const modernTools = (await modern.listTools()).tools as Array<{ name: string; _meta?: { ui?: { resourceUri?: string } } }>;
      for (const tools of [legacyTools.tools, modernTools]) {
        expect(uiOf(tools, 'one__show_board')).toBe('ui://one/board/view.html');
        expect(uiOf(tools, 'two__show_board')).toBe('ui://two/board/view.html');
        // Claimed by one member only: unchanged.
        expect(uiOf(tools, 'chart__show_chart')).toBe('ui://chart/view.html');
      }
      const listed = ((await legacy.request('resources/list')).response.result as { resources: Array<{ uri: string }> }).resources.map((r) => r.uri).sort();
      expect(listed).toEqual(['ui://chart/view.html', 'ui://one/board/view.html', 'ui://two/board/view.html']);
      expect(((await modern.listResources()).resources.map((r) => r.uri)).sort()).toEqual(listed);

      // Each unique URI reads its own member's resource: the same contents as that member's own endpoint.
      const direct = await connect(hub, 'two', { capabilities: UI_CAPABILITIES });
      const own = (await direct.request('resources/read', { uri: 'ui://board/view.html' })).response.result as { contents: Array<Record<string, unknown>> };
      const viaLegacy = (await legacy.request('resources/read', { uri: 'ui://two/board/view.html' })).response.result as { contents: Array<Record<string, unknown>> };
      const viaModern = (await modern.readResource({ uri: 'ui://two/board/view.html' })) as { contents: Array<Record<string, unknown>> };
      expect(viaLegacy.contents).toEqual(own.contents);
      expect(viaModern.contents).toEqual(own.contents);
      expect((await legacy.request('resources/read', { uri: 'ui://one/board/view.html' })).response.result).toEqual(own);
      // The inventory shows what clients see.
      const shown = await apiCall<{ members: Array<{ server: string; resources: Array<{ uri: string; shadowedBy?: string }> }> }>(hub, 'profiles.show', { name: 'twins' });
      expect(shown.value!.members.find((m) => m.server === 'two')!.resources).toEqual([expect.objectContaining({ uri: 'ui://two/board/view.html' })]);
      expect(shown.value!.members.find((m) => m.server === 'two')!.resources[0]!.shadowedBy).toBeUndefined();
    } finally {
      await modern.close();
    }
  }, 90_000);
});
