/**
 * What changes while clients are connected: a user's toggle and a member's own list change reach
 * them as list_changed; server→client requests (sampling, elicitation) raised by a member reach
 * the caller and its answers go back; a member that dies fails only its own calls, then returns.
 */
import { describe, expect, it } from 'vitest';
import { apiCall } from '../helpers/hub-api.js';
import { toolCall, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { killQuietly } from '../helpers/processes.js';
import { SseReader } from '../helpers/sse.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { alphaServer, listTools, profileHub } from './profile-harness.js';

/** Opens the session's GET stream and returns a reader of its messages. */
async function notifications(client: TestClient): Promise<SseReader> {
  const res = await client.get();
  expect(res.status).toBe(200);
  return new SseReader(res.body!);
}

/** Reads a response stream to its end in the background, keeping every message. */
function tap(res: Response): { messages: JsonRpcMessage[] } {
  const out = { messages: [] as JsonRpcMessage[] };
  const reader = new SseReader(res.body!);
  void (async () => {
    for (;;) {
      const next = await reader.nextMessage(30_000).catch(() => undefined);
      if (!next) return;
      out.messages.push(next.message);
    }
  })();
  return out;
}

async function nextNotification(reader: SseReader, method: string): Promise<JsonRpcMessage> {
  for (;;) {
    const next = await reader.nextMessage(15_000);
    if (!next) throw new Error(`the stream ended before ${method}`);
    if (next.message.method === method) return next.message;
  }
}

describe('the aggregated endpoint, live', () => {
  it("a user's toggle removes and restores a tool, and the connected client hears list_changed each time", async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    expect((await listTools(client)).map((t) => t.name)).toContain('alpha__echo');
    const stream = await notifications(client);

    const off = await apiCall(hub, 'profiles.setItem', { name: 'default', server: 'alpha', kind: 'tools', item: 'echo', enabled: false });
    expect(off.ok).toBe(true);
    await nextNotification(stream, 'notifications/tools/list_changed');
    const without = (await listTools(client)).map((t) => t.name);
    expect(without).not.toContain('alpha__echo');
    expect(without).toContain('beta__echo');
    expect((await client.callTool('alpha__echo', { text: 'x' })).response.error?.message).toBe('Unknown tool: alpha__echo');
    // The toggle is written to config.json, readable by a person.
    expect(hub.engine.config.get().profiles?.default).toEqual({ description: 'Every enabled server, everything on', servers: { '*': {}, alpha: { tools: { deny: ['echo'] } } } });

    expect((await apiCall(hub, 'profiles.setItem', { name: 'default', server: 'alpha', kind: 'tools', item: 'echo', enabled: true })).ok).toBe(true);
    await nextNotification(stream, 'notifications/tools/list_changed');
    expect((await listTools(client)).map((t) => t.name)).toContain('alpha__echo');
    expect(toolText((await client.callTool('alpha__echo', { text: 'back' })).response)).toBe('alpha: back');
  });

  it("a member's own list change reaches the client as list_changed, and the new tool is callable", async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    expect((await listTools(client)).map((t) => t.name)).not.toContain('alpha__extra');
    const stream = await notifications(client);
    expect(toolText((await client.callTool('alpha__toggle_extra')).response)).toBe('added');
    await nextNotification(stream, 'notifications/tools/list_changed');
    expect((await listTools(client)).map((t) => t.name)).toContain('alpha__extra');
    expect(toolText((await client.callTool('alpha__extra')).response)).toBe('extra');
  });

  it('sampling and elicitation raised by a member reach the caller, and its answers go back to that member', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '', { capabilities: { sampling: {}, elicitation: {} } });

    const res = await client.post(toolCall(11, 'everything__test_sampling', { prompt: 'say hi' }));
    const reader = new SseReader(res.body!);
    const ask = (await reader.nextMessage())!.message;
    expect(ask.method).toBe('sampling/createMessage');
    expect(ask.params).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'say hi' } }] });
    expect((await client.post({ jsonrpc: '2.0', id: ask.id!, result: { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'm', stopReason: 'endTurn' } })).status).toBe(202);
    const done = (await reader.nextMessage())!.message;
    expect(done.id).toBe(11);
    expect(toolText(done)).toBe('LLM response: hi there');

    const res2 = await client.post(toolCall(12, 'everything__test_elicitation', { message: 'who are you?' }));
    const reader2 = new SseReader(res2.body!);
    const elicit = (await reader2.nextMessage())!.message;
    expect(elicit.method).toBe('elicitation/create');
    await client.post({ jsonrpc: '2.0', id: elicit.id!, result: { action: 'accept', content: { username: 'ann', email: 'ann@example.com' } } });
    expect(toolText((await reader2.nextMessage())!.message)).toContain('"username":"ann"');

    // Two members asking at once get distinct ids, and each answer goes back to its own member.
    // (Stdio says nothing of which call a request belongs to: the session puts it on one of this
    // client's open call streams, so both streams are watched.)
    const a = await client.post(toolCall(13, 'beta__ask', { question: 'beta?' }));
    const b = await client.post(toolCall(14, 'everything__test_sampling', { prompt: 'everything?' }));
    const taps = [tap(a), tap(b)];
    const asks = await waitFor(() => {
      const found = taps.flatMap((t) => t.messages).filter((m) => m.method === 'sampling/createMessage');
      return found.length === 2 ? found : undefined;
    }, 'two sampling requests');
    expect(asks[0]!.id).not.toBe(asks[1]!.id);
    const text = (m: JsonRpcMessage): string => (m.params as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text;
    for (const ask of asks) {
      await client.post({ jsonrpc: '2.0', id: ask.id!, result: { role: 'assistant', content: { type: 'text', text: `to ${text(ask)}` }, model: 'm' } });
    }
    const answers = await waitFor(() => {
      const found = taps.flatMap((t) => t.messages).filter((m) => m.id === 13 || m.id === 14);
      return found.length === 2 ? found : undefined;
    }, 'both calls to finish');
    expect(toolText(answers.find((m) => m.id === 13)!)).toBe('beta heard: to beta?');
    expect(toolText(answers.find((m) => m.id === 14)!)).toBe('LLM response: to everything?');
  });

  it('a killed member fails only its own calls, with an error naming it, and comes back', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    const betaPid = Number(toolText((await client.callTool('beta__whoami')).response));
    const res = await client.post(toolCall(21, 'beta__hang'));
    const reader = new SseReader(res.body!);
    killQuietly(betaPid, 'SIGKILL');
    const failed = (await withTimeout(reader.nextMessage(), 15_000, 'the hanging call to fail'))!.message;
    expect(failed.id).toBe(21);
    expect(failed.error?.message).toMatch(/^server 'beta'/);
    expect(failed.error?.data).toMatchObject({ server: 'beta' });
    // The others never noticed.
    expect(toolText((await client.callTool('alpha__echo', { text: 'still here' })).response)).toBe('alpha: still here');
    expect(toolText((await client.callTool('everything__echo', { text: 'me too' })).response)).toBe('me too');
    // Its tools stay listed; beta comes back (a new child) and answers again.
    expect((await listTools(client)).map((t) => t.name)).toContain('beta__whoami');
    const again = await waitFor(async () => {
      const out = await client.callTool('beta__whoami');
      return out.response.error ? undefined : Number(toolText(out.response));
    }, 'beta to answer again', 15_000, 100);
    expect(again).not.toBe(betaPid);
  });

  it('initializes without a member that cannot start; the others work and its error names it', async () => {
    const hub = await profileHub({ mixed: { servers: ['broken', 'alpha'] } }, {
      servers: { alpha: alphaServer(), broken: { command: process.execPath, args: ['-e', 'process.stderr.write("no luck\\n"); process.exit(3)'] } },
    });
    const client = await connect(hub, '@mixed');
    const names = (await listTools(client)).map((t) => t.name);
    expect(names).toContain('alpha__echo');
    expect(names.some((n) => n.startsWith('broken__'))).toBe(false);
    expect(toolText((await client.callTool('alpha__echo', { text: 'ok' })).response)).toBe('alpha: ok');
    const view = await apiCall<{ members: Array<{ server: string; reach: string; error?: string }> }>(hub, 'profiles.show', { name: 'mixed' });
    const broken = view.value!.members.find((m) => m.server === 'broken')!;
    expect(broken.reach).toBe('down');
    expect(broken.error).toMatch(/^server 'broken'/);
  });
});
