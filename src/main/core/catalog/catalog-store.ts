/**
 * The registry copies behind the catalog (`CatalogSource`, catalog-source.ts): one copy per
 * configured registry, refreshed only when the catalog is used and then at most hourly, searched
 * locally. docs/catalog.md ("Registries", "Offline and the snapshot", "Search").
 *
 *   const source = createCatalogStore({
 *     dataDir,            // copies go to <dataDir>/catalog/<sha256(url)[0..16]>.json (atomic writes)
 *     registries,         // config `registries` ([{url, label?}]); omitted or empty: the official registry.
 *                         // PATCHBAY_REGISTRY_URL (in `env`) replaces the list with that one URL.
 *     logger,
 *     fetch?,             // default: global fetch
 *     now?,               // ms clock, for the hourly rule (tests)
 *     snapshot?,          // the snapshot file; default assets/registry-snapshot.json in the package; false: none
 *     env?,               // default process.env
 *     timeoutMs?, maxBytes?, maxPages?, pageSize?,  // per request: 10 s, 8 MiB; per list: 100 pages of 100
 *     refreshIntervalMs?, // default one hour
 *   });
 *
 * - Nothing is fetched when the store is created; copies are read from disk on first use.
 * - A refresh reads everything the first time (and weekly), else only what changed since the
 *   newest `updatedAt` of the copy (`updated_since`), sending the last ETag (304: unchanged).
 * - One refresh at a time: concurrent calls share it. A failed refresh keeps the last copy and
 *   sets that registry's `error`. Documents that are not server.json are skipped, logged once
 *   per refresh with their count and reasons.
 * - Before any copy exists, the official registry is answered from the shipped snapshot
 *   (source `snapshot`); other registries have nothing (source `none`) until a refresh works.
 */
import type { CatalogRegistry, CatalogVersion } from '../../../shared/api/catalog-contract.js';
import type { Logger } from '../log/logger.js';
import { CatalogIndex } from './catalog-search.js';
import type { CatalogSource, RegistryEntry } from './catalog-source.js';
import type { RegistryCopy } from './registry-copy.js';
import { COPY_FORMAT, copyFile, defaultSnapshotFile, mergeEntries, newestUpdate, readCopy, readSnapshot, replaceEntries, writeCopy } from './registry-copy.js';
import type { RegistryClient } from './registry-client.js';
import { createRegistryClient, normalizeRegistryUrl, RegistryError } from './registry-client.js';
import type { ParsedEntry } from './server-document.js';

export const OFFICIAL_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
const HOUR = 3_600_000;
const FULL_EVERY_MS = 7 * 24 * HOUR;

export interface CatalogStoreOptions {
  dataDir: string;
  registries?: ReadonlyArray<{ url: string; label?: string }>;
  logger: Logger;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  snapshot?: string | false;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  maxBytes?: number;
  maxPages?: number;
  pageSize?: number;
  refreshIntervalMs?: number;
}

interface RegistryState {
  url: string;
  label: string;
  client: RegistryClient;
  file: string;
  loaded: boolean;
  copy?: RegistryCopy;
  snapshot?: ParsedEntry[];
  source: CatalogRegistry['source'];
  error?: string;
  /** When a refresh was last tried (ms), whatever came of it: the hourly rule counts tries, so an offline registry is not retried on every search. */
  attemptedAt?: number;
}

/** The registries to read: `PATCHBAY_REGISTRY_URL`, else config `registries`, else the official one; labels default to the host name. */
export function resolveRegistries(
  configured: ReadonlyArray<{ url: string; label?: string }> | undefined,
  env: Record<string, string | undefined> = process.env,
): Array<{ url: string; label: string }> {
  const fromEnv = env.PATCHBAY_REGISTRY_URL?.trim();
  const list = fromEnv ? [{ url: fromEnv }] : configured && configured.length > 0 ? configured : [{ url: OFFICIAL_REGISTRY_URL }];
  const seen = new Set<string>();
  const out: Array<{ url: string; label: string }> = [];
  for (const r of list) {
    const url = normalizeRegistryUrl(r.url);
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ url, label: r.label ?? defaultLabel(url) });
  }
  return out;
}

