/**
 * `window.patchbay`: one method per contract call — the list comes from src/shared
 * (`appCallNames`), never a generic "invoke any channel" — plus event subscriptions that return
 * an unsubscribe function. Built over an injected ipcRenderer so it is tested in plain Node.
 */
import type { ApiResult } from '../shared/api/contract.js';
import type { AppCallName, AppEvent, InspectorLiveQuery, InspectorLiveReady, PatchbayBridge } from '../shared/api/app-contract.js';
import type { CaptureEvent } from '../shared/api/inspector-contract.js';
import { IPC_CHANNELS, type EventMessage, type LiveMessage, type LiveStartRequest, type SubscribeRequest } from '../shared/api/ipc-channels.js';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

interface LiveListeners {
  onEvent(event: CaptureEvent): void;
  onReady(ready: InspectorLiveReady): void;
}

export function createPatchbayBridge(ipc: PreloadIpc, callNames: readonly AppCallName[]): PatchbayBridge {
  let nextId = 1;
  const eventListeners = new Map<number, (event: AppEvent) => void>();
  const liveListeners = new Map<number, LiveListeners>();

  ipc.on(IPC_CHANNELS.event, (_event, message) => {
    const m = message as EventMessage;
    eventListeners.get(m.id)?.(m.event);
  });
  ipc.on(IPC_CHANNELS.live, (_event, message) => {
    const m = message as LiveMessage;
    const listeners = liveListeners.get(m.id);
    if (!listeners) return;
    if (m.kind === 'ready') listeners.onReady(m.ready);
    else listeners.onEvent(m.event);
  });

  const calls: Record<string, (input: unknown) => Promise<ApiResult<unknown>>> = {};
  for (const name of callNames) {
    calls[name] = async (input) => {
      try {
        return (await ipc.invoke(name, input)) as ApiResult<unknown>;
      } catch (err) {
        return { ok: false, code: 'ipc_failed', message: `${name} could not reach the engine: ${(err as Error).message}` };
      }
    };
  }

  const quietly = (promise: Promise<unknown>): void => {
    promise.catch(() => undefined);
  };

  const bridge = {
    ...calls,
    subscribe(listener: (event: AppEvent) => void, since?: number): () => void {
      const id = nextId++;
      eventListeners.set(id, listener);
      const request: SubscribeRequest = since === undefined ? { id } : { id, since };
      quietly(ipc.invoke(IPC_CHANNELS.subscribe, request));
      return () => {
        if (!eventListeners.delete(id)) return;
        quietly(ipc.invoke(IPC_CHANNELS.unsubscribe, { id }));
      };
    },
    inspectorLive(query: InspectorLiveQuery, onEvent: (event: CaptureEvent) => void, onReady: (ready: InspectorLiveReady) => void): () => void {
      const id = nextId++;
      liveListeners.set(id, { onEvent, onReady });
      const request: LiveStartRequest = { id, query };
      quietly(ipc.invoke(IPC_CHANNELS.liveStart, request));
      return () => {
        if (!liveListeners.delete(id)) return;
        quietly(ipc.invoke(IPC_CHANNELS.liveStop, { id }));
      };
    },
  };
  return bridge as unknown as PatchbayBridge;
}
