// The playground on a profile, over real HTTP as the UI calls it (/api/call, /api/events): a
// profile of two real stdio servers (the alpha and beta fixtures), its curated and prefixed
// tools, resources and prompts listed, a prefixed tool called, a member's sampling request routed
// to the person and the answer back to that member, and the session captured as a playground
// session of the profile.
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from '../../../shared/api/inspector-contract.js';
import type { PlaygroundOpened, PlaygroundOutcome, PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { alphaServer, betaServer } from '../../../../test/profiles/profile-harness.js';
import { onCleanup } from '../../../../test/helpers/cleanup.js';
import { apiCall } from '../../../../test/helpers/hub-api.js';
import { SseReader } from '../../../../test/helpers/sse.js';
import { startHub, type TestHub } from '../../../../test/helpers/test-hub.js';
import { waitFor, withTimeout } from '../../../../test/helpers/waits.js';

async function call<T>(hub: TestHub, name: string, input: unknown): Promise<T> {
  const answer = await apiCall<T>(hub, name, input);
  if (!answer.ok) throw new Error(`${name}: ${answer.code} ${answer.message}`);
  return answer.value as T;
}

/** The API's event stream, read in the background: the playground's server messages collected. */
async function serverMessages(hub: TestHub): Promise<PlaygroundServerMessage[]> {
  const res = await fetch(`${hub.url}/api/events`, { headers: hub.authHeader() });
  expect(res.status).toBe(200);
  const reader = new SseReader(res.body as unknown as AsyncIterable<Uint8Array>);
  onCleanup(() => reader.cancel());
  const seen: PlaygroundServerMessage[] = [];
  const ready = await reader.nextEvent();
  expect(ready?.event).toBe('api.ready');
  void (async () => {
    for (;;) {
      const e = await reader.nextEvent(3_600_000).catch(() => undefined);
      if (!e) return;
      if (e.event === 'playground.serverMessage') seen.push(JSON.parse(e.data) as PlaygroundServerMessage);
    }
  })();
  return seen;
}

/** A profile name as long as names may be (64): `@` and the name is one more. */
const LONGEST = 'p'.repeat(64);

describe('playground on a profile', () => {
  it('lists the profile’s prefixed tools, resources and prompts, calls a member’s tool, routes sampling back; captured as a playground session of @pair', async () => {
    const hub = await startHub({
      servers: { alpha: alphaServer(), beta: betaServer() },
      config: { profiles: { pair: { servers: { alpha: { tools: ['echo', 'slow'] }, beta: {} } }, [LONGEST]: { servers: ['beta'] } } },
    });
    const messages = await serverMessages(hub);

    const opened = await call<PlaygroundOpened>(hub, 'playground.open', { server: '@pair' });
    expect(opened.server).toBe('@pair');
    expect(opened.capabilities).toHaveProperty('tools');
    expect(opened.inspectorSession).toMatch(/^[0-9a-f]{16}$/);
    const session = opened.session;
    const request = (method: string, params?: Record<string, unknown>) => call<PlaygroundOutcome & { result: Record<string, unknown> }>(hub, 'playground.request', { session, method, ...(params ? { params } : {}) });

    // What the profile curates: alpha's two allowed tools and all of beta's, every name prefixed.
    const tools = ((await request('tools/list')).result.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['alpha__echo', 'alpha__slow', 'beta__echo', 'beta__ask']));
    expect(tools).not.toContain('alpha__whoami');
    expect(tools.every((name) => name.startsWith('alpha__') || name.startsWith('beta__'))).toBe(true);
    const resources = ((await request('resources/list')).result.resources as Array<{ uri: string }>).map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(['alpha://readme', 'beta://status', 'shared://config']));
    const prompts = ((await request('prompts/list')).result.prompts as Array<{ name: string }>).map((p) => p.name);
    expect(prompts.sort()).toEqual(['alpha__greet', 'beta__greet']);

    // A prefixed tool reaches its member under the member's own name.
    const echoed = await request('tools/call', { name: 'alpha__echo', arguments: { text: 'through the profile' } });
    expect(echoed.status).toBe('ok');
    expect(echoed.result.content).toEqual([{ type: 'text', text: 'alpha: through the profile' }]);
    const read = await request('resources/read', { uri: 'beta://status' });
    expect(read.result.contents).toEqual([expect.objectContaining({ uri: 'beta://status', text: 'beta is fine' })]);

    // beta asks the client to sample while its tool runs: the person sees it tied to the call, and the answer reaches beta.
    const asking = call<PlaygroundOutcome & { result: { content: Array<{ text: string }> } }>(hub, 'playground.request', {
      session,
      method: 'tools/call',
      params: { name: 'beta__ask', arguments: { question: 'Which colour?' } },
      id: 'ask-1',
    });
    const ask = await waitFor(() => messages.find((m) => m.session === session && m.kind === 'request' && m.message.method === 'sampling/createMessage'), 'the sampling request');
    expect(ask.relatedRequestId).toBe('ask-1');
    await call(hub, 'playground.answer', { session, id: ask.message.id, result: { role: 'assistant', model: 'a person', content: { type: 'text', text: 'teal' } } });
    const asked = await withTimeout(asking, 10_000, 'the sampling call');
    expect(asked.status).toBe('ok');
    expect(asked.result.content[0]!.text).toBe('beta heard: teal');

    // The inspector has it as a normal session of @pair, marked as the playground's.
    const summary = await call<InspectorSession>(hub, 'inspector.sessions.get', { session: opened.inspectorSession });
    expect(summary).toMatchObject({ server: '@pair', transport: { client: 'playground', upstream: 'profile' }, client: { name: 'patchbay-playground' }, debug: false });
    const listed = await call<{ sessions: InspectorSession[] }>(hub, 'inspector.sessions.list', { server: '@pair' });
    expect(listed.sessions.map((s) => [s.id, s.transport.client])).toEqual([[opened.inspectorSession, 'playground']]);
    const page = await waitFor(async () => {
      const p = await call<{ exchanges: Array<{ method: string; status: string; request?: unknown }> }>(hub, 'inspector.exchanges.list', { session: opened.inspectorSession, limit: 100 });
      return p.exchanges.filter((x) => x.method === 'tools/call' && x.status === 'ok').length === 2 ? p : undefined;
    }, 'both tool calls captured');
    expect(page.exchanges.map((x) => x.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'resources/list', 'prompts/list', 'tools/call', 'resources/read', 'sampling/createMessage']));

    expect(await call(hub, 'playground.close', { session })).toEqual({ closed: true });
    const longest = await call<PlaygroundOpened>(hub, 'playground.open', { server: `@${LONGEST}` });
    expect(longest.server).toBe(`@${LONGEST}`);
    expect(await call(hub, 'playground.close', { session: longest.session })).toEqual({ closed: true });
    const missing = await apiCall(hub, 'playground.open', { server: '@nope' });
    expect(missing).toMatchObject({ ok: false, code: 'server_not_configured' });
    expect(missing.message).toContain("No profile 'nope' is configured");
  });
});
