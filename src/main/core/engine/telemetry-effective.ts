/**
 * The telemetry settings in effect, and where each comes from: the hub's environment (the
 * standard OTEL_* variables) wins over the `telemetry` block of config.json (issue 23), which wins
 * over the built-in default. The exporter resolves the same way (telemetry/telemetry-config.ts):
 * a change to the rule is made in both. Either place can turn telemetry off (OTEL_SDK_DISABLED=true,
 * or `"enabled": false`, which the schema says beats the environment). Maps (headers, resource
 * attributes) are merged key by key, the environment's value kept. Telemetry is on when an
 * endpoint is set and nothing turns it off.
 *
 * Pure (config and environment in, a description out) so the Settings panel can say why telemetry
 * is on or off without the exporter running. Header values are never in the answer: they may be
 * secrets, from the environment or resolved from `${secret:NAME}`.
 */
import type { TelemetrySettings } from '../../../shared/config-schema.js';
import type { EffectiveTelemetry, EffectiveValue } from '../../../shared/api/telemetry-contract.js';
import { isHttpUrl } from '../../../shared/trace-viewer.js';

/** The variable of each setting that has one (OpenTelemetry's SDK environment specification). */
export const TELEMETRY_ENV = {
  enabled: 'OTEL_SDK_DISABLED',
  endpoint: 'OTEL_EXPORTER_OTLP_ENDPOINT',
  tracesEndpoint: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  metricsEndpoint: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  headers: 'OTEL_EXPORTER_OTLP_HEADERS',
  serviceName: 'OTEL_SERVICE_NAME',
  resourceAttributes: 'OTEL_RESOURCE_ATTRIBUTES',
  sampler: 'OTEL_TRACES_SAMPLER',
  samplerArg: 'OTEL_TRACES_SAMPLER_ARG',
} as const;

export const TELEMETRY_DEFAULTS = { protocol: 'http/protobuf', serviceName: 'patchbay', sampler: 'parentbased_always_on', samplerArg: 1, captureContent: false } as const;

export type Environment = Readonly<Record<string, string | undefined>>;

type Value = EffectiveValue['value'];

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'];
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];
// Anywhere in the value: `Bearer ${secret:OTLP_TOKEN}` references a stored key too.
const SECRET_REF = /\$\{secret:([^}]*)\}/;
const HERE = "the hub's environment";

