/**
 * The catalog's commands: search the engine's cached copy of the registries, refresh it, list the
 * installed servers with newer versions, and show or apply an update. The engine refreshes a
 * registry only when the catalog is used (at most hourly), so nothing here runs at startup. The
 * outdated servers are asked for once, when the Servers screen is first shown (`ensureOutdated`,
 * the cached copy only); `config.changed` and `catalog.changed` keep them fresh after (commands.ts).
 */
import type { CatalogUpdate } from '../../shared/api/catalog-contract.js';
import { unwrap } from '../bridge/bridge.js';
import type { Services } from './services.js';

/** Results asked for per search: enough to scroll, few enough to render at once. */
export const SEARCH_LIMIT = 50;

let searchSeq = 0;

/** Searches for what was typed; an answer to an older query than the last one asked is dropped. */
export async function searchCatalog({ bridge, stores }: Services, query: string): Promise<void> {
  const seq = ++searchSeq;
  stores.catalog.getState().searchStarted();
  const r = await bridge.call('catalog.search', { query: query.trim().slice(0, 500), limit: SEARCH_LIMIT });
  if (seq !== searchSeq) return;
  if (r.ok) stores.catalog.getState().searchFinished(query, r.value);
  else stores.catalog.getState().searchFailed(r.message);
}

/** Refresh every registry's copy now (the person asked: not bound by the hourly limit), then search again. */
export async function refreshCatalog(services: Services): Promise<void> {
  const { bridge, stores } = services;
  stores.catalog.getState().refreshStarted();
  const r = await bridge.call('catalog.refresh', { force: true });
  if (!r.ok) {
    stores.catalog.getState().refreshFailed(r.message);
    return;
  }
  stores.catalog.getState().registriesLoaded(r.value);
  await searchCatalog(services, stores.catalog.getState().query);
}

/** Installed servers whose registry has a newer version (from the cached copy: no network). A failure leaves the chips as they were. */
export async function loadOutdated({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('catalog.outdated', {});
  if (r.ok && Array.isArray(r.value.servers)) stores.catalog.getState().outdatedLoaded(r.value.servers);
}

/** The first ask while it runs, per catalog store (one per app; tests make their own). */
const firstAsk = new WeakMap<object, Promise<void>>();

/**
 * Asks for the outdated servers unless they are known already (or being asked for): moving between
 * the list and a server's page asks nothing, the events keep the store fresh. A failed ask leaves
 * them unknown, so the next visit tries again.
 */
export function ensureOutdated(services: Services): Promise<void> {
  const catalog = services.stores.catalog;
  if (catalog.getState().outdated !== undefined) return Promise.resolve();
  let ask = firstAsk.get(catalog);
  if (!ask) {
    ask = loadOutdated(services).finally(() => firstAsk.delete(catalog));
    firstAsk.set(catalog, ask);
  }
  return ask;
}

/** What an update would change (nothing written). */
export function previewUpdate({ bridge }: Services, serverId: string, version?: string): Promise<CatalogUpdate> {
  return unwrap(bridge.call('catalog.update', { serverId, ...(version ? { version } : {}), apply: false }));
}

/** Applies an update; its tools wait for approval again. */
export async function applyUpdate(services: Services, serverId: string, version: string): Promise<CatalogUpdate> {
  const done = await unwrap(services.bridge.call('catalog.update', { serverId, version, apply: true }));
  services.stores.notices.getState().noticePosted(`Updated ${serverId} from ${done.from} to ${done.to}: its tools wait for your approval`);
  // The server list and the "update available" chips follow the config.changed the engine sends.
  return done;
}
