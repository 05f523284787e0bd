/**
 * Engine side of the secrets contract. Values are write-only: a listing carries names, where each
 * name is referenced in the config, and for long values only the last four characters.
 */
import { secretsContract } from '../../../shared/api/secrets-contract.js';
import type { ConfigStore } from '../config/config-store.js';
import { findSecretRefs } from '../config/secret-refs.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { ApiError, type ApiRegistry, type Handlers } from '../api/api-registry.js';

const HINT_MIN_LENGTH = 16;

export function secretsHandlers(deps: { secrets: SecretStore; config: ConfigStore; api: ApiRegistry }): Handlers<typeof secretsContract> {
  const { secrets, config, api } = deps;
  const changed = (names: string[]): void => api.emit(secretsContract, 'secrets.changed', { names });
  return {
    'secrets.list': async () => {
      const names = await secrets.list();
      const uses = new Map<string, Array<{ serverId: string; path: string }>>();
      for (const ref of findSecretRefs(config.get())) {
        const list = uses.get(ref.name) ?? [];
        list.push({ serverId: ref.serverId, path: ref.path });
        uses.set(ref.name, list);
      }
      const stored = new Set(names);
      const list = await Promise.all(
        names.map(async (name) => {
          const value = await secrets.get(name);
          const info: { name: string; hint?: string; usedBy: Array<{ serverId: string; path: string }> } = { name, usedBy: uses.get(name) ?? [] };
          if (value !== undefined && value.length >= HINT_MIN_LENGTH) info.hint = `…${value.slice(-4)}`;
          return info;
        }),
      );
      const missing = [...uses.entries()].filter(([name]) => !stored.has(name)).map(([name, usedBy]) => ({ name, usedBy }));
      return { secrets: list, missing };
    },
    'secrets.set': async ({ name, value }) => {
      const created = (await secrets.get(name)) === undefined;
      try {
        await secrets.set(name, value);
      } catch (err) {
        // The store's messages name the secret, never its value.
        throw new ApiError((err as { code?: string }).code ?? 'secret_store_failed', (err as Error).message);
      }
      changed([name]);
      return { name, created };
    },
    'secrets.delete': async ({ name }) => {
      const deleted = await secrets.delete(name);
      if (deleted) changed([name]);
      return { deleted };
    },
  };
}
