import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api/contract.js';
import type { AppEvent } from '../../shared/api/app-contract.js';
import type { Bridge, BridgeStatus } from '../bridge/bridge.js';
import { dispatchEvent, startEvents, testServer } from './commands.js';
import { createStores, type Services } from './services.js';

function fakeBridge(answers: Record<string, unknown> = {}) {
  let listener: ((e: AppEvent) => void) | undefined;
  let status: ((s: BridgeStatus) => void) | undefined;
  const calls: string[] = [];
  const bridge: Bridge = {
    kind: 'http',
    call: (async (name: string) => {
      calls.push(name);
      const defaults: Record<string, unknown> = { 'servers.overview': [], 'secrets.list': { secrets: [], missing: [] } };
      return { ok: true, value: answers[name] ?? defaults[name] ?? {} } as ApiResult<unknown>;
    }) as Bridge['call'],
    subscribe: (l) => {
      listener = l;
      return () => (listener = undefined);
    },
    onStatus: (l) => {
      status = l;
      return () => {};
    },
    inspectorLive: () => () => {},
  };
  return { bridge, calls, emit: (e: AppEvent) => listener?.(e), status: (s: BridgeStatus) => status?.(s) };
}

describe('event routing to stores', () => {
  it('servers.status reaches the servers store; config.changed refetches servers and keys', async () => {
    const fake = fakeBridge({ 'servers.overview': [{ id: 'fx', url: 'u', kind: 'stdio', config: { command: 'node' }, status: { id: 'fx', state: 'idle', sessions: 0, children: 0 } }], 'secrets.list': { secrets: [], missing: [] } });
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    const stop = startEvents(services);
    services.stores.servers.getState().overviewLoaded([{ id: 'fx', url: 'u', kind: 'stdio', config: { command: 'node' }, status: { id: 'fx', state: 'idle', sessions: 0, children: 0 } }]);
    fake.emit({ channel: 'servers.status', cursor: 1, payload: { id: 'fx', state: 'running', sessions: 2, children: 2 } } as AppEvent);
    expect(services.stores.servers.getState().byId.fx?.status).toMatchObject({ state: 'running', sessions: 2 });

    fake.emit({ channel: 'config.changed', cursor: 2, payload: { problems: [{ path: '$.mcpServers.x', message: 'bad' }] } } as AppEvent);
    expect(services.stores.app.getState().configProblems).toHaveLength(1);
    await vi.waitFor(() => expect(fake.calls).toEqual(expect.arrayContaining(['servers.overview', 'secrets.list'])));
    stop();
  });

  it('a reconnect that missed events refetches everything; connection state is kept', async () => {
    const fake = fakeBridge();
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    startEvents(services);
    fake.status({ state: 'reconnecting', reason: 'dropped' });
    expect(services.stores.app.getState().connection.state).toBe('reconnecting');
    fake.status({ state: 'live', resync: true });
    await vi.waitFor(() => expect(fake.calls).toEqual(expect.arrayContaining(['servers.overview', 'secrets.list', 'settings.get', 'hub.status'])));
  });

  it('secrets.changed marks the list stale and reloads it; tokenRotated is recorded', () => {
    const fake = fakeBridge({ 'secrets.list': { secrets: [], missing: [] } });
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    dispatchEvent(services, { channel: 'secrets.changed', cursor: 3, payload: { names: ['K'] } } as AppEvent);
    expect(services.stores.secrets.getState().stale).toBe(true);
    expect(fake.calls).toContain('secrets.list');
    dispatchEvent(services, { channel: 'settings.tokenRotated', cursor: 4, payload: { rotatedAt: '2026-01-01T00:00:00Z' } } as AppEvent);
    expect(services.stores.app.getState().tokenRotatedAt).toBe('2026-01-01T00:00:00Z');
  });

  it('a server that fails on its own raises an error notice with a link to it (once)', () => {
    const fake = fakeBridge();
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    services.stores.servers.getState().overviewLoaded([{ id: 'fx', url: 'u', kind: 'stdio', config: { command: 'node' }, status: { id: 'fx', state: 'running', sessions: 1, children: 1 } }]);
    const failed = { channel: 'servers.status', cursor: 1, payload: { id: 'fx', state: 'error', sessions: 0, children: 0, lastError: { message: 'exited with code 1\nstack', stage: 'exit', at: new Date().toISOString() } } } as AppEvent;
    dispatchEvent(services, failed);
    dispatchEvent(services, { ...failed, cursor: 2 } as AppEvent);
    const notices = services.stores.notices.getState().notices;
    expect(notices).toEqual([expect.objectContaining({ tone: 'error', text: 'Server fx failed: exited with code 1', href: '#/servers/fx' })]);
  });

  it("a connection test refreshes the server's numbers (its own requests are calls)", async () => {
    const fake = fakeBridge({ 'servers.test': { ok: true, tools: [], resources: [], prompts: [], durationMs: 3 }, 'inspector.stats': { servers: [{ server: 'fx', calls: 3, errors: 0 }] } });
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    await testServer(services, 'fx');
    expect(fake.calls).toEqual(['servers.test', 'inspector.stats']);
    expect(services.stores.servers.getState().stats.fx).toMatchObject({ calls: 3 });
  });

  it('no failure notice for a status older than the one shown, nor on the failing server\'s own page', () => {
    const fake = fakeBridge();
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    services.stores.servers.getState().overviewLoaded([{ id: 'fx', url: 'u', kind: 'stdio', config: { command: 'node' }, status: { id: 'fx', state: 'running', sessions: 1, children: 1, rev: 5 } }]);
    const failed = (rev: number) => ({ channel: 'servers.status', cursor: rev, payload: { id: 'fx', state: 'error', sessions: 0, children: 0, rev, lastError: { message: 'exited with code 1', stage: 'exit', at: new Date().toISOString() } } }) as AppEvent;
    dispatchEvent(services, failed(4));
    expect(services.stores.notices.getState().notices).toEqual([]);
    window.location.hash = '#/servers/fx';
    try {
      dispatchEvent(services, failed(6));
      expect(services.stores.servers.getState().byId.fx?.status.state).toBe('error');
      expect(services.stores.notices.getState().notices).toEqual([]);
    } finally {
      window.location.hash = '';
    }
  });

  it("playground events reach the session's server: a server request waits for an answer, progress updates its call", () => {
    const fake = fakeBridge();
    const services: Services = { bridge: fake.bridge, stores: createStores() };
    const pg = services.stores.playground.getState();
    pg.playgroundOpening('demo');
    pg.playgroundOpened('demo', { session: 's1', server: 'demo', capabilities: {} });
    pg.callStarted('demo', { id: 'ui-1', method: 'tools/call', target: 'long_task', startedAt: 1, status: 'running' });
    dispatchEvent(services, { channel: 'playground.serverMessage', cursor: 1, payload: { session: 's1', kind: 'notification', relatedRequestId: 'ui-1', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 2, total: 5 } } } } as AppEvent);
    dispatchEvent(services, { channel: 'playground.serverMessage', cursor: 2, payload: { session: 's1', kind: 'request', relatedRequestId: 'ui-1', message: { jsonrpc: '2.0', id: 'q1', method: 'elicitation/create', params: { message: 'name?' } } } } as AppEvent);
    dispatchEvent(services, { channel: 'playground.serverMessage', cursor: 3, payload: { session: 'other', kind: 'request', message: { jsonrpc: '2.0', id: 'q2', method: 'ping' } } } as AppEvent);
    const state = services.stores.playground.getState().byServer.demo!;
    expect(state.calls['ui-1']?.progress).toEqual({ progress: 2, total: 5, message: undefined });
    expect(state.asks.map((a) => a.message.id)).toEqual(['q1']);
    dispatchEvent(services, { channel: 'playground.closed', cursor: 4, payload: { session: 's1', reason: 'idle for 10 minutes' } } as AppEvent);
    expect(services.stores.playground.getState().byServer.demo).toMatchObject({ state: 'closed', error: 'idle for 10 minutes', asks: [] });
  });
});
