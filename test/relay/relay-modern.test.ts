/**
 * `patchbay relay` in the 2026-07-28 ("modern") era (issue 14 item 4; PROTOCOL Q1–Q10): real relay
 * processes from the built CLI, a real hub, real stdio servers and HTTP remotes on loopback.
 *
 * - an SDK v2 client pinned to 2026-07-28 → relay → hub → a modern-only stdio server, and → a
 *   legacy stdio server through the hub's bridge: server/discover, tools, input_required answered
 *   by a retry, requests side by side, cancellation reaching the server, subscriptions/listen;
 * - an SDK v1 (legacy) client through the same relay, unchanged;
 * - `relay --url` to modern-only, legacy-only and dual-era remotes, from both kinds of client;
 * - bad modern input answered with a JSON-RPC error, and a listen stream whose hub went away.
 *
 * Concurrency is shown with `wait`/`release` (the first call is answered only once the second
 * reached the server), never with timing.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { isAlive } from '../helpers/processes.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer, type ServerEntry } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { BIN, hubRecord, initialize, requireBuild, spawnRelay, tempHome, textOf } from './relay-helpers.js';

beforeAll(requireBuild);

const MODERN = '2026-07-28';
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'modern-probe-server.mjs');
const DUAL = path.join(FIXTURES_DIR, 'dual-era-server.mjs');

/** The servers of these tests' hubs. */
function servers(): Record<string, ServerEntry> {
  return {
    // Modern-only stdio servers: the dual-era fixture pinned to 2026-07-28, and the probe.
    modern: { command: process.execPath, args: [DUAL, '--era', 'modern'] },
    mprobe: { command: process.execPath, args: [PROBE] },
    // Legacy stdio servers, reached by modern clients through the hub's bridge.
    fx: everythingServer(),
    lprobe: { command: process.execPath, args: [PROBE], env: { PROBE_ERA: 'legacy' } },
  };
}

function relayEnvironment(home: string): Record<string, string> {
  return { ...getDefaultEnvironment(), PATCHBAY_HOME: home, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn' };
}

/** Fills an elicitation form from its schema: what a user would type. */
function fillForm(schema: { properties?: Record<string, unknown> } | undefined): Record<string, string> {
  const answers: Record<string, string> = { name: 'Ada', username: 'ada', email: 'ada@example.com' };
  return Object.fromEntries(Object.keys(schema?.properties ?? {}).map((k) => [k, answers[k] ?? 'x']));
}

interface ModernClient {
  client: Client;
  /** Elicitation requests the client was asked (each answered from fillForm). */
  elicited: string[];
  errors: Error[];
}

/** An SDK v2 client pinned to 2026-07-28 on `patchbay relay …args` over stdio. */
async function modernClient(home: string, args: string[]): Promise<ModernClient> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'relay', ...args], env: relayEnvironment(home), stderr: 'pipe' });
  const client = new Client({ name: 'relay-modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } });
  const elicited: string[] = [];
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema?: { properties?: Record<string, unknown> } };
    elicited.push(params.message);
    return { action: 'accept', content: fillForm(params.requestedSchema) };
  });
  onCleanup(() => client.close());
  await client.connect(transport);
  return { client, elicited, errors };
}

function text(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  return text(await client.callTool({ name, arguments: args }));
}

/** A modern request line (the envelope a 2026-07-28 client puts in `_meta`). */
function modernLine(id: number | string | undefined, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {}, ...meta };
  return { ...(id === undefined ? {} : { id }), method, params: { ...params, _meta: envelope } };
}

