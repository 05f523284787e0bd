/**
 * Wiring the clients service and the doctor to their surroundings: inside the engine (the hub is
 * this process) or from the CLI (the hub, if any, is another process found through `hub.json`).
 * Everything machine-specific (host, launcher, PATHs) is injectable for tests.
 */
import { readFile } from 'node:fs/promises';
import type { ServerEra } from '../../../shared/api/servers-contract.js';
import { DEFAULT_HUB_PORT } from '../../../shared/config-schema.js';
import type { ConfigStore } from '../config/config-store.js';
import { errCode } from '../fs/err-code.js';
import { ClientTokenStore } from '../home/client-tokens.js';
import { loadOrCreateHubToken } from '../home/hub-token.js';
import { dataPaths } from '../home/paths.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { mergePathLists, readLoginShellPath } from '../upstream/child-env.js';
import { currentHost, type ClientHost } from './client-host.js';
import { ClientsService } from './clients-service.js';
import { desktopPath } from '../upstream/command-resolve.js';
import { portIsFree, type DoctorDeps, type HubProbe } from './doctor.js';
import { plainInstallLauncher, type HubTarget, type RelayLauncher } from './patchbay-entry.js';

export interface ClientsRuntimeOptions {
  dataDir: string;
  configFile: string;
  config: ConfigStore;
  secrets: SecretStore;
  host?: ClientHost;
  launcher?: RelayLauncher;
  /** The engine's own client token store (the one its hub checks); default: the data dir's, opened on first use. */
  tokens?: ClientTokenStore;
  /** Set inside the engine: the hub is this process (with what it knows of its servers' eras). */
  engine?: { port: number; url: string; serverEras?: () => Record<string, ServerEra | undefined> };
  /** PATH of the login shell; default: asked from the shell once (skipped with PATCHBAY_NO_LOGIN_SHELL=1). */
  loginPath?: () => Promise<string | undefined>;
  /** PATH a desktop-launched client sees; default per platform. */
  desktopPath?: string;
  /** The doctor's outdated servers (the engine's catalog, from its cached copy). */
  outdated?: DoctorDeps['outdated'];
}

export interface ClientsRuntime {
  service: ClientsService;
  doctor: DoctorDeps;
}

export function createClientsRuntime(options: ClientsRuntimeOptions): ClientsRuntime {
  const host = options.host ?? currentHost();
  const paths = dataPaths(options.dataDir);
  const hub = async (): Promise<HubTarget> => {
    // An export writes the token into URL entries, so it is created here if it does not exist yet.
    const token = await loadOrCreateHubToken(paths.tokenFile);
    if (options.engine) return { port: options.engine.port, token };
    const running = await runningHub(paths.discoveryFile);
    return { port: running?.port ?? options.config.get().hub?.port ?? DEFAULT_HUB_PORT, token };
  };
  let store: Promise<ClientTokenStore> | undefined;
  const tokens = (): Promise<ClientTokenStore> => (store ??= options.tokens ? Promise.resolve(options.tokens) : ClientTokenStore.open(paths.clientTokensFile));
  const service = new ClientsService({ dataDir: options.dataDir, config: options.config, secrets: options.secrets, host, launcher: options.launcher ?? plainInstallLauncher(), hub, tokens });

  let login: Promise<string | undefined> | undefined;
  const loginPath = (): Promise<string | undefined> => {
    login ??= options.loginPath?.() ?? (host.env.PATCHBAY_NO_LOGIN_SHELL === '1' ? Promise.resolve(undefined) : readLoginShellPath(host.env as NodeJS.ProcessEnv, host.platform));
    return login;
  };
  const delimiter = host.platform === 'win32' ? ';' : ':';
  const ownPath = host.env.PATH ?? host.env.Path;
  const doctor: DoctorDeps = {
    service,
    configFile: options.configFile,
    configProblems: () => options.config.problems,
    tokenFile: paths.tokenFile,
    hub: async (): Promise<HubProbe> => {
      if (options.engine) return { state: 'running', url: options.engine.url, port: options.engine.port, self: true };
      const running = await runningHub(paths.discoveryFile);
      if (running) return { state: 'running', url: running.url, port: running.port, self: false };
      const port = options.config.get().hub?.port ?? DEFAULT_HUB_PORT;
      return { state: 'stopped', port, portFree: await portIsFree(port) };
    },
    hubPath: async () => mergePathLists([await loginPath(), ownPath], delimiter),
    shellPath: async () => (await loginPath()) ?? ownPath ?? '',
    desktopPath: options.desktopPath ?? desktopPath(host.platform, host.env),
    serverEras: async () => {
      if (options.engine) return options.engine.serverEras?.();
      const running = await runningHub(paths.discoveryFile);
      return running && (await erasFromHub(running.url, paths.tokenFile));
    },
    ...(options.outdated ? { outdated: options.outdated } : {}),
  };
  return { service, doctor };
}

/** What another process's hub knows of its servers' eras (its `servers.overview` over /api). */
async function erasFromHub(url: string, tokenFile: string): Promise<Record<string, ServerEra | undefined> | undefined> {
  let token: string | undefined;
  try {
    token = (await readFile(tokenFile, 'utf8')).trim();
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
  const res = await fetch(`${url}/api/call/servers.overview`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: '{}',
    signal: AbortSignal.timeout(3000),
  });
  const body = (await res.json().catch(() => undefined)) as { ok?: boolean; value?: Array<{ id: string; status?: { era?: ServerEra } }> } | undefined;
  if (!res.ok || !body?.ok || !Array.isArray(body.value)) return undefined;
  return Object.fromEntries(body.value.map((s) => [s.id, s.status?.era]));
}

/** The hub another process runs for this data dir, if its discovery file is current and it answers. */
export async function runningHub(discoveryFile: string): Promise<{ port: number; url: string } | undefined> {
  let info: { pid?: unknown; port?: unknown; url?: unknown };
  try {
    info = JSON.parse(await readFile(discoveryFile, 'utf8')) as typeof info;
  } catch (err) {
    if (errCode(err) === 'ENOENT' || err instanceof SyntaxError) return undefined;
    throw err;
  }
  if (typeof info.port !== 'number' || typeof info.pid !== 'number') return undefined;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    if (errCode(err) !== 'EPERM') return undefined;
  }
  const url = `http://127.0.0.1:${info.port}`;
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1500) });
    await res.body?.cancel();
    return res.ok ? { port: info.port, url } : undefined;
  } catch {
    return undefined;
  }
}