function defaultLabel(url: string): string {
  if (url === OFFICIAL_REGISTRY_URL) return 'official';
  try {
    return new URL(url).hostname || url;
  } catch {
    return url;
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createCatalogStore(options: CatalogStoreOptions): CatalogSource {
  const logger = options.logger.child('catalog');
  const now = options.now ?? Date.now;
  const interval = options.refreshIntervalMs ?? HOUR;
  const snapshotFile = options.snapshot === undefined ? defaultSnapshotFile() : options.snapshot;
  const states: RegistryState[] = resolveRegistries(options.registries, options.env).map(({ url, label }) => ({
    url,
    label,
    client: createRegistryClient({
      url,
      label,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    }),
    file: copyFile(options.dataDir, url),
    loaded: false,
    source: 'none',
  }));
  const listeners = new Set<(registries: CatalogRegistry[]) => void>();
  let index: CatalogIndex | undefined;
  let inflight: Promise<CatalogRegistry[]> | undefined;

  /** Reads the copy from disk (or the snapshot) the first time a registry is used. */
  function load(state: RegistryState): void {
    if (state.loaded) return;
    state.loaded = true;
    const { copy, problem } = readCopy(state.file, state.url);
    if (problem) logger.warn(`registry "${state.label}": ${problem}`);
    if (copy) {
      state.copy = copy;
      state.source = 'cache';
      return;
    }
    if (state.url === OFFICIAL_REGISTRY_URL && snapshotFile !== false) {
      const snap = readSnapshot(snapshotFile);
      if (snap.problem) logger.warn(snap.problem);
      if (snap.entries.length > 0) {
        state.snapshot = snap.entries;
        state.source = 'snapshot';
      }
    }
  }

  const entriesOf = (state: RegistryState): ParsedEntry[] => {
    load(state);
    return state.copy?.entries ?? state.snapshot ?? [];
  };
  const toResult = (state: RegistryState, e: ParsedEntry): RegistryEntry => ({ registry: state.url, document: e.document, ...(e.official ? { official: e.official } : {}) });

  function describe(state: RegistryState): CatalogRegistry {
    const count = entriesOf(state).length;
    return {
      url: state.url,
      label: state.label,
      source: state.source,
      ...(state.copy ? { fetchedAt: state.copy.fetchedAt } : {}),
      count,
      ...(state.error ? { error: state.error } : {}),
    };
  }

  const registries = () => states.map(describe);

  function getIndex(): CatalogIndex {
    index ??= new CatalogIndex(states.flatMap((s) => entriesOf(s).map((e) => toResult(s, e))));
    return index;
  }

  async function refreshOne(state: RegistryState, force: boolean): Promise<void> {
    load(state);
    const at = now();
    const last = state.attemptedAt ?? (state.copy ? Date.parse(state.copy.fetchedAt) : undefined);
    if (!force && last !== undefined && at - last < interval) return;
    state.attemptedAt = at;
    const previous = state.copy;
    const full = !previous || at - (Date.parse(previous.fullAt) || 0) > FULL_EVERY_MS;
    try {
      const since = full ? undefined : (newestUpdate(previous.entries) ?? previous.fetchedAt);
      const answer = await state.client.list({
        ...(since ? { updatedSince: since } : {}),
        ...(previous?.etag ? { etag: previous.etag } : {}),
        ...(previous?.etagPath ? { etagPath: previous.etagPath } : {}),
      });
      let copy: RegistryCopy;
      if (answer.notModified) {
        copy = { ...(previous as RegistryCopy), fetchedAt: new Date(at).toISOString() };
      } else {
        if (answer.received > 0 && answer.entries.length === 0) {
          // A registry that answers only with things that are not documents is broken, not empty: keep what we have.
          throw new RegistryError(
            `registry "${state.label}": GET ${answer.firstPath}: none of the ${answer.received} items is a server.json document (${answer.skipped.slice(0, 2).join('; ')})`,
          );
        }
        if (answer.skipped.length > 0) {
          logger.warn(`registry "${state.label}": ${answer.skipped.length} of ${answer.received} entries skipped (not server.json documents)`, {
            reasons: answer.skipped.slice(0, 10),
          });
        }
        if (answer.truncated) logger.warn(`registry "${state.label}": stopped reading after the page limit; the copy holds the first ${answer.received} entries`);
        copy = {
          format: COPY_FORMAT,
          url: state.url,
          fetchedAt: new Date(at).toISOString(),
          fullAt: full ? new Date(at).toISOString() : (previous as RegistryCopy).fullAt,
          ...(answer.etag ? { etag: answer.etag, etagPath: answer.firstPath } : {}),
          entries: full ? replaceEntries(answer.entries) : mergeEntries((previous as RegistryCopy).entries, answer.entries),
        };
        // The search index is rebuilt only when the copy changed (or the snapshot gives way to it).
        if (full || answer.entries.length > 0) index = undefined;
      }
      state.copy = copy;
      state.snapshot = undefined;
      state.source = 'network';
      delete state.error;
      try {
        await writeCopy(state.file, copy);
      } catch (err) {
        // The refreshed copy still answers in this process; only the next start loses it.
        logger.warn(`registry "${state.label}": could not save its copy to ${state.file}: ${messageOf(err)}`);
      }
    } catch (err) {
      state.error = messageOf(err);
      logger.warn(state.error);
    }
  }

  function notify(list: CatalogRegistry[]): void {
    for (const listener of listeners) {
      try {
        listener(list);
      } catch (err) {
        logger.warn(`a catalog listener failed: ${messageOf(err)}`);
      }
    }
  }

  /** The registry asked for (by URL), or the first that has the name, or the first. */
  function pick(name: string, registry?: string): RegistryState {
    if (registry !== undefined) {
      const url = normalizeRegistryUrl(registry);
      const state = states.find((s) => s.url === url);
      if (!state) throw new Error(`no registry ${registry} is configured (registries: ${states.map((s) => s.url).join(', ')})`);
      return state;
    }
    return states.find((s) => entriesOf(s).some((e) => e.document.name === name)) ?? (states[0] as RegistryState);
  }

  const cached = (state: RegistryState, name: string) => entriesOf(state).find((e) => e.document.name === name);

  return {
    registries,

    refresh(refreshOptions = {}) {
      inflight ??= (async () => {
        try {
          await Promise.all(states.map((s) => refreshOne(s, refreshOptions.force === true)));
          const list = registries();
          notify(list);
          return list;
        } finally {
          inflight = undefined;
        }
      })();
      return inflight;
    },

    search(query, searchOptions = {}) {
      const registry = searchOptions.registry === undefined ? undefined : normalizeRegistryUrl(searchOptions.registry);
      return getIndex().search(query, { ...searchOptions, ...(registry !== undefined ? { registry } : {}) });
    },

    latest(name, registry) {
      const state = pick(name, registry);
      const entry = cached(state, name);
      return entry ? toResult(state, entry) : undefined;
    },

    async versions(name, registry) {
      const state = pick(name, registry);
      try {
        const all = await state.client.versions(name);
        return all
          .map((e): CatalogVersion => ({ version: e.document.version, ...(e.official?.publishedAt ? { publishedAt: e.official.publishedAt } : {}), isLatest: e.official?.isLatest === true }))
          .sort((a, b) => (Date.parse(b.publishedAt ?? '') || 0) - (Date.parse(a.publishedAt ?? '') || 0));
      } catch (err) {
        const held = cached(state, name);
        // Offline (or the registry failing), the copy still knows the latest version; a 404 is an answer, not an outage.
        if (!held || (err instanceof RegistryError && err.status === 404)) throw err;
        return [{ version: held.document.version, ...(held.official?.publishedAt ? { publishedAt: held.official.publishedAt } : {}), isLatest: true }];
      }
    },

    async version(name, version, registry) {
      const state = pick(name, registry);
      const held = cached(state, name);
      if (held && (held.document.version === version || version === 'latest')) return toResult(state, held);
      return toResult(state, await state.client.version(name, version));
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async close() {
      await inflight?.catch(() => undefined);
      listeners.clear();
    },
  };
}
