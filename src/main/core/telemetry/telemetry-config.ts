/**
 * What telemetry is told to do: the standard OTEL_* environment variables over the `telemetry`
 * block of config.json — a variable that is set wins, the config fills the rest (issue 23; the
 * Settings panel's account, engine/telemetry-effective.ts, says the same), maps merged key by key
 * — with header values' `${secret:NAME}` resolved from the secret store. Either place turns
 * telemetry off (OTEL_SDK_DISABLED=true, `"enabled": false`). Read once, when telemetry starts
 * (a change takes a restart: docs/observability.md).
 *
 * The environment is read here for what must agree between Patchbay and the SDK (endpoints,
 * protocol, headers); what only the exporters use (timeouts, compression, certificates) they
 * read themselves, as the SDK documents.
 */
import type { TelemetrySettings } from '../../../shared/config-schema.js';
import { resolveSecretRefs } from '../config/secret-refs.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';

/** OTEL_EXPORTER_OTLP_PROTOCOL's values. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
/** OTEL_TRACES_SAMPLER's supported values. */
export type SamplerName = NonNullable<TelemetrySettings['sampler']>;

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** Everything telemetry needs, resolved. */
export interface TelemetryConfig {
  /** Where spans go; undefined: no traces (OTEL_TRACES_EXPORTER=none). */
  readonly tracesUrl: string | undefined;
  /** Where metrics go; undefined: no metrics (OTEL_METRICS_EXPORTER=none). */
  readonly metricsUrl: string | undefined;
  readonly protocol: OtlpProtocol;
  /** The config's headers (secrets resolved) and OTEL_EXPORTER_OTLP_HEADERS over them: never logged. */
  readonly headers: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME, else `service.name` of OTEL_RESOURCE_ATTRIBUTES, else the config's, else `patchbay`. */
  readonly serviceName: string;
  /** The config's resource attributes and OTEL_RESOURCE_ATTRIBUTES over them. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: SamplerName;
  /** The ratio of the `*traceidratio` samplers, 0…1. */
  readonly samplerArg: number;
  /** Tool arguments and results on spans (redacted as in the inspector). */
  readonly captureContent: boolean;
  /** How often metrics are exported (OTEL_METRIC_EXPORT_INTERVAL, default 60 s). */
  readonly metricIntervalMs: number;
  /** The longest a finished span waits before its batch is sent (OTEL_BSP_SCHEDULE_DELAY, default 5 s). */
  readonly spanDelayMs: number;
  /** Spans held while the collector does not take them; more are dropped and counted (OTEL_BSP_MAX_QUEUE_SIZE, 2048). */
  readonly maxQueuedSpans: number;
  /** Spans per export (OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512). */
  readonly batchSize: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value, trimmed; undefined when unset or empty. */
function envOf(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function positiveInt(env: Env, name: string, fallback: number, log: Logger): number {
  const text = envOf(env, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (Number.isInteger(n) && n > 0) return n;
  log.warn(`${name}=${JSON.stringify(text)} is not a positive integer; using ${fallback}`);
  return fallback;
}

/**
 * A signal's URL: its own endpoint as given (config, then env), else the base endpoint — with
 * `/v1/<signal>` appended over HTTP (the OTLP exporter spec), as is for gRPC.
 */
function signalUrl(own: string | undefined, base: string | undefined, signal: 'traces' | 'metrics', protocol: OtlpProtocol): string | undefined {
  if (own !== undefined) return own;
  if (base === undefined) return undefined;
  if (protocol === 'grpc') return base;
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

function protocolOf(settings: TelemetrySettings | undefined, env: Env, log: Logger): OtlpProtocol {
  const text = envOf(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (text !== undefined) {
    if ((PROTOCOLS as readonly string[]).includes(text.toLowerCase())) return text.toLowerCase() as OtlpProtocol;
    log.warn(`OTEL_EXPORTER_OTLP_PROTOCOL=${JSON.stringify(text)} is not one of ${PROTOCOLS.join(', ')}: ignored`);
  }
  return settings?.protocol ?? 'http/protobuf';
}

function samplerOf(settings: TelemetrySettings | undefined, env: Env, log: Logger): { sampler: SamplerName; samplerArg: number } {
  let sampler: SamplerName = settings?.sampler ?? 'parentbased_always_on';
  const named = envOf(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (named !== undefined) {
    if ((SAMPLERS as readonly string[]).includes(named)) sampler = named as SamplerName;
    else log.warn(`OTEL_TRACES_SAMPLER=${JSON.stringify(named)} is not supported (use ${SAMPLERS.join(', ')}): ignored`);
  }
  let samplerArg = settings?.samplerArg ?? 1;
  const argText = envOf(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (argText !== undefined) {
    const n = Number(argText);
    if (Number.isFinite(n) && n >= 0 && n <= 1) samplerArg = n;
    else log.warn(`OTEL_TRACES_SAMPLER_ARG=${JSON.stringify(argText)} is not a number from 0 to 1: ignored`);
  }
  return { sampler, samplerArg };
}

/** An endpoint variable, when it is an http(s) URL (else ignored, said once). */
function envUrl(env: Env, name: string, log: Logger): string | undefined {
  const value = envOf(env, name);
  if (value === undefined) return undefined;
  try {
    const { protocol } = new URL(value);
    if (protocol === 'http:' || protocol === 'https:') return value;
  } catch {
    // said below
  }
  log.warn(`${name} is not an http(s) URL: ignored`);
  return undefined;
}

/**
 * `key=value,key2=value2` with percent-encoded parts, as OTEL_EXPORTER_OTLP_HEADERS and
 * OTEL_RESOURCE_ATTRIBUTES write maps (an entry that is not `key=value` is skipped: it may hold a
 * secret, so it is never quoted).
 */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const decode = (t: string): string => {
      try {
        return decodeURIComponent(t.trim());
      } catch {
        return t.trim();
      }
    };
    const key = decode(part.slice(0, eq));
    if (key !== '') out[key] = decode(part.slice(eq + 1));
  }
  return out;
}

/**
 * The settings telemetry runs with. Throws (naming the field, never a value) when a header's
 * secret is missing: telemetry then stays off, and the engine says why.
 */
export async function resolveTelemetryConfig(settings: TelemetrySettings | undefined, env: Env, secrets: SecretStore, log: Logger): Promise<TelemetryConfig> {
  const protocol = protocolOf(settings, env, log);
  const base = envUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', log) ?? settings?.endpoint;
  const tracesOff = envOf(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() === 'none';
  const metricsOff = envOf(env, 'OTEL_METRICS_EXPORTER')?.toLowerCase() === 'none';
  const tracesUrl = tracesOff ? undefined : signalUrl(envUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', log) ?? settings?.tracesEndpoint, base, 'traces', protocol);
  const metricsUrl = metricsOff ? undefined : signalUrl(envUrl(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', log) ?? settings?.metricsEndpoint, base, 'metrics', protocol);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings?.headers ?? {})) headers[name] = await resolveSecretRefs(value, secrets, { field: `telemetry.headers.${name}` });
  // The environment's headers win key by key (the exporters would let ours win over theirs).
  Object.assign(headers, parseKeyValueList(envOf(env, 'OTEL_EXPORTER_OTLP_HEADERS')));
  const envAttributes = parseKeyValueList(envOf(env, 'OTEL_RESOURCE_ATTRIBUTES'));
  return {
    tracesUrl,
    metricsUrl,
    protocol,
    headers,
    serviceName: envOf(env, 'OTEL_SERVICE_NAME') ?? envAttributes['service.name'] ?? settings?.serviceName ?? settings?.resourceAttributes?.['service.name'] ?? 'patchbay',
    resourceAttributes: { ...settings?.resourceAttributes, ...envAttributes },
    ...samplerOf(settings, env, log),
    captureContent: settings?.captureContent === true,
    metricIntervalMs: positiveInt(env, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000, log),
    spanDelayMs: positiveInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 5_000, log),
    maxQueuedSpans: positiveInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, log),
    batchSize: positiveInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, log),
  };
}
