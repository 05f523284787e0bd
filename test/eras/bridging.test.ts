/**
 * Issue 14, the eras bridged over real processes (PROTOCOL Q1, Q5, Q7–Q9): the official SDKs'
 * clients through the hub to servers of the other era.
 *
 * - A legacy client (SDK v1, `initialize` and a session) → a modern-only server (the dual-era
 *   fixture with `--era modern`, which refuses `initialize` with -32022), over stdio and HTTP:
 *   `initialize` is answered from `server/discover`, the server's `input_required` results
 *   become elicitation and sampling requests on the client's session, and `resources/subscribe`
 *   becomes a `subscriptions/listen` stream.
 * - A modern client (SDK v2 pinned to 2026-07-28) → a legacy server (everything-server.mjs and
 *   the dual-era fixture with `--era legacy` over HTTP): the hub keeps a legacy session for it,
 *   the server's elicitation and sampling requests arrive as `input_required`, and
 *   `subscriptions/listen` becomes `resources/subscribe`.
 * - `auto` mode: an SDK v2 client that probes finds the hub modern, whatever is behind it.
 * The era the hub found shows in the server's status.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer, type ServerEntry } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';
import { startFixture } from '../remote/remote-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
const MODERN = '2026-07-28';

function modernStdio(): ServerEntry {
  return { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] };
}

async function remoteFixture(era: 'modern' | 'legacy' | 'auto'): Promise<{ url: string }> {
  return startFixture(DUAL_ERA, ['--http', '--port', '0', '--era', era]);
}

function textOf(result: unknown): string {
  const content = (result as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined;
  return (content ?? []).map((c) => c.text ?? '').join('');
}

/** A legacy (2025) client of the SDK v1 with elicitation and sampling handlers, connected to a hub endpoint. */
async function legacyClient(hub: TestHub, serverId: string): Promise<{ client: LegacyClient; asked: string[] }> {
  const asked: string[] = [];
  const client = new LegacyClient({ name: 'legacy-client', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'a sampled answer' } };
  });
  await client.connect(new LegacyHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  return { client, asked };
}

/** An SDK v2 client pinned to 2026-07-28 (or probing, `auto`), with elicitation and sampling handlers. */
async function modernClient(hub: TestHub, serverId: string, mode: 'pin' | 'auto' = 'pin'): Promise<{ client: ModernClient; asked: string[] }> {
  const asked: string[] = [];
  const client = new ModernClient(
    { name: 'modern-client', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: mode === 'pin' ? { pin: MODERN } : 'auto' } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'a sampled answer' } };
  });
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(serverId)), { requestInit: { headers: hub.authHeader() } }));
  return { client, asked };
}

async function eraOf(hub: TestHub, serverId: string): Promise<unknown> {
  const answer = await apiCall<Array<{ id: string; status: { era?: unknown } }>>(hub, 'servers.overview');
  expect(answer.ok).toBe(true);
  return answer.value!.find((s) => s.id === serverId)?.status.era;
}

describe('Q9: a legacy client (SDK v1) → the hub → a modern-only server', () => {
  for (const kind of ['stdio', 'remote'] as const) {
    it(`${kind}: initialize answered from server/discover; tools, elicitation and sampling raised by a tool; a list-changed subscription`, async () => {
      const entry = kind === 'stdio' ? modernStdio() : { url: (await remoteFixture('modern')).url };
      const hub = await startHub({ servers: { modern: entry } });
      const { client, asked } = await legacyClient(hub, 'modern');
      try {
        // The server never saw an initialize: the hub answered it from the server's DiscoverResult.
        expect(client.getServerVersion()?.name).toBe('patchbay-dual-era-fixture');
        expect(client.getServerCapabilities()?.tools).toBeDefined();
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'era', 'test_elicitation', 'test_sampling']));
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hello across eras' } }))).toBe('hello across eras');
        // The server answered in its own era: the hub spoke 2026-07-28 to it.
        expect(textOf(await client.callTool({ name: 'era', arguments: {} }))).toBe('modern');

        // input_required → elicitation/create on the client's session, retried with the answer.
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
        expect(asked).toContain('elicitation: Who are you?');
        expect(textOf(elicited)).toContain('grace');
        const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } });
        expect(asked).toContain('sampling');
        expect(textOf(sampled)).toContain('a sampled answer');

        // The list-changed notification a legacy client gets unasked comes from a listen stream.
        const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
        expect(textOf(await client.callTool({ name: 'test_trigger_tool_change', arguments: {} }))).toBe('tools_list_changed published');
        await withTimeout(changed, 10_000, 'notifications/tools/list_changed through the listen stream');

        expect(await eraOf(hub, 'modern')).toMatchObject({ era: 'modern', versions: expect.arrayContaining([MODERN]) });
      } finally {
        await client.close();
      }
    });
  }
});

