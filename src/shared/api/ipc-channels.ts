/**
 * The IPC channels between the preload and the main process besides the calls (each call's
 * channel is its contract name, e.g. `servers.add`). Prefixed `patchbay:` so they can never
 * collide with a contract name (those have no colon). Main imports these too: one definition.
 */
import type { AppEvent, InspectorLiveQuery, InspectorLiveReady } from './app-contract.js';
import type { CaptureEvent } from './inspector-contract.js';

export const IPC_CHANNELS = {
  /** invoke `{ id, since? }`: start delivering events for subscription `id`. */
  subscribe: 'patchbay:events.subscribe',
  /** invoke `{ id }` */
  unsubscribe: 'patchbay:events.unsubscribe',
  /** main → preload: `EventMessage` */
  event: 'patchbay:events.event',
  /** invoke `{ id, query }`: start the inspector's live feed `id`. */
  liveStart: 'patchbay:inspector.live.start',
  /** invoke `{ id }` */
  liveStop: 'patchbay:inspector.live.stop',
  /** main → preload: `LiveMessage` */
  live: 'patchbay:inspector.live.event',
} as const;

export interface EventMessage {
  id: number;
  event: AppEvent;
}

export type LiveMessage = { id: number; kind: 'ready'; ready: InspectorLiveReady } | { id: number; kind: 'event'; event: CaptureEvent };

export interface SubscribeRequest {
  id: number;
  since?: number;
}

export interface LiveStartRequest {
  id: number;
  query: InspectorLiveQuery;
}
