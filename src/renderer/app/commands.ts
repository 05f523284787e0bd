/**
 * What the UI does to the engine: each command calls the bridge and reports the outcome to the
 * stores as events. Screens call these; they never hold call results in two places.
 */
import type { AppEvent } from '../../shared/api/app-contract.js';
import { unwrap, type AppEventOf } from '../bridge/bridge.js';
import type { Services } from './services.js';

export async function loadServers({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('servers.overview', {});
  if (r.ok) stores.servers.getState().overviewLoaded(r.value);
  else stores.servers.getState().overviewFailed(r.message);
}

export async function loadSecrets({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('secrets.list', {});
  if (r.ok) stores.secrets.getState().secretsLoaded(r.value);
  else stores.secrets.getState().secretsFailed(r.message);
}

export async function loadSettings({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('settings.get', {});
  if (r.ok) stores.app.getState().settingsLoaded(r.value);
  else stores.app.getState().settingsFailed(r.message);
}

export async function loadHubStatus({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('hub.status', {});
  if (r.ok) stores.app.getState().hubStatusLoaded(r.value);
}

export function refreshAll(services: Services): Promise<unknown> {
  return Promise.all([loadServers(services), loadSecrets(services), loadSettings(services), loadHubStatus(services)]);
}

export async function testServer({ bridge, stores }: Services, id: string): Promise<void> {
  stores.servers.getState().testStarted(id);
  const r = await bridge.call('servers.test', { id });
  stores.servers
    .getState()
    .testFinished(id, r.ok ? r.value : { ok: false, stage: 'hub', message: r.message, durationMs: 0 });
}

export async function setServerEnabled(services: Services, id: string, enabled: boolean): Promise<void> {
  const server = await unwrap(services.bridge.call('servers.setEnabled', { id, enabled }));
  services.stores.servers.getState().serverSaved(server);
  services.stores.notices.getState().noticePosted(`${id} ${enabled ? 'enabled' : 'disabled'}`);
}

export async function removeServer(services: Services, id: string): Promise<void> {
  await unwrap(services.bridge.call('servers.remove', { id }));
  services.stores.servers.getState().serverRemoved(id);
  services.stores.notices.getState().noticePosted(`Removed ${id}`);
}

/** Routes each engine event to the store of its domain. */
export function dispatchEvent(services: Services, raw: AppEvent): void {
  const { stores } = services;
  const event = raw as AppEventOf;
  switch (event.channel) {
    case 'servers.status':
      stores.servers.getState().serverStatusReceived(event.payload);
      return;
    case 'config.changed': {
      stores.app.getState().configChanged(event.payload.problems);
      void loadServers(services);
      void loadSecrets(services);
      return;
    }
    case 'secrets.changed':
      stores.secrets.getState().secretsChanged(event.payload.names);
      void loadSecrets(services);
      return;
    case 'settings.tokenRotated':
      stores.app.getState().tokenRotated(event.payload.rotatedAt);
      return;
    default:
      return;
  }
}

/** Subscribes once for the app's life; refetches everything when events may have been missed. */
export function startEvents(services: Services): () => void {
  const offStatus = services.bridge.onStatus((status) => {
    services.stores.app.getState().connectionChanged(status);
    if (status.state === 'live' && status.resync) void refreshAll(services);
  });
  const unsubscribe = services.bridge.subscribe((event) => dispatchEvent(services, event));
  return () => {
    offStatus();
    unsubscribe();
  };
}
