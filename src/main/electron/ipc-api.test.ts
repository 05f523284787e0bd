import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { appCallNames } from '../../shared/api/app-contract.js';
import { hubContract } from '../../shared/api/hub-contract.js';
import { IPC_CHANNELS } from '../../shared/api/ipc-channels.js';
import { ApiRegistry } from '../core/index.js';
import type { RunningEngine } from '../core/index.js';
import { createLogger } from '../core/index.js';
import { EngineHost } from './engine-host.js';
import { registerIpcApi, type IpcMainLike } from './ipc-api.js';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeIpcMain(): IpcMainLike & { handlers: Map<string, Handler> } {
  const handlers = new Map<string, Handler>();
  return { handlers, handle: (channel, listener) => void handlers.set(channel, listener), removeHandler: (channel) => void handlers.delete(channel) };
}

interface FakeSender {
  id: number;
  sent: Array<[string, unknown]>;
  isDestroyed(): boolean;
  send(channel: string, message: unknown): void;
  once(event: string, listener: () => void): void;
}

function sender(id: number): FakeSender {
  const out: FakeSender = { id, sent: [], isDestroyed: () => false, send: (c, m) => void out.sent.push([c, m]), once: () => undefined };
  return out;
}

function event(from: FakeSender, url: string, parent: unknown = null): IpcMainInvokeEvent {
  return { sender: from, senderFrame: { url, parent } } as unknown as IpcMainInvokeEvent;
}

async function setup(): Promise<{ ipc: ReturnType<typeof fakeIpcMain>; api: ApiRegistry; calls: string[] }> {
  const api = new ApiRegistry();
  const calls: string[] = [];
  api.register(hubContract, {
    'hub.status': () => {
      calls.push('hub.status');
      return { version: '0', url: 'http://127.0.0.1:1', port: 1, auth: true, configFile: '/c', configProblems: [], sessions: 0, startedAt: 'now' };
    },
    'servers.list': () => [],
  });
  const engine = { api, url: 'http://127.0.0.1:1', port: 1, close: async () => undefined } as unknown as RunningEngine;
  const host = new EngineHost({ start: async () => engine, logger: createLogger('test') });
  await host.start();
  const ipc = fakeIpcMain();
  registerIpcApi({ ipcMain: ipc, host, windowContentsId: () => 7, logger: createLogger('test') });
  return { ipc, api, calls };
}

describe('IPC adapter', () => {
  it('registers exactly one handler per contract call, plus the subscription channels', async () => {
    const { ipc } = await setup();
    const expected = [...appCallNames, IPC_CHANNELS.subscribe, IPC_CHANNELS.unsubscribe, IPC_CHANNELS.liveStart, IPC_CHANNELS.liveStop];
    expect([...ipc.handlers.keys()].sort()).toEqual(expected.sort());
  });

  it("passes a call from the window's main frame to the engine's registry (which validates the input)", async () => {
    const { ipc, calls } = await setup();
    const result = await ipc.handlers.get('hub.status')!(event(sender(7), 'app://patchbay/index.html'), {});
    expect(result).toMatchObject({ ok: true, value: { port: 1 } });
    expect(calls).toEqual(['hub.status']);
    // A call the engine has not registered answers with the registry's own error.
    expect(await ipc.handlers.get('servers.add')!(event(sender(7), 'app://patchbay/index.html'), {})).toMatchObject({ ok: false, code: 'unknown_call' });
  });

  it('refuses a sub-frame, a foreign URL and another page before the engine sees anything', async () => {
    const { ipc, calls } = await setup();
    const call = ipc.handlers.get('hub.status')!;
    const parent = { url: 'app://patchbay/index.html', parent: null };
    expect(await call(event(sender(7), 'app://patchbay/index.html', parent), {})).toMatchObject({ ok: false, code: 'ipc_forbidden' });
    expect(await call(event(sender(7), 'https://evil.example/'), {})).toMatchObject({ ok: false, code: 'ipc_forbidden' });
    expect(await call(event(sender(8), 'app://patchbay/index.html'), {})).toMatchObject({ ok: false, code: 'ipc_forbidden' });
    expect(await ipc.handlers.get(IPC_CHANNELS.subscribe)!(event(sender(7), 'https://evil.example/'), { id: 1 })).toMatchObject({ ok: false });
    expect(calls).toEqual([]);
  });

  it('delivers events to the page that subscribed, until it unsubscribes', async () => {
    const { ipc, api } = await setup();
    const page = sender(7);
    const from = event(page, 'app://patchbay/index.html');
    expect(await ipc.handlers.get(IPC_CHANNELS.subscribe)!(from, { id: 3 })).toMatchObject({ ok: true });
    api.emit(hubContract, 'config.changed', { problems: [] });
    expect(page.sent).toEqual([[IPC_CHANNELS.event, { id: 3, event: { channel: 'config.changed', cursor: 1, payload: { problems: [] } } }]]);
    await ipc.handlers.get(IPC_CHANNELS.unsubscribe)!(from, { id: 3 });
    api.emit(hubContract, 'config.changed', { problems: [] });
    expect(page.sent).toHaveLength(1);
    expect(await ipc.handlers.get(IPC_CHANNELS.subscribe)!(from, { id: -1 })).toMatchObject({ ok: false, code: 'invalid_input' });
  });
});

describe('IPC adapter while the engine is down', () => {
  it('waits for a start under way, but does not restart a failed engine on every call of the page', async () => {
    let starts = 0;
    const host = new EngineHost({ start: async () => (starts++, Promise.reject(new Error('port 5 is in use'))), logger: createLogger('test') });
    const ipc = fakeIpcMain();
    registerIpcApi({ ipcMain: ipc, host, windowContentsId: () => 7, logger: createLogger('test') });
    const call = (): unknown => ipc.handlers.get('hub.status')!(event(sender(7), 'app://patchbay/index.html'), {});
    // Before any start (the window can load before the engine is started): the call starts it.
    expect(await call()).toMatchObject({ ok: false, code: 'engine_not_running', message: expect.stringContaining('port 5 is in use') });
    expect(await call()).toMatchObject({ ok: false, code: 'engine_not_running' });
    expect(starts).toBe(1);
  });
});
