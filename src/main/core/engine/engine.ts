/**
 * The engine: everything Patchbay does, without a shell around it. The CLI's `serve`, the
 * desktop app and the tests all start it the same way. A newcomer starts reading here.
 *
 * What it puts together: the config and secret stores, the hub token, the configured servers
 * (servers/server-registry.ts), the hub (hub/hub-server.ts) with its observers (the capture
 * pipeline, traffic/traffic.ts, which feeds the inspector and every subscriber of exchanges, and
 * the servers' live status, hub/observer.ts), OAuth for remote servers, client-config
 * export, the API (registered in one place, register-api.ts) and the routes on the hub's port.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_HUB_PORT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT_MS, REPLICA_ID_PATTERN, type ServerConfig } from '../../../shared/config-schema.js';
import { hubContract, type HubStatus, type ServerSummary } from '../../../shared/api/hub-contract.js';
import { oauthContract } from '../../../shared/api/oauth-contract.js';
import { settingsContract } from '../../../shared/api/settings-contract.js';
import { ApiRegistry } from '../api/api-registry.js';
import { apiRoute } from '../api/http-api.js';
import { ConfigStore, resolveServerSecrets } from '../config/config-store.js';
import { LegacyBridge } from '../bridge/legacy-bridge.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { defaultDemoServer, seedFirstRunConfig } from '../config/first-run.js';
import { ClientTokenStore } from '../home/client-tokens.js';
import { loadOrCreateHubToken } from '../home/hub-token.js';
import { dataPaths, ensureDataDir } from '../home/paths.js';
import { PATCHBAY_VERSION } from '../home/version.js';
import { Hub } from '../hub/hub-server.js';
import { composeObservers, type SessionObserver } from '../hub/observer.js';
import type { Inspector } from '../inspector/inspector.js';
import { startInspector } from '../inspector/start-inspector.js';
import { createLogger } from '../log/logger.js';
import { OAUTH_CALLBACK_PATH, oauthCallbackRoute } from '../oauth/callback-route.js';
import { platformOpener } from '../oauth/openers.js';
import { OAuthService } from '../oauth/oauth-service.js';
import { FileSecretStore } from '../secrets/file-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { ProfileRegistry } from '../profiles/profile-registry.js';
import { ToolPins } from '../profiles/tool-pins.js';
import { ServerRegistry } from '../servers/server-registry.js';
import { eraStatus } from '../servers/server-era.js';
import { ServerStatusTracker } from '../servers/server-status.js';
import type { Telemetry } from '../telemetry/start-telemetry.js';
import { secretChecks } from './engine-guard.js';
import { remoteUrl, startEngineTelemetry } from './engine-telemetry.js';
import { startTraffic } from '../traffic/start-traffic.js';
import type { Traffic } from '../traffic/traffic.js';
import { defaultUiRoot } from '../ui/static-files.js';
import { UiAuth } from '../ui/ui-auth.js';
import { uiRoute } from '../ui/ui-route.js';
import { buildChildEnv, loginShellPath } from '../upstream/child-env.js';
import { createRemoteFetch } from '../upstream/remote-fetch.js';
import type { HostDenial } from '../sandbox/host-proxy.js';
import { sandboxWrapper } from '../sandbox/sandbox-spawn.js';
import { sandboxSupport } from '../sandbox/sandbox-support.js';
import { startAudit } from '../audit/start-audit.js';
import { registerApi } from './register-api.js';
import { startCatalog } from './engine-catalog.js';

import type { EngineOptions } from './engine-options.js';

export type { EngineOptions };

export interface RunningEngine {
  url: string;
  port: number;
  tokenFile: string;
  configFile: string;
  servers(): ServerSummary[];
  /** Problems of the config file on disk, with JSON paths; empty when it is valid. */
  configProblems(): ReadonlyArray<{ path: string; message: string }>;
  hub: Hub;
  /** The API every shell talks to (HTTP `/api`, Electron IPC). */
  api: ApiRegistry;
  config: ConfigStore;
  secrets: SecretStore;
  /** A fresh one-time login URL for the browser UI (the plain UI URL when auth is off). */
  uiLoginUrl(): string;
  /** Captured sessions and messages (docs/inspector.md). */
  inspector: Inspector;
  /** The capture pipeline: `traffic.onExchange` subscribes to completed, paired, redacted exchanges (docs/inspector.md). */
  traffic: Traffic;
  /** OpenTelemetry export while it is on (docs/observability.md); undefined when it is off. */
  telemetry: Telemetry | undefined;
  close(): Promise<void>;
}

