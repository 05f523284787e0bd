/**
 * What the tray shows, read from the engine through the same API the UI uses (`hub.status`,
 * `servers.overview`), and the icon state derived from it.
 */
import type { HubStatus } from '../../shared/api/hub-contract.js';
import type { ServerDetail, ServerState } from '../../shared/api/servers-contract.js';
import type { RunningEngine } from '../core/index.js';
import type { HubState } from './engine-host.js';

export interface TrayServer {
  id: string;
  state: ServerState;
  sessions: number;
  enabled: boolean;
  /** The last error's message when the server is failing. */
  error?: string;
}

export interface TrayState {
  hub: HubState;
  /** Live downstream sessions across all servers. */
  sessions: number;
  servers: TrayServer[];
  /** Problems in config.json (the last good config is in use). */
  configProblems: number;
  /** Undefined where the platform cannot start the app at login. */
  startAtLogin?: boolean;
}

export type TrayIconState = 'idle' | 'serving' | 'error';

export function trayIconState(state: TrayState): TrayIconState {
  if (state.hub.state === 'error' || state.servers.some((s) => s.state === 'error')) return 'error';
  if (state.hub.state === 'running' && state.sessions > 0) return 'serving';
  return 'idle';
}

export async function readTrayState(hub: HubState, engine: RunningEngine | undefined, startAtLogin: boolean | undefined): Promise<TrayState> {
  const base: TrayState = { hub, sessions: 0, servers: [], configProblems: 0, ...(startAtLogin !== undefined ? { startAtLogin } : {}) };
  if (!engine || hub.state !== 'running') return base;
  const [status, overview] = await Promise.all([engine.api.invoke('hub.status', {}), engine.api.invoke('servers.overview', {})]);
  if (status.ok) {
    const value = status.value as HubStatus;
    base.sessions = value.sessions;
    base.configProblems = value.configProblems.length;
  }
  if (overview.ok) {
    base.servers = (overview.value as ServerDetail[]).map((s) => ({
      id: s.id,
      state: s.status.state,
      sessions: s.status.sessions,
      enabled: s.config.disabled !== true,
      ...(s.status.state === 'error' && s.status.lastError ? { error: s.status.lastError.message } : {}),
    }));
  }
  return base;
}
