/**
 * The pipeline as the engine wires it: made from the config, its redactor's secrets kept current
 * (the hub token, every secret-store value, the values each server's config marks secret), and
 * the engine's log scrubbed with the same redaction.
 */
import type { PatchbayConfig, ServerConfig } from '../../../shared/config-schema.js';
import { addLogScrubber, type Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { configuredSecretValues, type SecretValue } from './redactor.js';
import { Traffic } from './traffic.js';
import { trafficLimits } from './traffic-limits.js';

export interface TrafficStartOptions {
  config: PatchbayConfig;
  secrets: SecretStore;
  /** The hub token (undefined with auth off). */
  token: string | undefined;
  logger: Logger;
  /** How often the secret store's values are re-read for redaction. */
  secretRefreshMs?: number;
}

export interface TrafficWiring {
  /** The hub's observer, and the exchange feed (`traffic.onExchange`). */
  traffic: Traffic;
  /** Wraps a server's secret resolution: its secret values are known before its process starts. */
  learnServer<T extends ServerConfig>(serverId: string, configured: ServerConfig, resolved: T): T;
  configChanged(config: PatchbayConfig): void;
  close(): Promise<void>;
}

export async function startTraffic(options: TrafficStartOptions): Promise<TrafficWiring> {
  const traffic = new Traffic(trafficLimits(options.config.inspector), options.logger);
  const { redactor } = traffic;
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
  await refreshStore().catch((err: Error) => options.logger.warn(`capture: could not read the secret store for redaction: ${err.message}`));
  const timer = setInterval(() => void refreshStore().catch(() => {}), options.secretRefreshMs ?? 10_000);
  timer.unref();

  return {
    traffic,
    learnServer: (serverId, configured, resolved) => {
      redactor.setSource(`server:${serverId}`, configuredSecretValues(serverId, configured, resolved, redactor));
      return resolved;
    },
    configChanged: applyConfig,
    close: async () => {
      clearInterval(timer);
      unscrub();
      traffic.close();
    },
  };
}
