/**
 * Engine side of the telemetry contract: the `telemetry` block of config.json (read as stored,
 * changed through the config store's atomic update, which validates it with the shared schema and
 * makes the engine re-read it), the settings in effect with their sources (telemetry-effective.ts),
 * and a trace opened in the configured viewer.
 *
 * The seam for the exporter's live state: `state`, a function the engine passes once the telemetry
 * module runs (src/main/core/telemetry/). Without it the answer says whether the settings turn
 * telemetry on (`configured` / `off`) and leaves `active` out; with it, `running` / `stopped`, the
 * exporter's counts and last error, and whether changes apply without a restart (`followsConfig`).
 */
import { traceViewerLink, type telemetryContract, type TelemetryExporterState, type TelemetryView } from '../../../shared/api/telemetry-contract.js';
import type { TelemetrySettings } from '../../../shared/config-schema.js';
import { ApiError, type Handlers } from '../api/api-registry.js';
import { ConfigError, type ConfigStore } from '../config/config-store.js';
import type { OpenUrl } from '../oauth/openers.js';
import { SECRET_NAME_PATTERN, type SecretStore } from '../secrets/secret-store.js';
import { effectiveTelemetry, type Environment } from './telemetry-effective.js';

/** What the telemetry module knows of the exporter; undefined when it was not started (telemetry off, or it failed to start). */
export type TelemetryStateProvider = () => TelemetryExporterState | undefined;

export interface TelemetrySettingsDeps {
  config: ConfigStore;
  secrets: SecretStore;
  configFile: string;
  /** The hub process's environment (default `process.env`): its OTEL_* variables win over config.json. */
  env?: Environment;
  /** The exporter's live state, from the telemetry module (see above). */
  state?: TelemetryStateProvider;
  /**
   * Opens a URL in the default browser: the shell's opener (the desktop app's records the URL as
   * its own, so its window guard lets it out). Absent headless, where the UI's link opens itself.
   */
  openUrl?: OpenUrl;
}

const SECRET_REF = /\$\{secret:([^}]*)\}/g;

export function telemetryHandlers(deps: TelemetrySettingsDeps): Handlers<typeof telemetryContract> {
  const block = (): TelemetrySettings => deps.config.get().telemetry ?? {};
  const read = async (): Promise<TelemetryView> => {
    const config = block();
    const effective = effectiveTelemetry(config, deps.env ?? process.env);
    const exporter = deps.state?.();
    const stored = new Set(await deps.secrets.list());
    const missingSecrets = [...new Set(secretRefs(config).filter((name) => !stored.has(name)))];
    // The exporter resolves every header reference when it starts, and stays off when one is missing.
    if (effective.on && missingSecrets.length > 0) {
      effective.on = false;
      effective.reason = `Off: the headers use stored keys that do not exist (${missingSecrets.join(', ')}), and telemetry does not start without them.`;
    }
    const view: TelemetryView = {
      config,
      effective,
      status: exporter?.active ? 'running' : !effective.on ? 'off' : deps.state ? 'stopped' : 'configured',
      missingSecrets,
      appliesLive: exporter?.followsConfig === true,
      configFile: deps.configFile,
    };
    // Without word from the exporter, whether it runs is unknown: say nothing rather than guess.
    if (deps.state) view.active = exporter?.active ?? false;
    if (exporter) view.exporter = exporter;
    return view;
  };
  return {
    'telemetry.settings': read,
    'telemetry.update': async (patch) => {
      for (const name of secretRefs(patch)) {
        if (!SECRET_NAME_PATTERN.test(name)) throw new ApiError('secret_ref_invalid', `\${secret:${name}} cannot name a stored key: names are letters, digits, "_", "-" and "." (at most 128).`);
      }
      const before = exporterPart(block());
      try {
        await deps.config.update((draft) => {
          const next: Record<string, unknown> = { ...(draft.telemetry ?? {}) };
          for (const [key, value] of Object.entries(patch)) {
            if (value === null) delete next[key];
            else if (value !== undefined) next[key] = value;
          }
          if (Object.keys(next).length > 0) draft.telemetry = next;
          else delete draft.telemetry;
        });
      } catch (err) {
        if (err instanceof ConfigError) throw new ApiError(err.code, err.message, err.problems);
        throw err;
      }
      const settings = await read();
      // The viewer URL is the UI's alone: it applies at once, whatever the exporter does.
      return { settings, restartRequired: !settings.appliesLive && exporterPart(block()) !== before };
    },
    'telemetry.openTrace': async ({ traceId }) => {
      const template = block().traceViewerUrl;
      if (template === undefined) throw new ApiError('no_trace_viewer', 'No trace viewer is set: add its URL in Settings → Telemetry (e.g. http://localhost:16686/trace/{traceId}).');
      const url = traceViewerLink(template, traceId);
      if (url === undefined) throw new ApiError('trace_viewer_invalid', 'The trace viewer URL in config.json is not an http(s) URL with {traceId} in it: fix it in Settings → Telemetry.');
      if (!deps.openUrl) throw new ApiError('not_supported', 'This hub does not open a browser itself: open the link instead.');
      // The opener's context names a server for sign-in pages; a trace belongs to none.
      await deps.openUrl(url, { serverId: '' });
      return { url };
    },
  };
}

/** The block without what only the UI reads, to tell whether a change concerns the exporter. */
function exporterPart(config: TelemetrySettings): string {
  const { traceViewerUrl: _ui, ...rest } = config;
  return JSON.stringify(rest);
}

/** Names referenced as `${secret:NAME}` in header values. */
function secretRefs(config: { headers?: Record<string, string> | null | undefined }): string[] {
  return Object.values(config.headers ?? {}).flatMap((value) => [...value.matchAll(SECRET_REF)].map((m) => m[1]!));
}
