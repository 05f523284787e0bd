/**
 * Engine side of the settings contract: `hub` settings in config.json, token rotation (the
 * running hub refuses the old token at once), the per-client tokens (list, revoke: the hub refuses
 * a revoked one at once), and start-at-login where the shell supports it.
 */
import { DEFAULT_HUB_PORT } from '../../../shared/config-schema.js';
import { settingsContract, type Settings } from '../../../shared/api/settings-contract.js';
import { ConfigError, type ConfigStore } from '../config/config-store.js';
import type { ClientTokenStore } from '../home/client-tokens.js';
import { rotateHubToken } from '../home/hub-token.js';
import { ApiError, type ApiRegistry, type Handlers } from '../api/api-registry.js';

/** Provided by the desktop shell; the headless one cannot start at login. */
export interface StartAtLogin {
  get(): Promise<boolean>;
  set(enabled: boolean): Promise<void>;
}

export interface SettingsDeps {
  config: ConfigStore;
  api: ApiRegistry;
  activePort: number;
  activeOrigins: () => string[];
  auth: boolean;
  tokenFile: string;
  configFile: string;
  /** The per-client tokens the hub accepts on its MCP doors (home/client-tokens.ts). */
  clientTokens: ClientTokenStore;
  /** Makes the running hub (and everything holding the token) use the new one. */
  applyToken(token: string): void;
  /** A one-time login path for the browser UI after rotation (its sessions were ended). */
  loginPath?(): string | undefined;
  startAtLogin?: StartAtLogin;
  now?: () => Date;
}

export function settingsHandlers(deps: SettingsDeps): Handlers<typeof settingsContract> {
  const read = async (): Promise<Settings> => {
    const hub = deps.config.get().hub ?? {};
    const settings: Settings = {
      defaultPort: DEFAULT_HUB_PORT,
      activePort: deps.activePort,
      allowedOrigins: [...(hub.allowedOrigins ?? [])],
      activeOrigins: deps.activeOrigins(),
      auth: deps.auth,
      tokenFile: deps.tokenFile,
      configFile: deps.configFile,
      retention: pickRetention(deps.config.get().inspector),
    };
    if (hub.port !== undefined) settings.port = hub.port;
    if (deps.startAtLogin) settings.startAtLogin = await deps.startAtLogin.get();
    return settings;
  };
  return {
    'settings.get': read,
    'settings.update': async (input) => {
      const restartRequired: string[] = [];
      const before = deps.config.get().hub ?? {};
      const beforeRetention = JSON.stringify(pickRetention(deps.config.get().inspector));
      if (input.port !== undefined || input.allowedOrigins !== undefined || input.retention !== undefined) {
        try {
          await deps.config.update((draft) => {
            const hub = { ...(draft.hub ?? {}) };
            if (input.port === null) delete hub.port;
            else if (input.port !== undefined) hub.port = input.port;
            if (input.allowedOrigins !== undefined) hub.allowedOrigins = [...new Set(input.allowedOrigins)];
            draft.hub = hub;
            if (input.retention) {
              const inspector: Record<string, unknown> = { ...(draft.inspector ?? {}) };
              for (const [key, value] of Object.entries(input.retention)) {
                if (value === null) delete inspector[key];
                else if (value !== undefined) inspector[key] = value;
              }
              draft.inspector = inspector;
            }
          });
        } catch (err) {
          if (err instanceof ConfigError) throw new ApiError(err.code, err.message, err.problems);
          throw err;
        }
        // The hub binds its port and fixes its origin list when it starts.
        if (input.port !== undefined && (input.port ?? undefined) !== before.port) restartRequired.push('port');
        if (input.allowedOrigins !== undefined && JSON.stringify(input.allowedOrigins) !== JSON.stringify(before.allowedOrigins ?? [])) {
          restartRequired.push('allowedOrigins');
        }
        if (input.retention !== undefined && JSON.stringify(pickRetention(deps.config.get().inspector)) !== beforeRetention) restartRequired.push('retention');
      }
      if (input.startAtLogin !== undefined) {
        if (!deps.startAtLogin) throw new ApiError('not_supported', 'Start at login is only available in the desktop app.');
        await deps.startAtLogin.set(input.startAtLogin);
      }
      return { settings: await read(), restartRequired };
    },
    'settings.rotateToken': async () => {
      if (!deps.auth) throw new ApiError('auth_off', 'The hub runs without a token (--no-auth), so there is nothing to rotate.');
      const token = await rotateHubToken(deps.tokenFile);
      deps.applyToken(token);
      const rotatedAt = (deps.now?.() ?? new Date()).toISOString();
      deps.api.emit(settingsContract, 'settings.tokenRotated', { rotatedAt });
      const out: { tokenFile: string; rotatedAt: string; loginPath?: string } = { tokenFile: deps.tokenFile, rotatedAt };
      const loginPath = deps.loginPath?.();
      if (loginPath) out.loginPath = loginPath;
      return out;
    },
    'settings.clientTokens': async () => {
      await deps.clientTokens.refresh();
      return deps.clientTokens.list();
    },
    'settings.revokeClientToken': async ({ id }) => {
      const revoked = await deps.clientTokens.revoke(id);
      if (!revoked) throw new ApiError('unknown_token', `there is no client token with id '${id}' (list them with: patchbay tokens list)`);
      return revoked;
    },
  };
}

function pickRetention(inspector: Record<string, unknown> | undefined): Settings['retention'] {
  const out: Settings['retention'] = {};
  if (typeof inspector?.historyMaxAgeDays === 'number') out.historyMaxAgeDays = inspector.historyMaxAgeDays;
  if (typeof inspector?.historyMaxBytes === 'number') out.historyMaxBytes = inspector.historyMaxBytes;
  if (typeof inspector?.maxEventsPerSession === 'number') out.maxEventsPerSession = inspector.maxEventsPerSession;
  return out;
}
