/**
 * The whole API the UI sees: every feature's contract merged. Both bridges are derived from this
 * one object — the HTTP `/api` adapter (engine side: ApiRegistry) and the Electron preload, whose
 * exact shape is `PatchbayBridge` below — so a call cannot exist on one side and not the other.
 */
import type { ApiEvent, ApiResult, CallInput, CallName, CallOutput } from './contract.js';
import { auditContract } from './audit-contract.js';
import { catalogContract } from './catalog-contract.js';
import { clientsContract } from './clients-contract.js';
import { hubContract } from './hub-contract.js';
import { oauthContract } from './oauth-contract.js';
import { profilesContract } from './profiles-contract.js';
import { inspectorContract, type CaptureEvent } from './inspector-contract.js';
import { playgroundContract } from './playground-contract.js';
import { secretsContract } from './secrets-contract.js';
import { serversContract } from './servers-contract.js';
import { settingsContract } from './settings-contract.js';
import { telemetryContract } from './telemetry-contract.js';

export const appContract = {
  ...hubContract,
  ...serversContract,
  ...secretsContract,
  ...settingsContract,
  ...inspectorContract,
  ...oauthContract,
  ...clientsContract,
  ...playgroundContract,
  ...profilesContract,
  ...telemetryContract,
  ...auditContract,
  ...catalogContract,
} as const;

export type AppContract = typeof appContract;
export type AppCallName = CallName<AppContract>;
export type AppEvent = ApiEvent<AppContract>;

/** Every call name of the app contract, for adapters that register one handler per call (IPC). */
export const appCallNames = Object.entries(appContract)
  .filter(([, def]) => def.kind === 'call')
  .map(([name]) => name) as AppCallName[];

/**
 * What the Electron preload exposes as `window.patchbay` (contextBridge): one method per contract
 * call, named exactly like the call (`window.patchbay['servers.add'](input)`), each answering the
 * same `{ ok, value } | { ok: false, code, message }` union as the HTTP bridge, plus `subscribe`
 * for events. The preload implements it with `ipcRenderer.invoke(name, input)`; the main side
 * validates inputs with the contract's schemas (ApiRegistry.invoke) before any handler runs.
 */
export type PatchbayBridge = {
  readonly [K in AppCallName]: (input: CallInput<AppContract, K>) => Promise<ApiResult<CallOutput<AppContract, K>>>;
} & {
  /** Every event, in order; `since` resumes after a cursor. Returns an unsubscribe function. */
  subscribe(listener: (event: AppEvent) => void, since?: number): () => void;
  /**
   * The inspector's live capture feed (over HTTP: `inspectorLiveStream`, GET /api/inspector/live):
   * `onReady` first with where the feed starts, then every captured event in seq order.
   */
  inspectorLive(query: InspectorLiveQuery, onEvent: (event: CaptureEvent) => void, onReady: (ready: InspectorLiveReady) => void): () => void;
};

export interface InspectorLiveQuery {
  cursor?: number;
  server?: string;
  session?: string;
  view?: 'events' | 'exchanges';
}

export interface InspectorLiveReady {
  cursor: number;
  /** False when events after the cursor were dropped or expired. */
  complete: boolean;
}
