/**
 * The engine: everything Patchbay does, without a shell around it. The CLI's `serve`, the
 * desktop app and the tests all start it the same way. A newcomer starts reading here.
 */
import { rm, writeFile } from 'node:fs/promises';
import { DEFAULT_HUB_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS, isStdioServer, type PatchbayConfig, type ServerConfig } from '../../../shared/config-schema.js';
import { hubContract, type HubStatus, type ServerSummary } from '../../../shared/api/hub-contract.js';
import { oauthContract } from '../../../shared/api/oauth-contract.js';
import { ApiRegistry } from '../api/api-registry.js';
import { apiRoute } from '../api/http-api.js';
import { ConfigStore, resolveServerSecrets } from '../config/config-store.js';
import { loadOrCreateHubToken } from '../home/hub-token.js';
import { Hub } from '../hub/hub-server.js';
import type { Inspector } from '../inspector/inspector.js';
import { startInspector } from '../inspector/start-inspector.js';
import { ServerRuntime } from '../servers/server-runtime.js';
import { createLogger } from '../log/logger.js';
import { dataPaths, ensureDataDir } from '../home/paths.js';
import { FileSecretStore } from '../secrets/file-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { buildChildEnv, loginShellPath } from '../upstream/child-env.js';
import { createRemoteFetch } from '../upstream/remote-fetch.js';
import { OAUTH_CALLBACK_PATH, oauthCallbackRoute } from '../oauth/callback-route.js';
import { registerOAuthApi } from '../oauth/oauth-api.js';
import { registerClientsApi } from '../clients/clients-api.js';
import { createClientsRuntime, type ClientsRuntimeOptions } from '../clients/clients-runtime.js';
import { OAuthService } from '../oauth/oauth-service.js';
import { platformOpener, type OpenUrl } from '../oauth/openers.js';
import type { StartAtLogin } from './settings-api.js';
import { createUiAuth, wireUiFeatures, type UiFeatures } from '../ui/ui-features.js';
import { PATCHBAY_VERSION } from '../home/version.js';

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
  /** The desktop shell's "start at login" switch (absent headless). */
  startAtLogin?: StartAtLogin;
  /** Where the built UI is (default: dist/renderer of this package). */
  uiRoot?: string;
  /**
   * Opens a remote server's sign-in page (OAuth). The desktop app passes Electron's
   * shell.openExternal; default: the platform's opener, with the URL also printed to stderr.
   */
  openUrl?: OpenUrl;
  /** How long a request that needs a sign-in waits for it before it fails (default 2 minutes). */
  oauthLoginWaitMs?: number;
  /** Capture messages for the inspector (default true; false e.g. to measure what capture costs). */
  capture?: boolean;
  /** Client-config export: the relay launcher (the desktop app passes its own) and, for tests, the machine whose clients are managed. */
  clients?: Pick<ClientsRuntimeOptions, 'launcher' | 'host' | 'loginPath' | 'desktopPath'>;
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
  /** A fresh one-time login URL for the browser UI (the plain UI URL when auth is off). */
  uiLoginUrl(): string;
  /** Captured sessions and messages (docs/inspector.md). */
  inspector: Inspector;
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
  const inspection = await startInspector({ dataDir: options.dataDir, config: config.get(), secrets, token, logger: log.child('inspector'), ...(options.capture === false ? { capture: false } : {}) });

  // Remote servers: one proxy-aware fetch, and the OAuth client that owns every remote sign-in.
  const remoteFetch = createRemoteFetch();
  let hubPort = 0;
  const oauth = new OAuthService({
    secrets,
    fetch: remoteFetch,
    openUrl: options.openUrl ?? platformOpener(),
    redirectUrl: () => `http://127.0.0.1:${hubPort}${OAUTH_CALLBACK_PATH}`,
    servers: () => config.get().mcpServers,
    emit: (e) => api.emit(oauthContract, e.channel, e.payload),
    logger: log.child('oauth'),
    ...(options.oauthLoginWaitMs !== undefined ? { loginWaitMs: options.oauthLoginWaitMs } : {}),
  });

  const runtimeDeps = {
    remote: { fetch: remoteFetch, oauth },
    resolveSecrets: async (server: ServerConfig, serverId: string) => inspection.learnServer(serverId, server, await resolveServerSecrets(server, secrets, { serverId })),
    childEnv: async (configured: Record<string, string> | undefined) =>
      buildChildEnv({ base: process.env, platform: process.platform, loginPath: await loginShellPath(), configured }),
    logger: log,
  };
  let runtimes = buildRuntimes(config.get(), runtimeDeps);

  const uiAuth = createUiAuth();
  // Filled once the hub listens; the hub's runtime lookup reads it per request.
  const ui: { features?: UiFeatures } = {};
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
    runtime: (id) => (ui.features ? ui.features.watch(runtimes.get(id)) : runtimes.get(id)),
    authorize: uiAuth.authorize,
    capture: inspection.hooks,
  });
  let port: number;
  try {
    port = await hub.listen();
  } catch (err) {
    await config.close();
    await inspection.close();
    throw err;
  }
  hubPort = port;
  const url = `http://127.0.0.1:${port}`;
  const startedAt = new Date().toISOString();
  await writeFile(paths.discoveryFile, JSON.stringify({ pid: process.pid, port, url, startedAt, version: PATCHBAY_VERSION }, null, 2) + '\n');

  // A server whose entry changed is restarted: its sessions end (clients re-initialize on 404)
  // and new ones use the new entry. Untouched servers keep their sessions.
  const api = new ApiRegistry();
  const offChange = config.on('change', (next) => {
    api.emit(hubContract, 'config.changed', { problems: [] });
    inspection.configChanged(next);
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
  // The inspector's live stream first: the generic /api route would claim its path.
  hub.addRoute(inspection.route);
  hub.addRoute(apiRoute(api));
  inspection.register(api, hub, url, PATCHBAY_VERSION);
  registerOAuthApi(api, oauth);
  hub.addRoute(oauthCallbackRoute(oauth));
  registerClientsApi(api, createClientsRuntime({ dataDir: options.dataDir, configFile, config, secrets, engine: { port, url }, ...(options.clients ?? {}) }));
  ui.features = wireUiFeatures(uiAuth.auth, {
    hub, api, config, secrets, url, port, token, tokenFile: paths.tokenFile, configFile,
    extraOrigins: settings.allowedOrigins ?? [],
    runtime: (id) => runtimes.get(id),
    ...(options.uiRoot ? { uiRoot: options.uiRoot } : {}),
    ...(options.startAtLogin ? { startAtLogin: options.startAtLogin } : {}),
  });

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
    uiLoginUrl: () => ui.features!.loginUrl(),
    inspector: inspection.inspector,
    close: () => {
      closing ??= (async () => {
        offChange();
        offProblems();
        ui.features?.close();
        await config.close();
        await hub.close();
        await Promise.all([...runtimes.values()].map((r) => r.close()));
        await inspection.close();
        oauth.close();
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
