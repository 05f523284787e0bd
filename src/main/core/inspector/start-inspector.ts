/**
 * The inspector as the engine wires it: open it (history, cursor), keep its redactor's secrets
 * current (the hub token, every secret-store value, the values each server's config marks
 * secret), and hand the engine what it mounts: the hub's observer, the live route.
 */
import type { PatchbayConfig, ServerConfig } from '../../../shared/config-schema.js';
import type { SessionObserver } from '../hub/observer.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { addLogScrubber, type Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { Inspector } from './inspector.js';
import { inspectorLiveRoute } from './live-route.js';
import { configuredSecretValues, type SecretValue } from './redactor.js';
import { inspectorLimits } from './settings.js';

export interface InspectorStartOptions {
  dataDir: string;
  config: PatchbayConfig;
  secrets: SecretStore;
  /** The hub token (undefined with auth off). */
  token: string | undefined;
  logger: Logger;
  /** false turns capture off whatever the config says (the capture-cost benchmark). */
  capture?: boolean;
  /** How often the secret store's values are re-read for redaction. */
  secretRefreshMs?: number;
}

export interface InspectorWiring {
  inspector: Inspector;
  /** Observes the hub's sessions (hub/observer.ts); undefined when capture is off. */
  observer: SessionObserver | undefined;
  /** `/api/inspector/live`: mount before the generic `/api` route. */
  route: HttpRoute;
  /** Wraps a server's secret resolution: its secret values are known before its process starts. */
  learnServer<T extends ServerConfig>(serverId: string, configured: ServerConfig, resolved: T): T;
  configChanged(config: PatchbayConfig): void;
  close(): Promise<void>;
}

export async function startInspector(options: InspectorStartOptions): Promise<InspectorWiring> {
  const overrides = options.capture === false ? { enabled: false } : {};
  const inspector = await Inspector.open({ dataDir: options.dataDir, limits: inspectorLimits(options.config.inspector, overrides), logger: options.logger });
  const { redactor } = inspector;
  if (options.token !== undefined) redactor.setSource('token', [{ label: 'hub-token', value: options.token }]);

  const configValues = (config: PatchbayConfig): SecretValue[] =>
    Object.entries(config.mcpServers).flatMap(([id, server]) => configuredSecretValues(id, server, server, redactor));
  const applyConfig = (config: PatchbayConfig): void => {
    redactor.setSecretNames(config.inspector?.secretNames ?? []);
    redactor.setSource('config', configValues(config));
  };
  applyConfig(options.config);
  // Logs get the same redaction: a server's stderr (logged too) may print its own credentials.
  const unscrub = addLogScrubber((text) => redactor.redact(text));

  // The store may change under a running engine (`patchbay secrets set`): re-read it now and then.
  const refreshStore = async (): Promise<void> => {
    const values: SecretValue[] = [];
    for (const name of await options.secrets.list()) {
      const value = await options.secrets.get(name);
      if (value !== undefined) values.push({ label: name, value });
    }
    redactor.setSource('store', values);
  };
  await refreshStore().catch((err: Error) => options.logger.warn(`inspector: could not read the secret store for redaction: ${err.message}`));
  const timer = setInterval(() => void refreshStore().catch(() => {}), options.secretRefreshMs ?? 10_000);
  timer.unref();

  return {
    inspector,
    observer: inspector.enabled ? inspector : undefined,
    route: inspectorLiveRoute(inspector),
    learnServer: (serverId, configured, resolved) => {
      redactor.setSource(`server:${serverId}`, configuredSecretValues(serverId, configured, resolved, redactor));
      return resolved;
    },
    configChanged: applyConfig,
    close: async () => {
      clearInterval(timer);
      unscrub();
      await inspector.close();
    },
  };
}