export function effectiveTelemetry(config: TelemetrySettings | undefined, env: Environment): EffectiveTelemetry {
  const block = config ?? {};
  const problems: string[] = [];
  // The specification: an empty variable is an unset one.
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const pick = (variable: string | undefined, fromEnv: Value, fromConfig: Value, fallback?: Value): EffectiveValue => {
    const named = variable === undefined ? {} : { variable };
    if (fromEnv !== undefined) return { value: fromEnv, source: 'environment', ...named, ...(fromConfig !== undefined ? { overrides: 'config' as const } : {}) };
    if (fromConfig !== undefined) return { value: fromConfig, source: 'config', ...named };
    return fallback === undefined ? { source: 'unset', ...named } : { value: fallback, source: 'default', ...named };
  };
  const envChoice = (name: string, allowed: string[]): string | undefined => {
    const value = read(name);
    if (value === undefined) return undefined;
    if (allowed.includes(value.toLowerCase())) return value.toLowerCase();
    problems.push(`${name}=${value} is not one of ${allowed.join(', ')}: ignored`);
    return undefined;
  };
  const envUrl = (name: string): string | undefined => {
    const value = read(name);
    if (value === undefined || isHttpUrl(value)) return value;
    problems.push(`${name} is not an http(s) URL: ignored`);
    return undefined;
  };

  const disabledByEnv = read(TELEMETRY_ENV.enabled)?.toLowerCase() === 'true';
  const disabledByConfig = block.enabled === false;
  // Off wins wherever it is said; config.json is named as overridden when it said on.
  const enabled: EffectiveValue = disabledByEnv
    ? { value: false, source: 'environment', variable: TELEMETRY_ENV.enabled, ...(block.enabled === true ? { overrides: 'config' as const } : {}) }
    : pick(TELEMETRY_ENV.enabled, undefined, block.enabled, true);
  const endpoint = pick(TELEMETRY_ENV.endpoint, envUrl(TELEMETRY_ENV.endpoint), block.endpoint);
  const tracesEndpoint = pick(TELEMETRY_ENV.tracesEndpoint, envUrl(TELEMETRY_ENV.tracesEndpoint), block.tracesEndpoint);
  const metricsEndpoint = pick(TELEMETRY_ENV.metricsEndpoint, envUrl(TELEMETRY_ENV.metricsEndpoint), block.metricsEndpoint);
  const protocol = pick(TELEMETRY_ENV.protocol, envChoice(TELEMETRY_ENV.protocol, PROTOCOLS), block.protocol, TELEMETRY_DEFAULTS.protocol);
  const envAttributes = parseKeyValueList(read(TELEMETRY_ENV.resourceAttributes), TELEMETRY_ENV.resourceAttributes, problems);
  const attributes = merge(envAttributes, block.resourceAttributes);
  const attributesFrom = pick(TELEMETRY_ENV.resourceAttributes, envAttributes && formatKeyValueList(envAttributes), block.resourceAttributes && formatKeyValueList(new Map(Object.entries(block.resourceAttributes))));
  // Merged, so the value has both places' keys; the source names the one whose keys win.
  const resourceAttributes = attributes.size === 0 ? attributesFrom : { ...attributesFrom, value: formatKeyValueList(attributes) };
  // OTEL_SERVICE_NAME beats `service.name` among the resource attributes, as the specification says.
  const serviceName = pick(TELEMETRY_ENV.serviceName, read(TELEMETRY_ENV.serviceName) ?? envAttributes?.get('service.name'), block.serviceName ?? block.resourceAttributes?.['service.name'], TELEMETRY_DEFAULTS.serviceName);
  const sampler = pick(TELEMETRY_ENV.sampler, envChoice(TELEMETRY_ENV.sampler, SAMPLERS), block.sampler, TELEMETRY_DEFAULTS.sampler);
  const ratioSampler = typeof sampler.value === 'string' && sampler.value.endsWith('traceidratio');
  const samplerArg = pick(TELEMETRY_ENV.samplerArg, envRatio(read(TELEMETRY_ENV.samplerArg), problems), block.samplerArg, ratioSampler ? TELEMETRY_DEFAULTS.samplerArg : undefined);
  const captureContent = pick(undefined, undefined, block.captureContent, TELEMETRY_DEFAULTS.captureContent);
  const traceViewerUrl = pick(undefined, undefined, block.traceViewerUrl);

  const envHeaders = parseKeyValueList(read(TELEMETRY_ENV.headers), TELEMETRY_ENV.headers, problems);
  const headers: EffectiveTelemetry['headers'] = [];
  for (const name of merge(envHeaders, block.headers).keys()) {
    const configValue = block.headers?.[name];
    if (envHeaders?.has(name)) headers.push({ name, source: 'environment', ...(configValue !== undefined ? { overrides: 'config' as const } : {}) });
    else {
      const secret = SECRET_REF.exec(configValue ?? '')?.[1];
      headers.push({ name, source: 'config', ...(secret !== undefined ? { secret } : {}) });
    }
  }

  const target = [
    { key: 'tracesEndpoint', value: tracesEndpoint },
    { key: 'endpoint', value: endpoint },
    { key: 'metricsEndpoint', value: metricsEndpoint },
  ].find((t) => t.value.value !== undefined);
  let on = false;
  let reason: string;
  if (enabled.value === false && enabled.source === 'environment') reason = `Off: ${TELEMETRY_ENV.enabled}=true in ${HERE} turns telemetry off.`;
  else if (disabledByConfig) reason = 'Off: "enabled" is false in the telemetry block of config.json.';
  else if (!target) reason = `Off: no OTLP endpoint is set (in config.json, or ${TELEMETRY_ENV.endpoint} in ${HERE}).`;
  else {
    on = true;
    const where = target.value.source === 'environment' ? `${target.value.variable} in ${HERE}` : `"${target.key}" in config.json`;
    reason = `On: exporting to ${redactUrl(String(target.value.value))} (from ${where}).`;
  }
  for (const value of [endpoint, tracesEndpoint, metricsEndpoint]) if (typeof value.value === 'string') value.value = redactUrl(value.value);
  return { on, reason, enabled, endpoint, tracesEndpoint, metricsEndpoint, protocol, serviceName, resourceAttributes, sampler, samplerArg, captureContent, traceViewerUrl, headers, problems };
}

/** Two maps as one, key by key: the environment's value where both have a key. */
function merge(fromEnv: Map<string, string> | undefined, fromConfig: Record<string, string> | undefined): Map<string, string> {
  return new Map([...Object.entries(fromConfig ?? {}), ...(fromEnv ?? [])]);
}


/** A URL with its password masked: an endpoint may carry credentials, and this answer is shown. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}

function envRatio(value: string | undefined, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (Number.isFinite(n) && n >= 0 && n <= 1) return n;
  problems.push(`${TELEMETRY_ENV.samplerArg}=${value} is not a number from 0 to 1: ignored`);
  return undefined;
}

/** `key=value,key2=value2` (percent-encoded), as OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES write maps. */
export function parseKeyValueList(text: string | undefined, variable: string, problems: string[]): Map<string, string> | undefined {
  if (text === undefined) return undefined;
  const out = new Map<string, string>();
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = eq > 0 ? safeDecode(part.slice(0, eq).trim()) : undefined;
    if (key === undefined || key === '') {
      // Said by position, not content: the entry may be a header value (a secret).
      problems.push(`${variable} has an entry that is not key=value: ignored`);
      continue;
    }
    const raw = part.slice(eq + 1).trim();
    out.set(key, safeDecode(raw) ?? raw);
  }
  return out;
}

function formatKeyValueList(map: Map<string, string>): string {
  return [...map].map(([k, v]) => `${k}=${v}`).join(',');
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
