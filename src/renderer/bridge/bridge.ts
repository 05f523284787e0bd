/**
 * What the UI talks to. Two implementations, one interface: `http-bridge.ts` (a browser tab on
 * `patchbay serve`: fetch + server-sent events) and `ipc-bridge.ts` (the Electron window:
 * `window.patchbay` from the preload). Both are typed by the one contract in src/shared/api.
 */
import type { ApiBridge, ApiResult, CallInput, CallOutput, EventName, EventPayload } from '../../shared/api/contract.js';
import type { AppCallName, AppContract, PatchbayBridge } from '../../shared/api/app-contract.js';

export type BridgeStatus =
  | { state: 'connecting' }
  | { state: 'live'; /** Events may have been missed: refetch what is shown. */ resync: boolean }
  | { state: 'reconnecting'; reason: string }
  | { state: 'logged-out' };

export interface Bridge extends ApiBridge<AppContract> {
  readonly kind: 'http' | 'ipc';
  /** The event stream's state; called at once with the current one. */
  onStatus(listener: (status: BridgeStatus) => void): () => void;
  inspectorLive: PatchbayBridge['inspectorLive'];
}

export type Call = <K extends AppCallName>(name: K, input: CallInput<AppContract, K>) => Promise<ApiResult<CallOutput<AppContract, K>>>;

/** A failure the UI shows as is: our own codes and messages, never a stack. */
export class CallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/** Unwraps `{ ok, value }` or throws a CallError with the engine's code and message. */
export async function unwrap<T>(result: Promise<ApiResult<T>>): Promise<T> {
  const r = await result;
  if (r.ok) return r.value;
  throw new CallError(r.code, r.message, r.details);
}

/** An event narrowed by its channel (a switch on `channel` gives the payload its type). */
export type AppEventOf = {
  [K in EventName<AppContract>]: { channel: K; cursor: number; payload: EventPayload<AppContract, K> };
}[EventName<AppContract>];
