/**
 * The engine: everything Patchbay does, without a shell around it. The CLI's `serve`, the
 * desktop app and the tests all start it the same way. A newcomer starts reading here.
 */
import { rm, writeFile } from 'node:fs/promises';
import { DEFAULT_HUB_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS, isStdioServer, type PatchbayConfig, type ServerConfig } from '../../shared/config-schema.js';
import { hubContract, type HubStatus, type ServerSummary } from '../../shared/api/hub-contract.js';
import { ApiRegistry } from './api/api-registry.js';
import { apiRoute } from './api/http-api.js';
import { ConfigStore, resolveServerSecrets } from './config/config-store.js';
import { loadOrCreateHubToken } from './hub-token.js';
import { Hub } from './hub/hub-server.js';
import { ServerRuntime } from './hub/server-runtime.js';
import { createLogger } from './log/logger.js';
import { dataPaths, ensureDataDir } from './paths.js';
import { FileSecretStore } from './secrets/file-secret-store.js';
import type { SecretStore } from './secrets/secret-store.js';
import { buildChildEnv, loginShellPath } from './upstream/child-env.js';
import { PATCHBAY_VERSION } from './version.js';

export interface EngineOptions {
  dataDir: string;
  configFile?: string;
  port?: number;
  host?: string;
  auth?: boolean;
  /** Tuning for tests: housekeeping interval and SSE keep-alive interval, in ms. */
  tickMs?: number;
  keepAliveMs?: number;
  /** Injected secret store (the desktop app's safeStorage one); default: the 0600 file store. */
  secrets?: SecretStore;
}

export interface RunningEngine {
  url: string;
  port: number;
  tokenFile: string;
  configFile: string;
  servers(): ServerSummary[];
  /** Problems of the config file on disk, with JSON paths; empty when it is valid. */
  configProblems(): ReadonlyArray<{ path: string; message: string }>;
  hub: Hub;
  /** The API every shell talks to (HTTP `/api`, Electron IPC); features register here. */
  api: ApiRegistry;
  config: ConfigStore;
  secrets: SecretStore;
  close(): Promise<void>;
}

const log = createLogger('engine');

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  await ensureDataDir(options.dataDir);
  const paths = dataPaths(options.dataDir);
  const configFile = options.configFile ?? paths.configFile;
  const config = await ConfigStore.open(configFile, { watch: true });
  for (const p of config.problems) log.error(`config ${configFile}: ${p.path}: ${p.message}`);
  const secrets = options.secrets ?? (await FileSecretStore.open(paths.secretsFile));
  const auth = options.auth !== false;
  const token = auth ? await loadOrCreateHubToken(paths.tokenFile) : undefined;
  const settings = config.get().hub ?? {};

  const runtimeDeps = {
    resolveSecrets: (server: ServerConfig, serverId: string) => resolveServerSecrets(server, secrets, { serverId }),
    childEnv: async (configured: Record<string, string> | undefined) =>
      buildChildEnv({ base: process.env, platform: process.platform, loginPath: await loginShellPath(), configured }),
    logger: log,
  };
  let runtimes = buildRuntimes(config.get(), runtimeDeps);

  const hub = new Hub({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? settings.port ?? DEFAULT_HUB_PORT,
    token,
    extraOrigins: settings.allowedOrigins ?? [],
    maxBodyBytes: settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxSessions: settings.maxSessions ?? DEFAULT_MAX_SESSIONS,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    requestTimeoutMs: 5 * 60_000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    tickMs: options.tickMs ?? 1000,
    streamLimits: { maxEvents: 1000, maxBytes: 8 * 1024 * 1024 },
    version: PATCHBAY_VERSION,
    logger: log.child('hub'),
    runtime: (id) => runtimes.get(id),
  });
  let port: number;
  try {
    port = await hub.listen();
  } catch (err) {
    await config.close();
    throw err;
  }
  const url = `http://127.0.0.1:${port}`;
  const startedAt = new Date().toISOString();
  await writeFile(paths.discoveryFile, JSON.stringify({ pid: process.pid, port, url, startedAt, version: PATCHBAY_VERSION }, null, 2) + '\n');

  // A server whose entry changed is restarted: its sessions end (clients re-initialize on 404)
  // and new ones use the new entry. Untouched servers keep their sessions.
  const api = new ApiRegistry();
  const offChange = config.on('change', (next) => {
    api.emit(hubContract, 'config.changed', { problems: [] });
    const updated = buildRuntimes(next, runtimeDeps);
    const old = runtimes;
    for (const [id, runtime] of old) {
      const replacement = updated.get(id);
      if (replacement && JSON.stringify(replacement.config) === JSON.stringify(runtime.config)) {
        updated.set(id, runtime);
        continue;
      }
      log.info(`server '${id}' ${replacement ? 'changed' : 'was removed'}: closing its sessions`);
      void hub.closeSessionsOf(id).then(() => runtime.close());
    }
    runtimes = updated;
  });
  const offProblems = config.on('problems', (problems) => {
    for (const p of problems) log.error(`config ${configFile}: ${p.path}: ${p.message} (keeping the last good config)`);
    api.emit(hubContract, 'config.changed', { problems: problems.map(({ path, message }) => ({ path, message })) });
  });

  const servers = (): ServerSummary[] => {
    const sessionCounts = new Map<string, number>();
    for (const s of hub.sessions.values()) sessionCounts.set(s.serverId, (sessionCounts.get(s.serverId) ?? 0) + 1);
    return Object.entries(config.get().mcpServers).map(([id, server]) => ({
      id,
      url: `${url}/mcp/${encodeURIComponent(id)}`,
      kind: isStdioServer(server) ? 'stdio' : 'remote',
      disabled: server.disabled === true,
      sessions: sessionCounts.get(id) ?? 0,
      children: runtimes.get(id)?.childCount ?? 0,
    }));
  };
  const status = (): HubStatus => ({
    version: PATCHBAY_VERSION,
    url,
    port,
    auth,
    configFile,
    configProblems: config.problems.map(({ path, message }) => ({ path, message })),
    sessions: hub.sessions.size,
    startedAt,
  });
  api.register(hubContract, { 'hub.status': status, 'servers.list': servers });
  hub.addRoute(apiRoute(api));

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    tokenFile: paths.tokenFile,
    configFile,
    servers,
    configProblems: () => config.problems,
    hub,
    api,
    config,
    secrets,
    close: () => {
      closing ??= (async () => {
        offChange();
        offProblems();
        await config.close();
        await hub.close();
        await Promise.all([...runtimes.values()].map((r) => r.close()));
        await rm(paths.discoveryFile, { force: true });
      })();
      return closing;
    },
  };
}

function buildRuntimes(config: PatchbayConfig, deps: ConstructorParameters<typeof ServerRuntime>[2]): Map<string, ServerRuntime> {
  const out = new Map<string, ServerRuntime>();
  for (const [id, server] of Object.entries(config.mcpServers)) {
    if (server.disabled) continue;
    out.set(id, new ServerRuntime(id, server, deps));
  }
  return out;
}
