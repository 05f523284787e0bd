/**
 * Engine side of the servers contract: config entries edited through the config store (atomic,
 * keeping unknown keys and the file's formatting), the import of pasted snippets, connection
 * tests and live status. Failures carry the config store's JSON-path problems as details.
 * A server's status is not reset here: the engine does it when the config change lands
 * (ServerStatusTracker.configApplied), for every way an entry can change.
 */
import { isStdioServer, type ServerConfig } from '../../../shared/config-schema.js';
import type { serversContract, ServerDetail, ServerTestResult } from '../../../shared/api/servers-contract.js';
import { ConfigError, type ConfigStore } from '../config/config-store.js';
import { ApiError, withApiErrors, type Handlers } from '../api/api-registry.js';
import { planImport } from './servers-import.js';
import type { ServerStatusTracker } from './server-status.js';

export interface ServersDeps {
  config: ConfigStore;
  /** The hub's base URL, e.g. http://127.0.0.1:39517. */
  baseUrl: string;
  status: ServerStatusTracker;
  test(id: string): Promise<ServerTestResult>;
}

export function serversHandlers(deps: ServersDeps): Handlers<typeof serversContract> {
  const { config, status } = deps;
  const detail = (id: string, entry: ServerConfig): ServerDetail => ({
    id,
    url: `${deps.baseUrl}/mcp/${encodeURIComponent(id)}`,
    kind: isStdioServer(entry) ? 'stdio' : 'remote',
    config: entry,
    status: status.status(id),
  });
  const current = (id: string): ServerConfig => {
    const entry = config.get().mcpServers[id];
    if (!entry) throw new ApiError('server_not_found', `There is no server '${id}' in the config (it may have been removed in another window).`);
    return entry;
  };
  const update = async (mutate: (servers: Record<string, ServerConfig>) => void): Promise<void> => {
    await withApiErrors(ConfigError, () =>
      config.update((draft) => {
        mutate(draft.mcpServers);
      }),
    );
  };

  return {
    'servers.overview': () => Object.entries(config.get().mcpServers).map(([id, entry]) => detail(id, entry)),

    'servers.add': async ({ id, config: entry }) => {
      if (config.get().mcpServers[id]) throw new ApiError('server_exists', `A server named '${id}' already exists: choose another name, or edit that one.`);
      await update((servers) => {
        if (servers[id]) throw new ApiError('server_exists', `A server named '${id}' already exists: choose another name, or edit that one.`);
        servers[id] = entry;
      });
      return detail(id, current(id));
    },

    'servers.update': async ({ id, config: entry, newId }) => {
      current(id);
      const target = newId ?? id;
      if (target !== id && config.get().mcpServers[target]) {
        throw new ApiError('server_exists', `A server named '${target}' already exists: choose another name.`);
      }
      await update((servers) => {
        if (!servers[id]) throw new ApiError('server_not_found', `There is no server '${id}' in the config.`);
        if (target === id) {
          servers[id] = entry;
          return;
        }
        // Rebuild to keep the entry at its position in the file.
        const entries = Object.entries(servers).map(([k, v]): [string, ServerConfig] => (k === id ? [target, entry] : [k, v]));
        for (const k of Object.keys(servers)) delete servers[k];
        for (const [k, v] of entries) servers[k] = v;
      });
      return detail(target, current(target));
    },

    'servers.remove': async ({ id }) => {
      if (!config.get().mcpServers[id]) return { removed: false };
      await update((servers) => {
        delete servers[id];
      });
      return { removed: true };
    },

    'servers.setEnabled': async ({ id, enabled }) => {
      current(id);
      await update((servers) => {
        const entry = servers[id];
        if (!entry) throw new ApiError('server_not_found', `There is no server '${id}' in the config.`);
        // `disabled` is removed rather than set to false, so an enabled entry stays as pasted.
        if (enabled) delete entry.disabled;
        else entry.disabled = true;
      });
      return detail(id, current(id));
    },

    'servers.import': async ({ snippet, overwrite, dryRun }) => {
      const plan = planImport(snippet, config.get().mcpServers, overwrite === true);
      const result = { ...plan.result, dryRun: dryRun === true };
      if (dryRun || plan.entries.length === 0) return result;
      await update((servers) => {
        for (const [id, entry] of plan.entries) servers[id] = entry;
      });
      return result;
    },

    'servers.test': ({ id }) => {
      current(id);
      return deps.test(id);
    },
  };
}