describe('patchbay relay <server>, modern era', () => {
  it('an SDK client pinned to 2026-07-28 reaches a modern-only stdio server (no hub running: the relay starts it)', async () => {
    const home = await tempHome({ mcpServers: servers() });
    const { client, elicited, errors } = await modernClient(home, ['modern']);
    // The connect-time server/discover probe went through a relay (the SDK runs it on a sibling process).
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    expect(client.getServerVersion()?.name).toBe('patchbay-dual-era-fixture');

    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['echo', 'era', 'test_input_required_result_elicitation', 'test_trigger_tool_change']));
    expect(await call(client, 'echo', { text: 'modern hello' })).toBe('modern hello');
    expect(await call(client, 'era')).toBe('modern');

    // input_required passes through; the SDK asks its elicitation handler and retries.
    expect(await call(client, 'test_input_required_result_elicitation')).toBe('Hello, Ada!');
    expect(elicited).toEqual(['What is your name?']);

    // subscriptions/listen: one long-lived stream, the change notification arrives on stdout.
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    expect(await call(client, 'test_trigger_tool_change')).toBe('tools_list_changed published');
    await waitFor(() => changed > 0, 'the tools/list_changed notification');
    await subscription.close();
    expect(await subscription.closed).toBe('local');
    expect(errors).toEqual([]);
  }, 60_000);

  it('runs requests side by side and cancels by closing the stream: the modern server sees the cancellation', async () => {
    const hub = await startHub({ servers: servers() });
    const { client, errors } = await modernClient(hub.dataDir, ['mprobe']);
    // `wait` is answered only after `release` reached the server: serialized, neither would be.
    const waiting = call(client, 'wait', { key: 'k1' });
    expect(await call(client, 'release', { key: 'k1' })).toMatch(/^woke [01]$/);
    expect(await waiting).toBe('released k1');

    const abort = new AbortController();
    const hang = client.callTool({ name: 'hang', arguments: { tag: 'slow-1' } }, { signal: abort.signal });
    hang.catch(() => undefined);
    await waitFor(async () => JSON.parse(await call(client, 'hanging')).includes('slow-1'), 'the hang call to reach the server');
    abort.abort('the user gave up');
    await expect(hang).rejects.toThrow();
    // notifications/cancelled on stdio → the relay closes the POST → the hub cancels upstream.
    await waitFor(async () => JSON.parse(await call(client, 'cancellations')).includes('slow-1'), 'the server to see the cancellation');
    expect(JSON.parse(await call(client, 'hanging'))).toEqual([]);

    // A subscription's notification, then its cancellation, reach the server the same way.
    const seen: unknown[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', (n) => {
      seen.push(n);
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(await call(client, 'touch')).toBe('touched 1');
    await waitFor(() => seen.length === 1, 'the notification on the listen stream');
    await subscription.close();
    await waitFor(async () => JSON.parse(await call(client, 'cancellations')).includes('listen'), 'the server to see the listen cancelled');
    expect(errors).toEqual([]);
  }, 60_000);

  it('an SDK client pinned to 2026-07-28 reaches a legacy stdio server through the hub’s bridge', async () => {
    const hub = await startHub({ servers: servers() });
    const { client, elicited, errors } = await modernClient(hub.dataDir, ['fx']);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    expect(client.getServerVersion()?.name).toBe('patchbay-everything-fixture');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'test_elicitation', 'touch_watched']));
    expect(await call(client, 'echo', { text: 'bridged' })).toBe('bridged');

    // The legacy server's elicitation/create request arrives as input_required; the retry answers it.
    expect(await call(client, 'test_elicitation', { message: 'Who are you?' })).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
    expect(elicited).toEqual(['Who are you?']);

    // subscriptions/listen ↔ resources/subscribe on the legacy session.
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push((n.params as { uri: string }).uri);
    });
    const subscription = await client.listen({ resourceSubscriptions: ['test://watched-resource'] });
    expect(subscription.honoredFilter).toMatchObject({ resourceSubscriptions: ['test://watched-resource'] });
    expect(await call(client, 'touch_watched')).toBe('updated');
    await waitFor(() => updated.length > 0, 'the resources/updated notification');
    expect(updated).toEqual(['test://watched-resource']);
    await subscription.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it('through the bridge too, requests run side by side and a cancellation reaches the legacy server', async () => {
    const hub = await startHub({ servers: servers() });
    const { client, errors } = await modernClient(hub.dataDir, ['lprobe']);
    const waiting = call(client, 'wait', { key: 'k2' });
    expect(await call(client, 'release', { key: 'k2' })).toMatch(/^woke [01]$/);
    expect(await waiting).toBe('released k2');

    const abort = new AbortController();
    const hang = client.callTool({ name: 'hang', arguments: { tag: 'slow-2' } }, { signal: abort.signal });
    hang.catch(() => undefined);
    await waitFor(async () => JSON.parse(await call(client, 'hanging')).includes('slow-2'), 'the hang call to reach the server');
    abort.abort('the user gave up');
    await expect(hang).rejects.toThrow();
    await waitFor(async () => JSON.parse(await call(client, 'cancellations')).includes('slow-2'), 'the legacy server to see notifications/cancelled');
    expect(errors).toEqual([]);
  }, 60_000);

  it('answers server/discover for the server behind the hub, for a raw stdio probe', async () => {
    const hub = await startHub({ servers: servers() });
    const toModern = spawnRelay(hub.dataDir, ['mprobe']);
    toModern.write(modernLine('d1', 'server/discover'));
    const modernAnswer = await toModern.answer('d1');
    expect(modernAnswer.result).toMatchObject({ supportedVersions: [MODERN], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-probe' } } });

    const toLegacy = spawnRelay(hub.dataDir, ['fx']);
    toLegacy.write(modernLine('d2', 'server/discover'));
    const legacyAnswer = await toLegacy.answer('d2');
    expect(legacyAnswer.result).toMatchObject({ supportedVersions: expect.arrayContaining([MODERN]), _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'patchbay-everything-fixture' } } });
    for (const r of [toModern, toLegacy]) {
      r.child.stdin!.end();
      expect(await r.exited()).toBe(0);
      expect(r.junk).toEqual([]);
    }
    // Modern clients hold no session on the hub: nothing to delete, nothing left behind.
    expect(hub.engine.hub.sessions.size).toBe(0);
  });

  it('an SDK v1 (legacy) client still works through the relay, to a legacy and to a modern-only server', async () => {
    const hub = await startHub({ servers: servers() });
    for (const server of ['fx', 'modern']) {
      const transport = new V1StdioClientTransport({ command: process.execPath, args: [BIN, 'relay', server], env: relayEnvironment(hub.dataDir), stderr: 'pipe' });
      const client = new V1Client({ name: 'relay-v1-test', version: '1.0.0' });
      onCleanup(() => client.close());
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { text: `v1 to ${server}` } });
      expect(result.content).toEqual([{ type: 'text', text: `v1 to ${server}` }]);
      await client.close();
    }
  }, 60_000);

  it('mirrors a tool’s x-mcp-header parameter; a relay that never listed the tools lists them on HeaderMismatch and retries', async () => {
    const hub = await startHub({ servers: servers() });
    const first = spawnRelay(hub.dataDir, ['mprobe']);
    first.write(modernLine(1, 'tools/list'));
    await first.answer(1);
    // The hub learned the declaration from that answer: a call without the header is refused (-32020).
    const call = modernLine(2, 'tools/call', { name: 'regional', arguments: { region: 'eu-west-1' } });
    first.write(call);
    expect(textOf(await first.answer(2))).toBe('region=eu-west-1');
    const second = spawnRelay(hub.dataDir, ['mprobe']);
    second.write(call);
    expect(textOf(await second.answer(2))).toBe('region=eu-west-1');
    // Its own tools/list answer stayed inside the relay: the client saw one message.
    expect(second.messages).toHaveLength(1);
  });

  it('answers bad modern input with a JSON-RPC error, never a hang', async () => {
    const hub = await startHub({ servers: servers() });
    const relay = spawnRelay(hub.dataDir, ['mprobe']);
    // The envelope's version is not a string.
    relay.write({ id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 42, 'io.modelcontextprotocol/clientCapabilities': {} } } });
    // A modern revision the hub does not serve.
    relay.write(modernLine(2, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }));
    // An unknown method.
    relay.write(modernLine(3, 'tools/frobnicate'));
    // The envelope lacks the client's capabilities.
    relay.write({ id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } });
    // A method name no header can carry.
    relay.write(modernLine(5, 'tools/\u00fcber'));
    // A version that is not a revision at all, with no session: the legacy path refuses it.
    relay.write(modernLine(6, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': 'banana' }));
    const errors = new Map<number, { code: number; message: string; data?: unknown }>();
    for (const id of [1, 2, 3, 4, 5, 6]) {
      const answer = await relay.answer(id);
      expect(answer.error, `request ${id}: ${JSON.stringify(answer)}`).toBeDefined();
      errors.set(id, answer.error as { code: number; message: string; data?: unknown });
    }
    expect(errors.get(1)?.code).toBe(-32602);
    expect(errors.get(2)).toMatchObject({ code: -32022, data: { supported: expect.arrayContaining([MODERN]), requested: '2099-01-01' } });
    expect(errors.get(3)?.code).toBe(-32601);
    expect(errors.get(4)).toMatchObject({ code: -32602, message: expect.stringContaining('clientCapabilities') });
    expect(errors.get(5)).toMatchObject({ code: -32600, message: expect.stringContaining('Mcp-Method') });
    expect(relay.junk).toEqual([]);
    // The relay still works.
    relay.write(modernLine(7, 'tools/call', { name: 'echo', arguments: { text: 'still here' } }));
    expect(textOf(await relay.answer(7))).toBe('still here');
  });

  it('a listen stream whose hub went away gets an error answer; the next request finds (starts) a hub again', async () => {
    const home = await tempHome({ mcpServers: servers() });
    const relay = spawnRelay(home, ['mprobe']);
    relay.write(modernLine('d', 'server/discover'));
    await relay.answer('d', 30_000);
    relay.write(modernLine('L', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    await waitFor(() => relay.messages.find((m) => m.method === 'notifications/subscriptions/acknowledged'), 'the subscription to be acknowledged');
    const first = (await hubRecord(home))!;
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => !isAlive(first.pid), 'the hub to die');
    const answer = await relay.answer('L');
    expect(answer.error).toMatchObject({ code: -32603, message: expect.stringContaining('send subscriptions/listen again') });

    relay.write(modernLine(2, 'tools/call', { name: 'echo', arguments: { text: 'after the restart' } }));
    expect(textOf(await relay.answer(2, 30_000))).toBe('after the restart');
    const second = (await hubRecord(home))!;
    expect(second.pid).not.toBe(first.pid);
    expect(relay.junk).toEqual([]);
  }, 60_000);
});

