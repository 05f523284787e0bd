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
  /** The app's version (the menu's first line). */
  version: string;
  hub: HubState;
  /** Live downstream sessions across all servers. */
  sessions: number;
  servers: TrayServer[];
  /** Problems in config.json (the last good config is in use). */
  configProblems: number;
  /** Undefined where the platform cannot start the app at login. */
  startAtLogin?: boolean;
  /** A newer release the update check found (never installed by the app). */
  update?: { version: string };
}

/** Five looks: the hub starting, stopped, idle (running, no sessions), serving, and failing. */
export type TrayIconState = 'starting' | 'stopped' | 'idle' | 'serving' | 'error';

export function trayIconState(state: TrayState): TrayIconState {
  if (state.hub.state === 'error' || state.servers.some((s) => s.state === 'error')) return 'error';
  if (state.hub.state === 'starting') return 'starting';
  if (state.hub.state === 'stopped') return 'stopped';
  return state.sessions > 0 ? 'serving' : 'idle';
}

export interface TrayExtras {
  version: string;
  startAtLogin: boolean | undefined;
  update?: { version: string } | undefined;
}

export async function readTrayState(hub: HubState, engine: RunningEngine | undefined, extras: TrayExtras): Promise<TrayState> {
  const base: TrayState = {
    version: extras.version,
    hub,
    sessions: 0,
    servers: [],
    configProblems: 0,
    ...(extras.startAtLogin !== undefined ? { startAtLogin: extras.startAtLogin } : {}),
    ...(extras.update ? { update: extras.update } : {}),
  };
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
