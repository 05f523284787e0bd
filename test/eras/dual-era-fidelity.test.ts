/**
 * PROTOCOL Q11 (fidelity: a client is served in its own era whenever the server speaks it).
 *
 * A dual-era server whose 2025 tools ask the client the 2025 way (the dual-era fixture with
 * `--server-requests legacy`: `ctx.mcpReq.send({ method: 'sampling/createMessage' |
 * 'elicitation/create', … })`, which the SDK refuses on a 2026-07-28 request) works for a 2025
 * client only when that client reaches it in the 2025 era. So a 2025 client (SDK v1 `Client` +
 * `StreamableHTTPClientTransport`, declaring sampling and elicitation, with deterministic
 * handlers) must get, through the hub, the same answers from `test_sampling`, `test_elicitation`
 * and `era` as it gets directly — whichever era's client reached the server through the hub
 * first: a 2026-07-28 client (SDK v2 pinned to 2026-07-28: `server/discover`, `tools/list`, a
 * call) before it, or a 2025 client, then a 2026-07-28 client, then a second 2025 client. For a
 * stdio upstream (the direct answers from the fixture spawned with the SDK v1
 * `StdioClientTransport`) and a remote one (the fixture in HTTP mode, called directly).
 * Real processes on loopback; every process is killed after its test (test/helpers/cleanup.ts).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { killQuietly } from '../helpers/processes.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { startFixture } from '../remote/remote-harness.js';

const DUAL_ERA = path.join(FIXTURES_DIR, 'dual-era-server.mjs');
/** The fixture's mode in which its 2025 tools always ask the client with 2025 requests. */
const LEGACY_REQUESTS = ['--server-requests', 'legacy'];
const MODERN = '2026-07-28';
const SERVERS = { stdio: 'dual-stdio', remote: 'dual-remote' } as const;
type Kind = keyof typeof SERVERS;

/** What a 2025 client gets from the tools that ask it, and what it was asked. */
interface Answers {
  test_sampling: unknown;
  test_elicitation: unknown;
  era: unknown;
  asked: string[];
}

interface Setup {
  hub: TestHub;
  /** The remote fixture's own URL (what the hub's `dual-remote` entry points at). */
  remoteUrl: string;
}

/** The fixture over HTTP as the remote, and a hub with it plus a stdio entry of the same fixture. */
async function setup(): Promise<Setup> {
  const remote = await startFixture(DUAL_ERA, ['--http', '--port', '0', ...LEGACY_REQUESTS]);
  const hub = await startHub({
    servers: {
      [SERVERS.stdio]: { command: process.execPath, args: [DUAL_ERA, '--stdio', ...LEGACY_REQUESTS] },
      [SERVERS.remote]: { url: remote.url },
    },
  });
  return { hub, remoteUrl: remote.url };
}

/** An SDK v1 (2025) client with deterministic sampling and elicitation handlers that note what they were asked. */
function legacyClient(): { client: LegacyClient; asked: string[] } {
  const asked: string[] = [];
  const client = new LegacyClient({ name: 'fidelity-2025-client', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first && !Array.isArray(first) && first.type === 'text' ? first.text : '?';
    asked.push(`sampling: ${prompt}`);
    return { model: 'fidelity-model', role: 'assistant', content: { type: 'text', text: `sampled "${prompt}"` }, stopReason: 'endTurn' };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
  });
  return { client, asked };
}

/** A tool result as the comparison sees it: its content and whether it is an error. */
function outcome(result: unknown): unknown {
  const r = result as { content?: unknown; isError?: boolean };
  return { isError: r.isError === true, content: r.content };
}

/** Connects a 2025 client over `transport`, calls the tools that ask it (and `era`), closes it. */
async function answersOver(transport: Transport, connected?: () => void): Promise<Answers> {
  const { client, asked } = legacyClient();
  await client.connect(transport);
  connected?.();
  try {
    return {
      test_sampling: outcome(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say something' } })),
      test_elicitation: outcome(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })),
      era: outcome(await client.callTool({ name: 'era', arguments: {} })),
      asked,
    };
  } finally {
    await client.close();
  }
}