/** The dual-era fixture over HTTP, as a remote of `relay --url`. */
async function dualEraRemote(era: 'modern' | 'legacy' | 'auto'): Promise<string> {
  const child = spawn(process.execPath, [DUAL, '--http', '--port', '0', '--era', era], { stdio: ['pipe', 'ignore', 'pipe'] });
  onCleanup(() => {
    child.kill('SIGKILL');
  });
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (err += d));
  const match = await waitFor(() => /^listening (\S+)$/m.exec(err), `the ${era} fixture to listen`);
  return match[1]!;
}

describe.each(['modern', 'legacy', 'auto'] as const)('patchbay relay --url to a %s-era remote', (era) => {
  // The era that serves the call at the remote. Each client is served in its own era whenever the
  // remote speaks it (PROTOCOL Q11): a dual-era remote serves a legacy client as legacy and a
  // modern one as modern; a modern-only remote serves a legacy client through the bridge (Q9), a
  // legacy-only one a modern client (Q8).
  const servedFor = (client: 'legacy' | 'modern'): string => (era === 'auto' ? client : era);

  it('serves a legacy stdio client', async () => {
    const url = await dualEraRemote(era);
    const home = await tempHome();
    const relay = spawnRelay(home, ['--url', url]);
    relay.write(initialize(0));
    const init = await relay.answer(0, 30_000);
    expect(init.result).toMatchObject({ serverInfo: { name: 'patchbay-dual-era-fixture' } });
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: `legacy client, ${era} remote` } } });
    expect(textOf(await relay.answer(1, 30_000))).toBe(`legacy client, ${era} remote`);
    relay.write({ id: 2, method: 'tools/call', params: { name: 'era' } });
    expect(textOf(await relay.answer(2, 30_000))).toBe(servedFor('legacy'));
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    expect(relay.junk).toEqual([]);
  }, 60_000);

  it('serves a modern stdio client (an SDK client pinned to 2026-07-28)', async () => {
    const url = await dualEraRemote(era);
    const home = await tempHome();
    const { client, elicited, errors } = await modernClient(home, ['--url', url]);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('patchbay-dual-era-fixture');
    expect(await call(client, 'echo', { text: `modern client, ${era} remote` })).toBe(`modern client, ${era} remote`);
    expect(await call(client, 'era')).toBe(servedFor('modern'));
    expect(await call(client, 'test_elicitation', { message: 'Who are you?' })).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
    expect(elicited).toEqual(['Who are you?']);
    expect(errors).toEqual([]);
  }, 60_000);
});
