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
/**
 * `sandbox`: what the engine is told of this machine's sandbox (default: one is available, so
 * installs of packages are sandboxed unless asked not to — a test that runs an npx server says
 * `sandbox: false`: in a sandbox npx would fetch the package from npm, and tests reach only loopback).
 */
export async function catalogHub(options: { path?: string; sandbox?: { available: boolean; detail: string } } = {}): Promise<CatalogHub> {
  const registry = await startFixtureRegistry();
  onCleanup(() => registry.close());
  const path = options.path;
  const sandbox = options.sandbox ?? { available: true, detail: 'bubblewrap (as the test says)' };
  const hub = await startHub({
    servers: {},
    config: { registries: [{ url: registry.url, label: 'fixture' }], profiles: { work: { servers: [] } } },
    engine: { catalog: { ...(path !== undefined ? { path: () => Promise.resolve(path) } : {}), sandbox: () => Promise.resolve(sandbox) } },
  });
  return { hub, registry, registryUrl: registry.url.replace(/\/+$/, '') };
}
