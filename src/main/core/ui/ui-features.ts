/**
 * Wires what the UI needs into a running engine: the servers, secrets and settings parts of the
 * API, live server status, the browser login (UiAuth, also the hub's `authorize` hook) and the
 * `/ui` route. engine.ts calls `createUiAuth` before the hub exists (the hook) and `wireUiFeatures`
 * once it listens.
 */
import type { IncomingMessage } from 'node:http';
import { secretsContract } from '../../../shared/api/secrets-contract.js';
import { serversContract } from '../../../shared/api/servers-contract.js';
import { settingsContract } from '../../../shared/api/settings-contract.js';
import type { ApiRegistry } from '../api/api-registry.js';
import { secretsHandlers } from '../engine/secrets-api.js';
import { ServerStatusTracker } from '../servers/server-status.js';
import { testServer } from '../servers/server-test.js';
import { serversHandlers } from '../servers/servers-api.js';
import { settingsHandlers, type StartAtLogin } from '../engine/settings-api.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Hub } from '../hub/hub-server.js';
import type { ServerRuntime } from '../servers/server-runtime.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { defaultUiRoot } from './static-files.js';
import { UiAuth } from './ui-auth.js';
import { uiRoute } from './ui-route.js';

export interface UiFeatureDeps {
  hub: Hub;
  api: ApiRegistry;
  config: ConfigStore;
  secrets: SecretStore;
  url: string;
  port: number;
  /** Undefined when auth is off. */
  token: string | undefined;
  tokenFile: string;
  configFile: string;
  extraOrigins: string[];
  runtime(id: string): ServerRuntime | undefined;
  uiRoot?: string;
  startAtLogin?: StartAtLogin;
}

export interface UiFeatures {
  /** A fresh one-time login URL for the browser UI (just the UI's URL when auth is off). */
  loginUrl(): string;
  /** The runtime, observed for the status view (errors, first answers). */
  watch(runtime: ServerRuntime | undefined): ServerRuntime | undefined;
  close(): void;
}

/** Needed before the hub is constructed: its `authorize` hook accepts the UI's session cookie. */
export function createUiAuth(): { auth: UiAuth; authorize(req: IncomingMessage): boolean } {
  const auth = new UiAuth();
  return { auth, authorize: (req) => auth.authorize(req) };
}

export function wireUiFeatures(auth: UiAuth, deps: UiFeatureDeps): UiFeatures {
  const { hub, api, config, url } = deps;
  auth.setPort(deps.port);
  let token = deps.token;

  const status = new ServerStatusTracker(
    {
      servers: () => config.get().mcpServers,
      sessionCounts: () => {
        const counts = new Map<string, number>();
        for (const s of hub.sessions.values()) counts.set(s.serverId, (counts.get(s.serverId) ?? 0) + 1);
        return counts;
      },
      runtime: (id) => deps.runtime(id),
    },
    api,
  );
  status.start();

  api.register(
    serversContract,
    serversHandlers({ config, baseUrl: url, status, test: (id) => testServer(id, { baseUrl: url, token: () => token }) }),
  );
  api.register(secretsContract, secretsHandlers({ secrets: deps.secrets, config, api }));
  const settingsDeps: Parameters<typeof settingsHandlers>[0] = {
    config,
    api,
    activePort: deps.port,
    activeOrigins: () => [...auth.ownOrigins.slice(0, 2), ...deps.extraOrigins],
    auth: token !== undefined,
    tokenFile: deps.tokenFile,
    configFile: deps.configFile,
    applyToken: (next) => {
      token = next;
      hub.setToken(next);
      // A rotation is what one does after a leak: browser sessions made with the old token end too.
      auth.revokeAll();
    },
    loginPath: () => auth.loginPath(),
  };
  if (deps.startAtLogin) settingsDeps.startAtLogin = deps.startAtLogin;
  api.register(settingsContract, settingsHandlers(settingsDeps));

  hub.addRoute(uiRoute({ root: deps.uiRoot ?? defaultUiRoot(), auth, token: () => token, tokenFile: deps.tokenFile }));

  return {
    loginUrl: () => (token === undefined ? `${url}/ui/` : `${url}${auth.loginPath()}`),
    watch: (runtime) => status.watch(runtime),
    close: () => status.stop(),
  };
}
