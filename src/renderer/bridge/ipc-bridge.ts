/**
 * The bridge in the Electron window: the preload exposes `window.patchbay` (type PatchbayBridge,
 * derived from the contract), one method per call plus `subscribe`. Nothing here knows Electron.
 */
import type { PatchbayBridge } from '../../shared/api/app-contract.js';
import type { Bridge, BridgeStatus } from './bridge.js';

declare global {
  interface Window {
    /** Present only inside the desktop app (src/preload). */
    patchbay?: PatchbayBridge;
  }
}

export function ipcAvailable(): boolean {
  return typeof window !== 'undefined' && window.patchbay !== undefined;
}

export function createIpcBridge(api: PatchbayBridge): Bridge {
  const live: BridgeStatus = { state: 'live', resync: false };
  return {
    kind: 'ipc',
    call(name, input) {
      const method = api[name] as (input: unknown) => ReturnType<Bridge['call']>;
      return method(input);
    },
    subscribe(listener, since) {
      return api.subscribe(listener, since);
    },
    inspectorLive(query, onEvent, onReady) {
      return api.inspectorLive(query, onEvent, onReady);
    },
    onStatus(listener) {
      // IPC has no network in between: the stream is live as long as the window exists.
      listener(live);
      return () => {};
    },
  };
}
