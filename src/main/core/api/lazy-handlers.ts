/**
 * A domain's handlers loaded on its first call. The API registers every call at start, but some
 * domains pull in a lot of code nobody may use in this process's life: client-config export
 * (YAML, TOML and JSONC editors, diffs, the doctor: a fifth of the bundled engine). `patchbay relay
 * --url` runs an engine of its own for one remote server, and every module its
 * engine loads is paid before the relay's first answer (docs/performance.md, "Issue 27").
 */
import type { Contract } from '../../../shared/api/contract.js';
import type { Handlers } from './api-registry.js';

export function lazyHandlers<C extends Contract>(contract: C, load: () => Promise<Handlers<C>>): Handlers<C> {
  let loading: Promise<Handlers<C>> | undefined;
  const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, def] of Object.entries(contract)) {
    if (def.kind !== 'call') continue;
    handlers[name] = async (input) => {
      // A failed load is not kept: the next call tries again.
      loading ??= load().catch((err: unknown) => {
        loading = undefined;
        throw err;
      });
      const loaded = (await loading) as unknown as Record<string, (input: unknown) => unknown>;
      return loaded[name]!(input);
    };
  }
  return handlers as unknown as Handlers<C>;
}
