/**
 * The aggregated endpoint over real HTTP with three real stdio servers whose tool names overlap:
 * the union under safe names, routing by original name, prompts and resources, one-server
 * profiles without prefixes, and unknown profiles.
 */
import { describe, expect, it } from 'vitest';
import { toolText } from '../helpers/json-rpc.js';
import { jsonRpcErrorOf, post } from '../helpers/mcp-http.js';
import { connect } from '../helpers/test-client.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { LONG_NAME, SAFE_NAME, listTools, profileHub, resultOf } from './profile-harness.js';

describe('the aggregated endpoint', () => {
  it('lists the union of every member under safe, distinct names, and routes each call to its server with the original name', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    const tools = await listTools(client);
    const names = tools.map((t) => t.name);
    for (const name of names) expect(name).toMatch(SAFE_NAME);
    expect(new Set(names).size).toBe(names.length);
    // alpha pages its list 4 at a time: every page is there.
    expect(names).toEqual(expect.arrayContaining(['alpha__echo', 'beta__echo', 'everything__echo', 'alpha__slow', 'beta__whoami', 'everything__test_sampling']));
    const long = tools.find((t) => t.title === LONG_NAME)!;
    expect(long.name.length).toBeLessThanOrEqual(64);
    expect(long.name.startsWith('alpha__summarize_')).toBe(true);
    const dotted = tools.find((t) => t.title === 'lookup.item')!;
    const slashed = tools.find((t) => t.title === 'lookup/item')!;
    expect(dotted.name).not.toBe(slashed.name);
    expect(dotted.name).toMatch(/^beta__lookup_item_[a-z2-7]{6}$/);

    expect(toolText((await client.callTool('alpha__echo', { text: 'x' })).response)).toBe('alpha: x');
    expect(toolText((await client.callTool('beta__echo', { text: 'x' })).response)).toBe('beta: x');
    expect(toolText((await client.callTool('everything__echo', { text: 'x' })).response)).toBe('x');
    expect(toolText((await client.callTool(long.name)).response)).toBe('summarized');
    expect(toolText((await client.callTool(dotted.name, { id: '7' })).response)).toBe('dot 7');
    expect(toolText((await client.callTool(slashed.name, { id: '7' })).response)).toBe('slash 7');

    const unknown = await client.callTool('alpha__nope');
    expect(unknown.response.error).toMatchObject({ code: -32602, message: 'Unknown tool: alpha__nope' });
  });

  it('answers initialize itself: capabilities merged, instructions one heading per server', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    const init = client.initializeResult as { capabilities: Record<string, unknown>; instructions: string; serverInfo: { name: string } };
    expect(init.capabilities).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, logging: {}, completions: {} });
    expect(init.instructions).toContain('## alpha\n\nAlpha keeps notes.');
    expect(init.instructions).toContain('## beta\n\nBeta tracks tasks.');
    expect(init.serverInfo.name).toBe('patchbay');
  });

  it('routes prompts by safe name, resources by URI (the first member wins a shared URI), templates and completions', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    const prompts = resultOf<{ prompts: Array<{ name: string; title?: string }> }>((await client.request('prompts/list')).response).prompts;
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['alpha__greet', 'beta__greet', 'everything__test_simple_prompt']));
    const got = resultOf<{ messages: Array<{ content: { text: string } }> }>((await client.request('prompts/get', { name: 'beta__greet', arguments: { who: 'me' } })).response);
    expect(got.messages[0]!.content.text).toBe('greet from beta: {"who":"me"}');

    const resources = resultOf<{ resources: Array<{ uri: string }> }>((await client.request('resources/list')).response).resources;
    expect(resources.filter((r) => r.uri === 'shared://config')).toHaveLength(1);
    const read = async (uri: string): Promise<string> => resultOf<{ contents: Array<{ text: string }> }>((await client.request('resources/read', { uri })).response).contents[0]!.text;
    // everything, alpha, beta is the config order: alpha is before beta, so it wins shared://config.
    expect(await read('shared://config')).toBe("alpha's config");
    expect(await read('beta://status')).toBe('beta is fine');
    expect(await read('test://template/42/data')).toContain('"id":"42"');
    const subscribed = await client.request('resources/subscribe', { uri: 'test://watched-resource' });
    expect(subscribed.response.result).toEqual({});

    const completion = await client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'everything__test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } });
    expect(resultOf<{ completion: { values: string[] } }>(completion.response).completion.values).toEqual(['paris', 'park', 'party']);
  });

  it('passes progress and logging of a call to the caller', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    const out = await client.callTool('alpha__slow', {}, { progressToken: 'p-1' });
    const kinds = out.messages.map((m) => m.method ?? 'response');
    expect(kinds).toEqual(['notifications/progress', 'notifications/message', 'notifications/progress', 'response']);
    expect(out.messages[0]!.params).toEqual({ progressToken: 'p-1', progress: 1 });
  });

  it('serves a one-server profile without prefixes, and says so when a profile does not exist', async () => {
    const hub = await profileHub({ solo: { servers: ['alpha'], prefix: false } });
    const client = await connect(hub, '@solo');
    const names = (await listTools(client)).map((t) => t.name);
    expect(names).toEqual(['echo', 'whoami', 'add', names[3], 'set_description', 'toggle_extra', 'slow']);
    // Too long even unprefixed: cut, with a stable suffix.
    expect(names[3]).toMatch(new RegExp(`^${LONG_NAME.slice(0, 57)}_[a-z2-7]{6}$`));
    expect(toolText((await client.callTool('add', { a: 2, b: 3 })).response)).toBe('5');

    const res = await post(hub, '@nope', initializeRequest());
    expect(res.status).toBe(404);
    expect((await jsonRpcErrorOf(res)).error.message).toBe("Not Found: no profile 'nope' is configured");
  });
});
