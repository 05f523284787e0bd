// The playground as an MCP Apps host, engine side: it declares the extension, and a call it says
// an app made (`origin: 'app'`) reaches the server like any other and is marked in the inspector
// (`madeBy: 'app'`), in the live summary, the API's JSON and history; the person's own is not.
import { describe, expect, it } from 'vitest';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { appFixture } from './app-harness.js';

type Ok<T> = { ok: true; value: T };

describe('playground calls made by an MCP App', () => {
  it('are marked madeBy app in the inspector, the person’s are not', async () => {
    const hub = await startHub({ servers: { board: appFixture() } });
    const api = hub.engine.api;
    const call = async <T>(name: string, input: unknown): Promise<T> => {
      const r = await api.invoke(name, input);
      if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
      return (r as Ok<T>).value;
    };
    const opened = await call<{ session: string; inspectorSession: string }>('playground.open', { server: 'board' });
    const session = opened.session;
    // The playground declares the extension as a host that renders apps.
    const declared = await call<{ result: { content: Array<{ text: string }> } }>('playground.request', { session, method: 'tools/call', params: { name: 'ui_capability', arguments: {} } });
    expect(JSON.parse(declared.result.content[0]!.text)).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });

    const byApp = await call<{ status: string; result: { content: Array<{ text: string }> } }>('playground.request', { session, method: 'tools/call', params: { name: 'board_refresh', arguments: {} }, origin: 'app' });
    expect(byApp).toMatchObject({ status: 'ok', result: { content: [{ text: 'refreshed board' }] } });

    const page = await waitFor(async () => {
      const p = await call<{ exchanges: Array<{ method: string; madeBy?: string; status: string }> }>('inspector.exchanges.list', { session: opened.inspectorSession, limit: 100 });
      return p.exchanges.filter((x) => x.method === 'tools/call' && x.status !== 'pending').length === 2 ? p : undefined;
    }, 'both calls in the inspector');
    const calls = page.exchanges.filter((x) => x.method === 'tools/call');
    expect(calls.map((x) => x.madeBy)).toEqual([undefined, 'app']);
    await call('playground.close', { session });
  });
});
