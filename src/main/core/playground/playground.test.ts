// The playground against a real engine and the everything fixture over stdio: a person is the
// client through the API — tools, an elicitation answered, progress tied to its call, a failing
// tool — and every call is a captured session marked `playground`.
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import type { PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { everythingServer } from '../../../../test/helpers/server-entries.js';
import { startHub } from '../../../../test/helpers/test-hub.js';
import { waitFor, withTimeout } from '../../../../test/helpers/waits.js';

type Ok<T> = { ok: true; value: T };

describe('playground', () => {
  it('drives a server as a client: tools, elicitation answered, progress, a failing tool; captured as a playground session', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const api = hub.engine.api;
    const messages: PlaygroundServerMessage[] = [];
    const sub = api.subscribe((e: ApiEvent) => {
      if (e.channel === 'playground.serverMessage') messages.push(e.payload as PlaygroundServerMessage);
    });
    try {
      const call = async <T>(name: string, input: unknown): Promise<T> => {
        const r = await api.invoke(name, input);
        if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
        return (r as Ok<T>).value;
      };
      const opened = await call<{ session: string; inspectorSession?: string; capabilities: Record<string, unknown> }>('playground.open', { server: 'fx' });
      expect(opened.capabilities).toHaveProperty('tools');
      expect(opened.inspectorSession).toMatch(/^[0-9a-f]{16}$/);
      const session = opened.session;

      const tools = await call<{ status: string; result: { tools: Array<{ name: string }> } }>('playground.request', { session, method: 'tools/list' });
      expect(tools.status).toBe('ok');
      expect(tools.result.tools.map((t) => t.name)).toContain('test_elicitation');

      // Elicitation: the server asks during the call; the request reaches us tied to the call, and our answer reaches the server.
      const pending = call<{ id: number; status: string; result: { content: Array<{ text: string }> } }>('playground.request', {
        session,
        method: 'tools/call',
        params: { name: 'test_elicitation', arguments: { message: 'Who are you?' } },
      });
      const ask = await waitFor(() => messages.find((m) => m.kind === 'request' && m.message.method === 'elicitation/create'), 'the elicitation request');
      expect(ask.message.params).toMatchObject({ message: 'Who are you?' });
      await call('playground.answer', { session, id: ask.message.id, result: { action: 'accept', content: { username: 'ada', email: 'ada@example.org' } } });
      const elicited = await withTimeout(pending, 10_000, 'the elicitation call');
      expect(elicited.status).toBe('ok');
      expect(ask.relatedRequestId).toBe(elicited.id);
      expect(elicited.result.content[0]!.text).toContain('"username":"ada"');

      // Progress arrives as notifications of the call that asked for it.
      const progress = await call<{ id: number; status: string }>('playground.request', { session, method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {} } });
      expect(progress.status).toBe('ok');
      const ticks = messages.filter((m) => m.message.method === 'notifications/progress' && m.relatedRequestId === progress.id);
      expect(ticks.length).toBeGreaterThan(0);

      // A failing tool answers with a result: ok for the call, isError for the inspector.
      const failing = await call<{ status: string; result: { isError?: boolean } }>('playground.request', { session, method: 'tools/call', params: { name: 'test_error_handling', arguments: {} } });
      expect(failing).toMatchObject({ status: 'ok', result: { isError: true } });

      const summary = await waitFor(async () => {
        const s = await call<{ transport: { client: string }; errors: number; client?: { name: string } }>('inspector.sessions.get', { session: opened.inspectorSession });
        return s.errors === 1 ? s : undefined;
      }, 'the failed tool counted in the session');
      expect(summary).toMatchObject({ transport: { client: 'playground' }, client: { name: 'patchbay-playground' } });
      const page = await call<{ exchanges: Array<{ method: string; status: string; isError?: boolean; reason?: string }> }>('inspector.exchanges.list', { session: opened.inspectorSession, limit: 100 });
      expect(page.exchanges.filter((x) => x.status === 'error')).toEqual([
        expect.objectContaining({ method: 'tools/call', isError: true, reason: 'This tool intentionally returns an error for testing' }),
      ]);

      expect(await call('playground.close', { session })).toEqual({ closed: true });
      const gone = await api.invoke('playground.request', { session, method: 'tools/list' });
      expect(gone).toMatchObject({ ok: false, code: 'playground_not_found' });
      const missing = await api.invoke('playground.open', { server: 'nope' });
      expect(missing).toMatchObject({ ok: false, code: 'server_not_configured' });
    } finally {
      sub.unsubscribe();
    }
  });
});
