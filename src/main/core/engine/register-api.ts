/**
 * The one place every API domain is registered (src/shared/api/*-contract.ts): hub, servers,
 * secrets, settings, inspector, OAuth, clients, playground, profiles, telemetry, audit, catalog. Each domain's
 * handlers are built in its own folder (a factory returning `Handlers<contract>`); only this file
 * calls `api.register`. The bridges (HTTP `/api`, Electron IPC) then serve whatever is registered
 * here.
 */
import { auditContract } from '../../../shared/api/audit-contract.js';
import { catalogContract } from '../../../shared/api/catalog-contract.js';
import { clientsContract } from '../../../shared/api/clients-contract.js';
import { hubContract, type HubStatus, type ServerSummary } from '../../../shared/api/hub-contract.js';
import { inspectorContract } from '../../../shared/api/inspector-contract.js';
import { oauthContract } from '../../../shared/api/oauth-contract.js';
import { playgroundContract } from '../../../shared/api/playground-contract.js';
import { profilesContract } from '../../../shared/api/profiles-contract.js';
import { secretsContract } from '../../../shared/api/secrets-contract.js';
import { serversContract } from '../../../shared/api/servers-contract.js';
import { settingsContract } from '../../../shared/api/settings-contract.js';
import { telemetryContract } from '../../../shared/api/telemetry-contract.js';
import type { ApiRegistry } from '../api/api-registry.js';
import { lazyHandlers } from '../api/lazy-handlers.js';
import { auditHandlers, type AuditApiDeps } from '../audit/audit-api.js';
import { catalogHandlers, type CatalogApiDeps } from '../catalog/catalog-api.js';
import type { ClientsRuntimeOptions } from '../clients/clients-runtime.js';
import type { ConfigStore } from '../config/config-store.js';
import type { Hub } from '../hub/hub-server.js';
import { inspectorHandlers } from '../inspector/inspector-api.js';
import type { Inspector } from '../inspector/inspector.js';
import { oauthHandlers } from '../oauth/oauth-api.js';
import type { OAuthService } from '../oauth/oauth-service.js';
import { playgroundApi } from '../playground/playground-api.js';
import type { PlaygroundDeps } from '../playground/playground-service.js';
import { profilesHandlers, type ProfilesDeps } from '../profiles/profiles-api.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ServerStatusTracker } from '../servers/server-status.js';
import { testServer } from '../servers/server-test.js';
import { serversHandlers } from '../servers/servers-api.js';
import { secretsHandlers } from './secrets-api.js';
import { settingsHandlers, type SettingsDeps } from './settings-api.js';
import { telemetryHandlers, type TelemetrySettingsDeps } from './telemetry-settings-api.js';

export interface ApiDomains {
  hub: { status(): Promise<HubStatus> | HubStatus; servers(): ServerSummary[] };
  servers: { config: ConfigStore; baseUrl: string; status: ServerStatusTracker; token(): string | undefined };
  secrets: { secrets: SecretStore; config: ConfigStore };
  settings: Omit<SettingsDeps, 'api'>;
  inspector: { inspector: Inspector; hub: Hub; hubUrl: string; version: string };
  oauth: OAuthService;
  /** What the clients runtime is made of; it is created, with its modules loaded, on the first clients call. */
  clients: ClientsRuntimeOptions;
  playground: Pick<PlaygroundDeps, 'openSession' | 'captureIdOf' | 'version'>;
  profiles: ProfilesDeps;
  telemetry: TelemetrySettingsDeps;
  /** The running hub's audit trail (docs/audit.md). */
  audit: AuditApiDeps;
  catalog: Omit<CatalogApiDeps, 'api'>;
}

export function registerApi(api: ApiRegistry, domains: ApiDomains): void {
  api.register(hubContract, { 'hub.status': domains.hub.status, 'servers.list': domains.hub.servers });
  const { config, baseUrl, status, token } = domains.servers;
  api.register(serversContract, serversHandlers({ config, baseUrl, status, test: (id) => testServer(id, { baseUrl, token }) }));
  api.register(secretsContract, secretsHandlers({ ...domains.secrets, api }));
  api.register(settingsContract, settingsHandlers({ ...domains.settings, api }));
  api.register(inspectorContract, inspectorHandlers(domains.inspector));
  api.register(oauthContract, oauthHandlers(domains.oauth));
  api.register(
    clientsContract,
    lazyHandlers(clientsContract, async () => {
      const [{ clientsHandlers }, { createClientsRuntime }] = await Promise.all([import('../clients/clients-api.js'), import('../clients/clients-runtime.js')]);
      return clientsHandlers(api, createClientsRuntime(domains.clients));
    }),
  );
  api.register(playgroundContract, playgroundApi(api, domains.playground));
  api.register(profilesContract, profilesHandlers(domains.profiles, api));
  api.register(telemetryContract, telemetryHandlers(domains.telemetry));
  api.register(auditContract, auditHandlers(domains.audit));
  api.register(catalogContract, catalogHandlers({ ...domains.catalog, api }));
}
