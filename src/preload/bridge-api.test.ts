import { describe, expect, it } from 'vitest';
import { appCallNames, type AppEvent } from '../shared/api/app-contract.js';
import { createPatchbayBridge, type PreloadIpc } from './bridge-api.js';
import { IPC_CHANNELS } from '../shared/api/ipc-channels.js';

function fakeIpc(answer: (channel: string, arg: unknown) => unknown = () => ({ ok: true, value: {} })): PreloadIpc & { invoked: Array<[string, unknown]>; emit(channel: string, message: unknown): void } {
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const invoked: Array<[string, unknown]> = [];
  return {
    invoked,
    invoke: async (channel, arg) => {
      invoked.push([channel, arg]);
      return answer(channel, arg);
    },
    on: (channel, listener) => void listeners.set(channel, listener),
    emit: (channel, message) => listeners.get(channel)?.({}, message),
  };
}

describe('preload bridge (window.patchbay)', () => {
  it('has exactly one method per contract call, plus subscribe and inspectorLive — no generic channel', () => {
    const bridge = createPatchbayBridge(fakeIpc(), appCallNames) as unknown as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual([...appCallNames, 'inspectorLive', 'subscribe'].sort());
    for (const key of Object.keys(bridge)) expect(typeof bridge[key]).toBe('function');
    expect(appCallNames.length).toBeGreaterThan(10);
    expect(bridge).not.toHaveProperty('invoke');
    expect(bridge).not.toHaveProperty('send');
  });

  it("invokes the call's own channel with its input and returns the engine's answer", async () => {
    const ipc = fakeIpc((channel) => ({ ok: true, value: { channel } }));
    const bridge = createPatchbayBridge(ipc, appCallNames);
    expect(await bridge['servers.setEnabled']({ id: 'fx', enabled: false })).toEqual({ ok: true, value: { channel: 'servers.setEnabled' } });
    expect(ipc.invoked).toEqual([['servers.setEnabled', { id: 'fx', enabled: false }]]);
  });

  it('turns an IPC failure into an error result, never a rejection', async () => {
    const ipc = fakeIpc(() => {
      throw new Error('no handler');
    });
    const bridge = createPatchbayBridge(ipc, appCallNames);
    expect(await bridge['hub.status']({})).toMatchObject({ ok: false, code: 'ipc_failed' });
  });

  it('subscribe delivers its own events and returns an unsubscribe', () => {
    const ipc = fakeIpc();
    const bridge = createPatchbayBridge(ipc, appCallNames);
    const a: AppEvent[] = [];
    const b: AppEvent[] = [];
    const offA = bridge.subscribe((e) => a.push(e), 4);
    bridge.subscribe((e) => b.push(e));
    expect(ipc.invoked).toEqual([
      [IPC_CHANNELS.subscribe, { id: 1, since: 4 }],
      [IPC_CHANNELS.subscribe, { id: 2 }],
    ]);
    const event = { channel: 'config.changed', cursor: 5, payload: { problems: [] } } as AppEvent;
    ipc.emit(IPC_CHANNELS.event, { id: 1, event });
    expect(a).toEqual([event]);
    expect(b).toEqual([]);
    offA();
    offA();
    ipc.emit(IPC_CHANNELS.event, { id: 1, event });
    expect(a).toHaveLength(1);
    expect(ipc.invoked.filter(([c]) => c === IPC_CHANNELS.unsubscribe)).toEqual([[IPC_CHANNELS.unsubscribe, { id: 1 }]]);
  });

  it('inspectorLive reports ready, then events, and stops', () => {
    const ipc = fakeIpc();
    const bridge = createPatchbayBridge(ipc, appCallNames);
    const seen: string[] = [];
    const stop = bridge.inspectorLive({ server: 'fx' }, (e) => seen.push(`event ${e.seq}`), (r) => seen.push(`ready ${r.cursor}`));
    expect(ipc.invoked).toEqual([[IPC_CHANNELS.liveStart, { id: 1, query: { server: 'fx' } }]]);
    ipc.emit(IPC_CHANNELS.live, { id: 1, kind: 'ready', ready: { cursor: 10, complete: true } });
    ipc.emit(IPC_CHANNELS.live, { id: 1, kind: 'event', event: { seq: 11 } });
    stop();
    ipc.emit(IPC_CHANNELS.live, { id: 1, kind: 'event', event: { seq: 12 } });
    expect(seen).toEqual(['ready 10', 'event 11']);
    expect(ipc.invoked.at(-1)).toEqual([IPC_CHANNELS.liveStop, { id: 1 }]);
  });
});