const log = createLogger('engine');

export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  await ensureDataDir(options.dataDir);
  const paths = dataPaths(options.dataDir);
  const configFile = options.configFile ?? paths.configFile;
  if (options.configFile === undefined && options.demoServer !== false) await seedFirstRunConfig({ configFile, tokenFile: paths.tokenFile }, options.demoServer ?? defaultDemoServer());
  const config = await ConfigStore.open(configFile, { watch: true });
  for (const p of config.problems) log.error(`config ${configFile}: ${p.path}: ${p.message}`);
  const secrets = options.secrets ?? (await FileSecretStore.open(paths.secretsFile));
  const auth = options.auth !== false;
  let token = auth ? await loadOrCreateHubToken(paths.tokenFile) : undefined;
  // Per-client tokens (issue 17): followed on disk, since the CLI mints and revokes them too.
  const clientTokens = await ClientTokenStore.open(paths.clientTokensFile, { watch: true });
  const settings = config.get().hub ?? {};
  // A replica's own files: beside the others' in a data dir the replicas share.
  if (options.replicaId !== undefined && !REPLICA_ID_PATTERN.test(options.replicaId)) throw new Error(`replica id '${options.replicaId}' must be 1-63 letters, digits, '_' or '-'`);
  const ownDir = options.replicaId === undefined ? options.dataDir : path.join(options.dataDir, 'replicas', options.replicaId);
  const discoveryFile = path.join(ownDir, path.basename(paths.discoveryFile));
  if (ownDir !== options.dataDir) await mkdir(ownDir, { recursive: true, mode: 0o700 });
  const capture = await startTraffic({ config: config.get(), secrets, token, logger: log.child('capture') });
  const inspection = await startInspector({ dataDir: ownDir, config: config.get(), traffic: capture.traffic, logger: log.child('inspector'), ...(options.capture === false ? { capture: false } : {}) });
  // The inspector's statistics count exchanges whenever the pipeline runs, and never make it run.
  capture.traffic.onExchange((x) => inspection.inspector.stats.record(x), { passive: true });
  // The audit trail: who did what through the hub (docs/audit.md); per replica, like its discovery file.
  const audit = await startAudit({ dir: path.join(ownDir, 'audit'), traffic: capture.traffic, enabled: config.get().audit?.enabled !== false && options.capture !== false, content: config.get().audit?.content === true, logger: log.child('audit') });
  let telemetrySettings = JSON.stringify(config.get().telemetry ?? null);
  const engineTelemetry = await startEngineTelemetry(
    config.get().telemetry,
    { env: process.env, secrets, traffic: capture.traffic, serverUrl: (id) => remoteUrl(config.get().mcpServers[id]), version: PATCHBAY_VERSION, logger: log.child('telemetry'), ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}) },
    log,
  );
  const telemetry = engineTelemetry.telemetry;
  // A test's own tracer wins; else telemetry's, which makes the hub trace every forwarded request.
  const tracer = options.tracer ?? telemetry?.tracer;
  const api = new ApiRegistry();

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
    // Replicas sharing the data dir share its tokens: one refresh at a time among them.
    lockDir: options.dataDir,
  });

  // A host a sandboxed server's list refused is a policy decision: into the audit trail (docs/sandbox.md).
  const onDenied = (d: HostDenial): void => {
    audit.record({ t: new Date().toISOString(), kind: 'policy', client: 'sandbox', server: d.server, target: `${d.host}:${d.port}`, outcome: `denied host: ${d.reason}` });
    options.sandbox?.onDenied?.(d);
  };
  const sandbox = sandboxWrapper(options.dataDir, { logger: log, ...options.sandbox, onDenied });
  const registry = new ServerRegistry(
    config.get(),
    {
      remote: { fetch: remoteFetch, oauth, ...(tracer ? { traceHeaders: true } : {}) },
      resolveSecrets: async (server: ServerConfig, serverId: string) => capture.learnServer(serverId, server, await resolveServerSecrets(server, secrets, { serverId })),
      childEnv: async (configured: Record<string, string> | undefined) =>
        buildChildEnv({ base: process.env, platform: process.platform, loginPath: await loginShellPath(), configured }),
      sandbox,
      guard: secretChecks({ redactor: capture.traffic.redactor, audit, api, logger: log.child('secret-check') }),
      logger: log,
    },
    log,
  );

  // Profiles: aggregated endpoints (/mcp, /mcp/@name) over the servers above (docs/profiles.md).
  const pins = await ToolPins.open(paths.toolPinsFile, log.child('pins'));
  // Approvals of changed tools go into the audit trail (made through the API: the UI or the CLI).
  pins.onApproved((profile, approved) => {
    for (const a of approved) audit.record({ t: new Date().toISOString(), kind: 'approve', client: 'api', server: `@${profile}`, target: `${a.server}/${a.tool}`, outcome: 'approved' });
  });
  // Whether servers can be sandboxed here: asked once, when first wanted (it starts bwrap to see whether user namespaces work).
  // sandboxSupport() probes once per process (sandbox-support.ts): no cache of its own here.
  const sandboxAvailability = options.catalog?.sandbox ?? (() => sandboxSupport());
  const catalog = startCatalog({ dataDir: options.dataDir, config, secrets, pins, api, logger: log, options: { sandbox: sandboxAvailability, ...options.catalog } });
  const profiles = new ProfileRegistry(config.get(), { server: (id) => registry.get(id), pins, version: PATCHBAY_VERSION, logger: log });

  // The tracker observes the hub's sessions and counts them: it is only asked once the hub runs.
  const status = new ServerStatusTracker(
    {
      servers: () => config.get().mcpServers,
      sessionCounts: () => hub.sessionCounts(),
      childCount: (id) => registry.get(id)?.childCount ?? 0,
      eraOf: (id) => {
        const facts = registry.get(id)?.era;
        return facts && eraStatus(facts);
      },
    },
    api,
  );
  // The pipeline watches no session while nobody needs it (capture off, no exchange subscriber).
  const observers: SessionObserver[] = [status, capture.traffic];

  // What GET /health/ready answers: set once everything below is mounted, cleared when closing.
  let ready = false;
  let configGood = config.problems.length === 0;
  const uiAuth = new UiAuth();
  const hub = new Hub({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? settings.port ?? DEFAULT_HUB_PORT,
    token,
    clientTokens,
    extraOrigins: settings.allowedOrigins ?? [],
    maxBodyBytes: settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxSessions: settings.maxSessions ?? DEFAULT_MAX_SESSIONS,
    sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    requestTimeoutMs: 5 * 60_000,
    startupTimeoutMs: 60_000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    tickMs: options.tickMs ?? 1000,
    streamLimits: { maxEvents: 1000, maxBytes: 8 * 1024 * 1024 },
    version: PATCHBAY_VERSION,
    logger: log.child('hub'),
    server: (id) => profiles.resolve(id),
    authorize: (req) => uiAuth.authorize(req),
    observer: composeObservers(observers),
    // A 2025-only server's 2026-07-28 clients are served over legacy sessions (bridge/, PROTOCOL Q8).
    eraBridge: (bridge) => new LegacyBridge({ ...bridge, logger: log.child('bridge') }),
    ...(tracer ? { tracer } : {}),
    allowedHosts: settings.allowedHosts ?? [],
    ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}),
    // Ready once everything below is mounted and a valid config was loaded; not while closing.
    ready: () => ready && configGood,
  });
  let port: number;
  try {
    port = await hub.listen();
  } catch (err) {
    await config.close();
    await inspection.close();
    await capture.close();
    await telemetry?.close();
    await audit.close();
    await clientTokens.close();
    throw err;
  }
  hubPort = port;
  uiAuth.setPort(port);
  const url = `http://127.0.0.1:${port}`;
  const startedAt = new Date().toISOString();
  // Atomic: a relay reading it never sees half a file. It replaces whatever a hub that was
  // killed left behind (the relay checks the pid and /health before trusting it, hub-discovery.ts).
  const discovery = JSON.stringify({ pid: process.pid, port, url, startedAt, version: PATCHBAY_VERSION, ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}) }, null, 2) + '\n';
  await writeFileAtomic(discoveryFile, discovery);

  const offChange = config.on('change', (next) => {
    configGood = true;
    api.emit(hubContract, 'config.changed', { problems: [] });
    const nextTelemetry = JSON.stringify(next.telemetry ?? null);
    if (nextTelemetry !== telemetrySettings) {
      telemetrySettings = nextTelemetry;
      log.warn('the telemetry settings changed: restart Patchbay to apply them');
    }
    capture.configChanged(next);
    const replaced = registry.apply(next, (id) => hub.closeSessionsOf(id));
    // In the same step as the runtimes: a changed entry's health starts over, an unchanged one keeps it.
    status.configApplied(next.mcpServers);
    profiles.apply(next, (id) => hub.closeSessionsOf(id), replaced);
  });
  const offProblems = config.on('problems', (problems) => {
    for (const p of problems) log.error(`config ${configFile}: ${p.path}: ${p.message} (keeping the last good config)`);
    api.emit(hubContract, 'config.changed', { problems: problems.map(({ path, message }) => ({ path, message })) });
  });

  const servers = (): ServerSummary[] => registry.summaries(config.get(), url, hub.sessionCounts());
  const hubStatus = async (): Promise<HubStatus> => ({
    sandbox: await sandboxAvailability(),
    version: PATCHBAY_VERSION,
    url,
    port,
    auth,
    configFile,
    configProblems: config.problems.map(({ path, message }) => ({ path, message })),
    sessions: hub.sessions.size,
    startedAt,
  });
  registerApi(api, {
    hub: { status: hubStatus, servers },
    servers: { config, baseUrl: url, status, token: () => token },
    secrets: { secrets, config },
    settings: {
      config,
      activePort: port,
      activeOrigins: () => [...uiAuth.ownOrigins.slice(0, 2), ...(settings.allowedOrigins ?? [])],
      auth,
      tokenFile: paths.tokenFile,
      configFile,
      clientTokens,
      applyToken: (next) => {
        token = next;
        hub.setToken(next);
        // A rotation is what one does after a leak: browser sessions made with the old token end too.
        uiAuth.revokeAll();
      },
      loginPath: () => uiAuth.loginPath(),
      ...(options.startAtLogin ? { startAtLogin: options.startAtLogin } : {}),
    },
    inspector: { inspector: inspection.inspector, hub, hubUrl: url, version: PATCHBAY_VERSION },
    oauth,
    clients: {
      dataDir: options.dataDir,
      configFile,
      config,
      secrets,
      tokens: clientTokens,
      engine: { port, url, serverEras: () => Object.fromEntries(status.all().map((s) => [s.id, s.era])) },
      outdated: catalog.outdated,
      ...(options.clients ?? {}),
    },
    playground: { openSession: (id) => hub.openLocalSession(id, 'playground'), captureIdOf: (key) => inspection.inspector.captureIdOf(key), version: PATCHBAY_VERSION },
    profiles: { config, profiles, pins, baseUrl: url, sessionCounts: () => hub.sessionCounts(), version: PATCHBAY_VERSION },
    catalog: catalog.deps,
    telemetry: {
      config,
      secrets,
      configFile,
      ...(options.openUrl ? { openUrl: options.openUrl } : {}),
      // The exporter's own word: running, failed to start (why), or not started (settings read at start).
      state: () => engineTelemetry.state(),
    },
    audit,
  });
  status.start();
  const offTokens = clientTokens.onChange(() => api.emit(settingsContract, 'settings.clientTokensChanged', { changedAt: new Date().toISOString() }));

  // Routes on the hub's port. The inspector's live stream first: the generic /api route would claim its path.
  hub.addRoute(inspection.route);
  hub.addRoute(apiRoute(api));
  hub.addRoute(oauthCallbackRoute(oauth));
  hub.addRoute(uiRoute({ root: options.uiRoot ?? defaultUiRoot(), auth: uiAuth, token: () => token, tokenFile: paths.tokenFile }));

  let closing: Promise<void> | undefined;
  ready = true;
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
    uiLoginUrl: () => (token === undefined ? `${url}/ui/` : `${url}${uiAuth.loginPath()}`),
    inspector: inspection.inspector,
    traffic: capture.traffic,
    telemetry,
    close: () => {
      closing ??= (async () => {
        ready = false;
        offChange();
        offProblems();
        offTokens();
        status.stop();
        await config.close();
        await hub.close();
        await clientTokens.close();
        await profiles.close();
        await registry.close();
        await catalog.close();
        await sandbox.close();
        await pins.flush();
        await inspection.close();
        await capture.close();
        // After capture: the exchanges it still held have reached telemetry (and the audit); it sends them within its timeout.
        await telemetry?.close();
        await audit.close();
        oauth.close();
        // Only our own: another hub may have started on this data dir since (and written its own).
        if ((await readFile(discoveryFile, 'utf8').catch(() => '')) === discovery) await rm(discoveryFile, { force: true });
      })();
      return closing;
    },
  };
}