/** The answers straight from the server: the remote at its URL, or the fixture spawned on stdio. */
async function direct(kind: Kind, remoteUrl: string): Promise<Answers> {
  if (kind === 'remote') return answersOver(new LegacyHttpTransport(new URL(remoteUrl)));
  const transport = new LegacyStdioTransport({ command: process.execPath, args: [DUAL_ERA, '--stdio', ...LEGACY_REQUESTS], stderr: 'pipe' });
  // The child is killed by its pid after the test, whatever happens to the client.
  return answersOver(transport, () => {
    const pid = transport.pid;
    if (pid !== null) onCleanup(() => killQuietly(pid));
  });
}

/** A 2025 client through the hub. */
function viaHub(hub: TestHub, kind: Kind): Promise<Answers> {
  return answersOver(new LegacyHttpTransport(new URL(hub.mcpUrl(SERVERS[kind])), { requestInit: { headers: hub.authHeader() } }));
}

/** A 2026-07-28 client (SDK v2 pinned) uses the server through the hub: server/discover, tools/list, a call. */
async function modernUse(hub: TestHub, kind: Kind): Promise<void> {
  const client = new ModernClient({ name: 'fidelity-2026-client', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new ModernHttpTransport(new URL(hub.mcpUrl(SERVERS[kind])), { requestInit: { headers: hub.authHeader() } }));
  try {
    expect(client.getProtocolEra()).toBe('modern');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_sampling', 'test_elicitation', 'era']));
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'a 2026-07-28 client was here' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'a 2026-07-28 client was here' }]);
    // …served in its own era too, whoever came before it (not bridged onto a 2025 session).
    expect((await client.callTool({ name: 'era', arguments: {} })).content).toEqual([{ type: 'text', text: 'modern' }]);
  } finally {
    await client.close();
  }
}

/** The direct answers are what the fixture gives a 2025 client that answers every request. */
function expectServedInTheLegacyEra(answers: Answers): void {
  expect(answers.test_sampling).toEqual({ isError: false, content: [{ type: 'text', text: 'LLM response: sampled "Say something"' }] });
  expect(answers.test_elicitation).toEqual({
    isError: false,
    content: [{ type: 'text', text: 'User response: action=accept, content={"username":"grace","email":"grace@example.com"}' }],
  });
  expect(answers.era).toEqual({ isError: false, content: [{ type: 'text', text: 'legacy' }] });
  expect(answers.asked).toEqual(['sampling: Say something', 'elicitation: Who are you?']);
}

describe('Q11: a 2025 client of a dual-era server gets the same answers through the hub as directly, after a 2026-07-28 client', () => {
  for (const kind of ['stdio', 'remote'] as const) {
    it(`${kind}: a 2026-07-28 client first, then a 2025 client`, async () => {
      const { hub, remoteUrl } = await setup();
      const expected = await direct(kind, remoteUrl);
      expectServedInTheLegacyEra(expected);

      await modernUse(hub, kind);
      expect(await viaHub(hub, kind)).toEqual(expected);
    }, 60_000);
  }
});

describe('Q11: … and whichever era came first: a 2025 client, a 2026-07-28 client, a second 2025 client', () => {
  for (const kind of ['stdio', 'remote'] as const) {
    it(`${kind}: a 2025 client first, then a 2026-07-28 client, then a second 2025 client`, async () => {
      const { hub, remoteUrl } = await setup();
      const expected = await direct(kind, remoteUrl);
      expectServedInTheLegacyEra(expected);

      expect(await viaHub(hub, kind), 'the first 2025 client').toEqual(expected);
      await modernUse(hub, kind);
      expect(await viaHub(hub, kind), 'the second 2025 client, after a 2026-07-28 client').toEqual(expected);
      // What the hub learned shows in the server's status: both eras, each from its own evidence.
      const overview = await apiCall<Array<{ id: string; status: { era?: unknown } }>>(hub, 'servers.overview');
      expect(overview.value!.find((s) => s.id === SERVERS[kind])?.status.era).toMatchObject({
        era: 'both',
        legacy: { speaks: true, how: 'initialize' },
        modern: { speaks: true, how: 'probe' },
        versions: expect.arrayContaining([MODERN]),
      });
    }, 60_000);
  }
});
