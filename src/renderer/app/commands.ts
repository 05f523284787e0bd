/**
 * What the UI does to the engine: each command calls the bridge and reports the outcome to the
 * stores as events. Screens call these; they never hold call results in two places.
 */
import type { AppEvent } from '../../shared/api/app-contract.js';
import { unwrap, type AppEventOf } from '../bridge/bridge.js';
import { loadOutdated } from './catalog-commands.js';
import { refreshCatalog } from './playground-commands.js';
import { parseRoute } from './router.js';
import type { Services } from './services.js';
import { loadTelemetry } from './telemetry-commands.js';

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

/** The per-client tokens for Settings (metadata only: the engine never sends a token's value). */
export async function loadClientTokens({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('settings.clientTokens', {});
  if (r.ok) stores.app.getState().clientTokensLoaded(r.value);
}

export async function revokeClientToken({ bridge, stores }: Services, id: string): Promise<void> {
  const token = await unwrap(bridge.call('settings.revokeClientToken', { id }));
  stores.app.getState().clientTokenRevoked(token);
  stores.notices.getState().noticePosted(`Revoked the client token of ${token.label}: export it again to give it a new one`);
}

export async function loadHubStatus({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('hub.status', {});
  if (r.ok) stores.app.getState().hubStatusLoaded(r.value);
}

/** Calls, errors and latency per server (the inspector's stats). */
export async function loadStats({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('inspector.stats', {});
  if (r.ok && Array.isArray(r.value.servers)) stores.servers.getState().statsLoaded(r.value.servers);
}

export function refreshAll(services: Services): Promise<unknown> {
  return Promise.all([loadServers(services), loadSecrets(services), loadSettings(services), loadHubStatus(services), loadStats(services), loadTelemetry(services)]);
}

/** Removes a server and offers to put it back (its entry is kept until the notice goes). */
export async function removeServerWithUndo(services: Services, id: string): Promise<void> {
  const entry = services.stores.servers.getState().byId[id]?.config;
  await unwrap(services.bridge.call('servers.remove', { id }));
  services.stores.servers.getState().serverRemoved(id);
  services.stores.notices.getState().noticePosted(`Removed ${id}`, {
    action: entry ? { label: 'Undo', run: () => void unwrap(services.bridge.call('servers.add', { id, config: entry })).then((server) => services.stores.servers.getState().serverSaved(server)) } : undefined,
  });
}

export async function testServer({ bridge, stores }: Services, id: string): Promise<void> {
  stores.servers.getState().testStarted(id);
  const r = await bridge.call('servers.test', { id });
  stores.servers
    .getState()
    .testFinished(id, r.ok ? r.value : { ok: false, stage: 'hub', message: r.message, durationMs: 0 });
  // The test's own requests are calls: the server's numbers move with it.
  await loadStats({ bridge, stores });
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
    case 'servers.status': {
      const { id } = event.payload;
      const before = stores.servers.getState().byId[id]?.status;
      stores.servers.getState().serverStatusReceived(event.payload);
      const after = stores.servers.getState().byId[id]?.status;
      // A server that fails on its own is worth interrupting for; the list shows the detail. Not
      // when the person is on its page already (the page says it), nor for a status older than
      // the one shown (the store kept the newer).
      const here = parseRoute(window.location.hash);
      const onItsPage = here.screen === 'servers' && here.serverId === id && here.mode !== 'edit';
      if (after === event.payload && after.state === 'error' && before !== undefined && before.state !== 'error' && !onItsPage) {
        const why = after.lastError?.message.split('\n')[0] ?? 'it stopped answering';
        stores.notices.getState().noticePosted(`Server ${id} failed: ${why}`, { tone: 'error', href: `#/servers/${encodeURIComponent(id)}` });
      }
      return;
    }
    case 'playground.serverMessage': {
      stores.playground.getState().serverMessageReceived(event.payload);
      const method = event.payload.message.method;
      const list = method === 'notifications/tools/list_changed' ? 'tools' : method === 'notifications/prompts/list_changed' ? 'prompts' : method === 'notifications/resources/list_changed' ? 'resources' : undefined;
      if (list) {
        const server = Object.entries(stores.playground.getState().byServer).find(([, p]) => p.opened?.session === event.payload.session)?.[0];
        if (server) void refreshCatalog(services, server, list);
      }
      return;
    }
    case 'playground.closed':
      stores.playground.getState().playgroundClosed(event.payload.session, event.payload.reason);
      return;
    case 'config.changed': {
      stores.app.getState().configChanged(event.payload.problems);
      void loadServers(services);
      void loadSecrets(services);
      // The telemetry block may have changed by hand: the inspector's trace links follow it.
      void loadTelemetry(services);
      // An install, an update or a hand edit changes what is outdated (once the chips were asked for).
      if (stores.catalog.getState().outdated !== undefined) void loadOutdated(services);
      return;
    }
    case 'catalog.changed':
      stores.catalog.getState().registriesLoaded(event.payload.registries);
      if (stores.catalog.getState().outdated !== undefined) void loadOutdated(services);
      return;
    case 'secrets.changed':
      stores.secrets.getState().secretsChanged(event.payload.names);
      void loadSecrets(services);
      return;
    case 'secrets.found': {
      // A secret check found a secret in a server's traffic (docs/secret-checks.md): names and places only.
      const f = event.payload;
      const what = f.findings.map((x) => `${x.rule === 'stored-secret' ? `secret ${x.label}` : x.label} at ${x.where}${x.encoding === 'plain' ? '' : ` (${x.encoding})`}`).join('; ');
      const done = f.action === 'warned' ? 'passed it on (secret check: warn)' : f.action === 'masked' ? 'masked it' : 'blocked it';
      stores.notices.getState().noticePosted(`Server ${f.server}: ${f.method}${f.target ? ` ${f.target}` : ''} ${f.direction === 'request' ? 'request' : 'answer'} carried ${what} — Patchbay ${done}`, {
        tone: f.action === 'warned' ? 'error' : 'info',
        href: `#/servers/${encodeURIComponent(f.server)}`,
      });
      return;
    }
    case 'settings.tokenRotated':
      stores.app.getState().tokenRotated(event.payload.rotatedAt);
      return;
    case 'settings.clientTokensChanged':
      // Only once the list was shown: nobody needs it loaded before.
      if (stores.app.getState().clientTokens !== undefined) void loadClientTokens(services);
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
