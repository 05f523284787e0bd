/**
 * The engine's side of the catalog (docs/catalog.md): the registry copies, opened at start from
 * what is cached on disk — never fetched at start: only when the catalog is used, at most hourly
 * — the API's dependencies, `catalog.changed` after each refresh, and the doctor's outdated line.
 */
import { catalogContract } from '../../../shared/api/catalog-contract.js';
import type { ApiRegistry } from '../api/api-registry.js';
import type { CatalogApiDeps } from '../catalog/catalog-api.js';
import type { CatalogSource } from '../catalog/catalog-source.js';
import { createCatalogStore } from '../catalog/catalog-store.js';
import { outdatedServers } from '../catalog/catalog-update.js';
import type { OutdatedServer } from '../clients/doctor.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Logger } from '../log/logger.js';
import type { ToolPins } from '../profiles/tool-pins.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { buildChildEnv, loginShellPath } from '../upstream/child-env.js';

export interface CatalogEngineOptions {
  /** The registry copies; default: the store over `registries` (or `PATCHBAY_REGISTRY_URL`) cached in the data dir. */
  source?: CatalogSource;
  /** The PATH runtimes (npx, uvx, docker…) are looked for on; default: the PATH servers start with. */
  path?: () => Promise<string>;
  /** Whether servers can be sandboxed here (default: the engine asks this machine once, sandbox/sandbox-support.ts); installs are sandboxed where they can be. */
  sandbox?: () => Promise<{ available: boolean; detail: string }>;
}

export interface EngineCatalog {
  /** What catalog-api.ts needs besides the API registry. */
  deps: Omit<CatalogApiDeps, 'api'>;
  /** The doctor's outdated servers, from the copy at hand. */
  outdated(): Promise<OutdatedServer[]>;
  close(): Promise<void>;
}

/** `options.sandbox` is required here: the engine passes the one answer it shares with the sandbox (engine.ts). */
export function startCatalog(deps: {
  dataDir: string;
  config: ConfigStore;
  secrets: SecretStore;
  pins: ToolPins;
  api: ApiRegistry;
  logger: Logger;
  options: CatalogEngineOptions & { sandbox: NonNullable<CatalogEngineOptions['sandbox']> };
}): EngineCatalog {
  // Nothing is fetched here: the store reads its copies from disk on first use (catalog-store.ts).
  const make = (registries: ReadonlyArray<{ url: string; label?: string }>): CatalogSource => createCatalogStore({ dataDir: deps.dataDir, registries, logger: deps.logger, env: process.env });
  const following = deps.options.source === undefined ? followRegistries(deps.config, make) : undefined;
  const source = deps.options.source ?? following!.source;
  // The PATH servers start with (the login shell's in front), where a runtime must be for the entry to start.
  const path =
    deps.options.path ??
    (async (): Promise<string> => buildChildEnv({ base: process.env, platform: process.platform, loginPath: await loginShellPath(), configured: undefined }).PATH ?? '');
  const off = source.onChange((registries) => {
    deps.api.emit(catalogContract, 'catalog.changed', { registries });
  });
  return {
    deps: { source, config: deps.config, secrets: deps.secrets, pins: deps.pins, runtime: { path }, sandbox: deps.options.sandbox },
    outdated: () => Promise.resolve(outdatedServers(deps.config.get().mcpServers, source)),
    close: async () => {
      off();
      following?.stop();
      await source.close();
    },
  };
}

/**
 * The registries as config.json lists them now: a change of `registries` replaces the store (the
 * copies of registries still listed are on disk and read again), without a restart. The API holds
 * this one source; each call goes to the store of the moment.
 */
function followRegistries(config: ConfigStore, make: (registries: ReadonlyArray<{ url: string; label?: string }>) => CatalogSource): { source: CatalogSource; stop(): void } {
  const listOf = (c: ReturnType<ConfigStore['get']>): ReadonlyArray<{ url: string; label?: string }> => c.registries ?? [];
  let listed = JSON.stringify(listOf(config.get()));
  let store = make(listOf(config.get()));
  const listeners = new Set<(registries: ReturnType<CatalogSource['registries']>) => void>();
  let offStore = store.onChange((r) => listeners.forEach((l) => l(r)));
  const offConfig = config.on('change', (next) => {
    const now = JSON.stringify(listOf(next));
    if (now === listed) return;
    listed = now;
    const old = store;
    offStore();
    store = make(listOf(next));
    offStore = store.onChange((r) => listeners.forEach((l) => l(r)));
    void old.close();
    // The UI's freshness line follows at once.
    for (const l of listeners) l(store.registries());
  });
  const source: CatalogSource = {
    registries: () => store.registries(),
    refresh: (o) => store.refresh(o),
    search: (q, o) => store.search(q, o),
    latest: (n, r) => store.latest(n, r),
    versions: (n, r) => store.versions(n, r),
    version: (n, v, r) => store.version(n, v, r),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => store.close(),
  };
  return { source, stop: () => { offConfig(); offStore(); } };
}
