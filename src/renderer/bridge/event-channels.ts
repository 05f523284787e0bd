/**
 * The event channels of the contract, as a runtime list for EventSource (which only dispatches
 * named events to listeners registered by name). Listed here rather than read from the contract
 * object so the renderer bundle does not carry zod; the types below make the list exact — a
 * channel added to the contract and not here (or the reverse) fails type-checking.
 */
import type { EventName } from '../../shared/api/contract.js';
import type { AppContract } from '../../shared/api/app-contract.js';

export const EVENT_CHANNELS = [
  'config.changed',
  'servers.status',
  'secrets.changed',
  'secrets.found',
  'settings.tokenRotated',
  'settings.clientTokensChanged',
  'oauth.loginNeeded',
  'oauth.loginCompleted',
  'clients.written',
  'playground.serverMessage',
  'playground.closed',
  'profiles.changed',
  'catalog.changed',
] as const satisfies ReadonlyArray<EventName<AppContract>>;

type Missing = Exclude<EventName<AppContract>, (typeof EVENT_CHANNELS)[number]>;
/** Compile-time check: `true` only when no contract event is missing from the list. */
export const EVENT_CHANNELS_COMPLETE: [Missing] extends [never] ? true : { missing: Missing } = true;
