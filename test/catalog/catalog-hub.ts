/** A real engine whose catalog reads the fixture registry (test/fixtures/registry), for the install, update and CLI tests. */
import { startFixtureRegistry } from '../fixtures/registry/fixture-registry.mjs';
import { onCleanup } from '../helpers/cleanup.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';

export type FixtureRegistry = Awaited<ReturnType<typeof startFixtureRegistry>>;

export interface CatalogHub {
  hub: TestHub;
  registry: FixtureRegistry;
  /** The registry's URL as entries record it. */
  registryUrl: string;
}

/** A hub with the profile `work` (no servers yet) and the fixture registry as its only registry; `path`: the PATH runtimes are looked for on. */
export async function catalogHub(options: { path?: string } = {}): Promise<CatalogHub> {
  const registry = await startFixtureRegistry();
  onCleanup(() => registry.close());
  const path = options.path;
  const hub = await startHub({
    servers: {},
    config: { registries: [{ url: registry.url, label: 'fixture' }], profiles: { work: { servers: [] } } },
    ...(path !== undefined ? { engine: { catalog: { path: () => Promise.resolve(path) } } } : {}),
  });
  return { hub, registry, registryUrl: registry.url.replace(/\/+$/, '') };
}