describe('Q8: a modern client (SDK v2 pinned to 2026-07-28) → the hub → a legacy server', () => {
  for (const kind of ['stdio', 'remote'] as const) {
    it(`${kind}: tools; the server's elicitation and sampling requests as input_required, answered by retry`, async () => {
      const entry = kind === 'stdio' ? everythingServer() : { url: (await remoteFixture('legacy')).url };
      const hub = await startHub({ servers: { legacy: entry } });
      const { client, asked } = await modernClient(hub, 'legacy');
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'test_elicitation', 'test_sampling']));
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');

        // The server sends elicitation/create over its session; the modern client sees input_required
        // (answered by the SDK through the same handler) and the retried call completes.
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Your name?' } });
        expect(asked).toContain('elicitation: Your name?');
        expect(JSON.stringify(elicited.content)).toContain('grace');
        const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } });
        expect(asked).toContain('sampling');
        expect(JSON.stringify(sampled.content)).toContain('a sampled answer');

        expect(await eraOf(hub, 'legacy')).toMatchObject({ era: 'legacy' });
      } finally {
        await client.close();
      }
    });
  }

  it('stdio: a subscriptions/listen stream gets the resources/updated of a resources/subscribe the hub made', async () => {
    const hub = await startHub({ servers: { legacy: everythingServer() } });
    const { client } = await modernClient(hub, 'legacy');
    try {
      const updated = new Promise<string>((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)));
      const subscription = await client.listen({ resourceSubscriptions: ['test://watched-resource'] });
      try {
        expect(textOf(await client.callTool({ name: 'touch_watched', arguments: {} }))).toBe('updated');
        expect(await withTimeout(updated, 10_000, 'notifications/resources/updated on the listen stream')).toBe('test://watched-resource');
      } finally {
        await subscription.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe('auto mode: an SDK v2 client that probes finds the hub modern, whatever is behind it', () => {
  for (const [label, entry] of [
    ['a legacy server', () => everythingServer()],
    ['a modern-only server', () => modernStdio()],
  ] as const) {
    it(label, async () => {
      const hub = await startHub({ servers: { s: entry() } });
      const { client } = await modernClient(hub, 's', 'auto');
      try {
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'auto' } }))).toBe('auto');
      } finally {
        await client.close();
      }
    });
  }

  it('an SDK v1 client reaches a dual-era server in its own era (no bridge)', async () => {
    const hub = await startHub({ servers: { dual: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'auto'] } } });
    const { client } = await legacyClient(hub, 'dual');
    try {
      expect(textOf(await client.callTool({ name: 'era', arguments: {} }))).toBe('legacy');
    } finally {
      await client.close();
    }
  });
});

// Keeps the v1 notification schema import honest: the legacy client's subscription path.
describe('a legacy client (SDK v1) → the hub → a modern-only server: resources/subscribe', () => {
  it('is accepted and answered (the hub turns it into a listen stream)', async () => {
    const hub = await startHub({ servers: { modern: modernStdio() } });
    const { client } = await legacyClient(hub, 'modern');
    try {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => undefined);
      await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
      await expect(client.unsubscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });
});
