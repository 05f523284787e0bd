import { describe, expect, it } from 'vitest';
import type { ServerDetail } from '../../shared/api/servers-contract.js';
import { createServersStore } from './servers-store.js';

const server = (id: string, state: ServerDetail['status']['state'] = 'idle'): ServerDetail => ({
  id,
  url: `http://127.0.0.1:1/mcp/${id}`,
  kind: 'stdio',
  config: { command: 'node' },
  status: { id, state, sessions: 0, children: 0 },
});

describe('servers store', () => {
  it('overviewLoaded keeps config order and drops tests of servers that are gone', () => {
    const store = createServersStore();
    store.getState().testFinished('old', { ok: false, stage: 'initialize', message: 'x', durationMs: 1 });
    store.getState().overviewLoaded([server('b'), server('a')]);
    expect(store.getState().order).toEqual(['b', 'a']);
    expect(store.getState().tests).toEqual({});
    expect(store.getState().loaded).toBe(true);
  });

  it('serverStatusReceived updates one server and ignores unknown ones', () => {
    const store = createServersStore();
    store.getState().overviewLoaded([server('a'), server('b')]);
    const before = store.getState().byId.b;
    store.getState().serverStatusReceived({ id: 'a', state: 'error', sessions: 0, children: 0, lastError: { message: 'command not found: x', stage: 'start', at: '2026-01-01T00:00:00Z' } });
    expect(store.getState().byId.a?.status.state).toBe('error');
    expect(store.getState().byId.a?.status.lastError?.message).toContain('command not found');
    expect(store.getState().byId.b).toBe(before);
    const snapshot = store.getState();
    store.getState().serverStatusReceived({ id: 'nope', state: 'running', sessions: 1, children: 1 });
    expect(store.getState()).toBe(snapshot);
  });

  it("a snapshot taken before a failure does not undo the failure's event that arrived first (issue 28)", () => {
    const store = createServersStore();
    const failed = { id: 'a', state: 'error' as const, sessions: 0, children: 0, lastError: { message: 'command not found: x', stage: 'start' as const, at: '2026-01-01T00:00:00Z' }, rev: 12 };
    const before = { ...server('a'), status: { id: 'a', state: 'idle' as const, sessions: 0, children: 0, rev: 11 } };
    store.getState().overviewLoaded([before]);
    store.getState().serverStatusReceived(failed);
    // The overview a config change asked for, answered before the test failed, lands after its event.
    store.getState().overviewLoaded([before]);
    expect(store.getState().byId.a?.status).toEqual(failed);
    store.getState().serverSaved(before);
    expect(store.getState().byId.a?.status).toEqual(failed);
    // An older event is ignored too; a newer one wins.
    store.getState().serverStatusReceived({ ...before.status, rev: 10 });
    expect(store.getState().byId.a?.status.state).toBe('error');
    store.getState().serverStatusReceived({ ...before.status, rev: 13 });
    expect(store.getState().byId.a?.status.state).toBe('idle');
  });

  it('serverSaved renames in place and serverRemoved forgets the server and its test', () => {
    const store = createServersStore();
    store.getState().overviewLoaded([server('a'), server('b'), server('c')]);
    store.getState().serverSaved(server('b2'), 'b');
    expect(store.getState().order).toEqual(['a', 'b2', 'c']);
    expect(store.getState().byId.b).toBeUndefined();
    store.getState().testStarted('c');
    store.getState().serverRemoved('c');
    expect(store.getState().order).toEqual(['a', 'b2']);
    expect(store.getState().tests.c).toBeUndefined();
    store.getState().serverSaved(server('d'));
    expect(store.getState().order).toEqual(['a', 'b2', 'd']);
  });

  it('a test goes from running to done with its result', () => {
    const store = createServersStore();
    store.getState().testStarted('a');
    expect(store.getState().tests.a).toEqual({ state: 'running' });
    store.getState().testFinished('a', { ok: true, tools: [{ name: 'echo' }], resources: [], prompts: [], durationMs: 5 }, 42);
    expect(store.getState().tests.a).toMatchObject({ state: 'done', at: 42, result: { ok: true } });
  });
});
