/**
 * The engine's side of telemetry (docs/observability.md): whether it is on — the one rule the
 * Settings panel shows too (telemetry-effective.ts) — and, only then, the dynamic import that
 * starts it. With it off neither src/main/core/telemetry/ nor any @opentelemetry package is
 * loaded (test/telemetry/lazy-load.test.ts).
 */
import { isStdioServer, type ServerConfig, type TelemetrySettings } from '../../../shared/config-schema.js';
import type { TelemetryExporterState } from '../../../shared/api/telemetry-contract.js';
import type { Logger } from '../log/logger.js';
import type { Telemetry, TelemetryOptions } from '../telemetry/start-telemetry.js';
import { effectiveTelemetry } from './telemetry-effective.js';

export interface EngineTelemetry {
  /** Running telemetry, or undefined (off, or it could not start). */
  telemetry: Telemetry | undefined;
  /** The exporter's state for the Settings panel: running, failed to start (why), or not started. */
  state(): TelemetryExporterState | undefined;
}

/** A remote server's configured URL (its `server.address` on spans); undefined for a stdio server or a profile. */
export function remoteUrl(server: ServerConfig | undefined): string | undefined {
  return server === undefined || isStdioServer(server) ? undefined : server.url;
}

/** Starts telemetry when the settings and the environment turn it on; a setting that cannot work leaves it off, said in the log. */
export async function startEngineTelemetry(settings: TelemetrySettings | undefined, options: Omit<TelemetryOptions, 'settings'>, log: Logger): Promise<EngineTelemetry> {
  if (!effectiveTelemetry(settings, options.env).on) return { telemetry: undefined, state: () => undefined };
  try {
    const { startTelemetry } = await import('../telemetry/start-telemetry.js');
    const telemetry = await startTelemetry({ ...options, settings });
    return { telemetry, state: () => telemetry.state() };
  } catch (err) {
    const reason = (err as Error).message;
    log.error(`telemetry is off: ${reason}`);
    return { telemetry: undefined, state: () => ({ active: false, reason }) };
  }
}
