/** Hub settings, telemetry's, the hub's own status, and the connection to the engine. */
import { createStore } from 'zustand/vanilla';
import type { HubStatus } from '../../shared/api/hub-contract.js';
import type { ClientToken, Settings } from '../../shared/api/settings-contract.js';
import type { TelemetryView } from '../../shared/api/telemetry-contract.js';
import type { BridgeStatus } from '../bridge/bridge.js';

export interface AppState {
  connection: BridgeStatus;
  hub: HubStatus | undefined;
  settings: Settings | undefined;
  settingsError: string | undefined;
  /** Settings saved but only applied when the hub restarts (`telemetry`: the exporter's). */
  restartRequired: string[];
  /** Telemetry's settings, in effect and as stored; undefined until loaded. */
  telemetry: TelemetryView | undefined;
  telemetryError: string | undefined;
  tokenRotatedAt: string | undefined;
  /** The per-client tokens (metadata only), newest first; undefined until loaded. */
  clientTokens: ClientToken[] | undefined;
  configProblems: Array<{ path: string; message: string }>;

  connectionChanged(status: BridgeStatus): void;
  hubStatusLoaded(hub: HubStatus): void;
  settingsLoaded(settings: Settings): void;
  settingsFailed(message: string): void;
  settingsSaved(settings: Settings, restartRequired: string[]): void;
  telemetryLoaded(view: TelemetryView): void;
  telemetryFailed(message: string): void;
  telemetrySaved(view: TelemetryView, restartRequired: boolean): void;
  tokenRotated(at: string): void;
  clientTokensLoaded(tokens: ClientToken[]): void;
  clientTokenRevoked(token: ClientToken): void;
  configChanged(problems: Array<{ path: string; message: string }>): void;
}

export type AppStateStore = ReturnType<typeof createAppStateStore>;

export function createAppStateStore() {
  return createStore<AppState>()((set) => ({
    connection: { state: 'connecting' },
    hub: undefined,
    settings: undefined,
    settingsError: undefined,
    restartRequired: [],
    telemetry: undefined,
    telemetryError: undefined,
    tokenRotatedAt: undefined,
    clientTokens: undefined,
    configProblems: [],
    connectionChanged: (connection) => set({ connection }),
    hubStatusLoaded: (hub) => set({ hub, configProblems: hub.configProblems }),
    settingsLoaded: (settings) => set({ settings, settingsError: undefined }),
    settingsFailed: (message) => set({ settingsError: message }),
    settingsSaved: (settings, restartRequired) =>
      set((s) => ({ settings, restartRequired: [...new Set([...s.restartRequired, ...restartRequired])] })),
    telemetryLoaded: (telemetry) => set({ telemetry, telemetryError: undefined }),
    telemetryFailed: (message) => set({ telemetryError: message }),
    telemetrySaved: (telemetry, restartRequired) =>
      set((s) => ({ telemetry, telemetryError: undefined, restartRequired: restartRequired ? [...new Set([...s.restartRequired, 'telemetry'])] : s.restartRequired })),
    tokenRotated: (at) => set({ tokenRotatedAt: at }),
    clientTokensLoaded: (clientTokens) => set({ clientTokens }),
    clientTokenRevoked: (token) => set((s) => ({ clientTokens: s.clientTokens?.map((t) => (t.id === token.id ? token : t)) })),
    configChanged: (problems) => set({ configProblems: problems }),
  }));
}
