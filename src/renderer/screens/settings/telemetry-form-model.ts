/**
 * The telemetry form as data: built from the `telemetry` block as stored, checked field by field
 * (the engine checks again with the shared schema), and turned into a change for
 * `telemetry.update` that sets what the form edits and removes what it emptied — keys the form
 * does not edit (per-signal endpoints, resource attributes) are not sent, so they stay as they are.
 */
import type { TelemetryUpdate } from '../../../shared/api/telemetry-contract.js';
import type { TelemetrySettings } from '../../../shared/config-schema.js';
import { isHttpUrl, traceViewerLink } from '../../../shared/trace-viewer.js';
import { fromRows, toRows, type KeyValueRow } from '../servers/key-value-editor.js';

export type Protocol = NonNullable<TelemetrySettings['protocol']>;
export type Sampler = NonNullable<TelemetrySettings['sampler']>;

export const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const satisfies readonly Protocol[];
export const SAMPLERS = ['parentbased_always_on', 'parentbased_traceidratio', 'parentbased_always_off', 'always_on', 'traceidratio', 'always_off'] as const satisfies readonly Sampler[];

// Compile-time checks that the lists above name every value the schema allows.
type MissingProtocol = Exclude<Protocol, (typeof PROTOCOLS)[number]>;
type MissingSampler = Exclude<Sampler, (typeof SAMPLERS)[number]>;
export const TELEMETRY_LISTS_COMPLETE: [MissingProtocol | MissingSampler] extends [never] ? true : { missing: MissingProtocol | MissingSampler } = true;

export interface TelemetryFormModel {
  enabled: boolean;
  endpoint: string;
  /** '' = not set here (the environment's, else http/protobuf). */
  protocol: '' | Protocol;
  headers: KeyValueRow[];
  serviceName: string;
  sampler: '' | Sampler;
  samplerArg: string;
  captureContent: boolean;
  traceViewerUrl: string;
}

export type TelemetryField = keyof TelemetryFormModel;
export type TelemetryErrors = Partial<Record<TelemetryField | 'form', string>>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function modelFrom(config: TelemetrySettings): TelemetryFormModel {
  return {
    enabled: config.enabled !== false,
    endpoint: config.endpoint ?? '',
    protocol: config.protocol ?? '',
    headers: toRows(config.headers),
    serviceName: config.serviceName ?? '',
    sampler: config.sampler ?? '',
    samplerArg: config.samplerArg?.toString() ?? '',
    captureContent: config.captureContent === true,
    traceViewerUrl: config.traceViewerUrl ?? '',
  };
}

export function isRatioSampler(sampler: string): boolean {
  return sampler.endsWith('traceidratio');
}

export function validate(model: TelemetryFormModel): TelemetryErrors {
  const errors: TelemetryErrors = {};
  const endpoint = model.endpoint.trim();
  if (endpoint !== '' && !isHttpUrl(endpoint)) errors.endpoint = 'Enter an http(s) URL, e.g. http://localhost:4318 (gRPC: http://localhost:4317).';
  const badHeader = model.headers.find((r) => r.key.trim() !== '' && !HEADER_NAME.test(r.key.trim()));
  if (badHeader) errors.headers = `"${badHeader.key}" is not a header name: use letters, digits and - (no spaces).`;
  else if (model.headers.some((r) => /[\r\n]/.test(r.value))) errors.headers = 'A header value is one line.';
  if (model.samplerArg.trim() !== '') {
    const n = Number(model.samplerArg);
    if (!(Number.isFinite(n) && n >= 0 && n <= 1)) errors.samplerArg = 'Enter a ratio from 0 to 1 (0.1 keeps one trace in ten), or leave it empty for 1.';
  }
  const viewer = model.traceViewerUrl.trim();
  if (viewer !== '' && !viewer.includes('{traceId}')) errors.traceViewerUrl = 'The URL must contain {traceId}, e.g. http://localhost:16686/trace/{traceId}.';
  else if (viewer !== '' && traceViewerLink(viewer, '0') === undefined) errors.traceViewerUrl = 'Enter an http(s) URL with {traceId} in it, e.g. http://localhost:16686/trace/{traceId}.';
  return errors;
}

/** A switch: its value when it differs from the default, else nothing stored (an explicit value that says the default is kept). */
function toggle(value: boolean, stored: boolean | undefined, byDefault: boolean): boolean | null {
  if (value !== byDefault) return value;
  return stored === value ? value : null;
}

const text = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The change to send: every field the form edits, null where it is empty. */
export function toPatch(model: TelemetryFormModel, stored: TelemetrySettings): TelemetryUpdate {
  return {
    enabled: toggle(model.enabled, stored.enabled, true),
    endpoint: text(model.endpoint),
    protocol: model.protocol === '' ? null : model.protocol,
    headers: fromRows(model.headers) ?? null,
    serviceName: text(model.serviceName),
    sampler: model.sampler === '' ? null : model.sampler,
    samplerArg: model.samplerArg.trim() === '' ? null : Number(model.samplerArg),
    captureContent: toggle(model.captureContent, stored.captureContent, false),
    traceViewerUrl: text(model.traceViewerUrl),
  };
}

/** An engine refusal as field errors, when it names a field (`invalid_input`: "Invalid input for …: endpoint: …"). */
export function errorsFromMessage(message: string, details: unknown): TelemetryErrors {
  const out: TelemetryErrors = {};
  const problems = Array.isArray(details) ? details.filter((d): d is string => typeof d === 'string') : [];
  for (const problem of problems) {
    const [path, ...rest] = problem.split(': ');
    const field = path?.split('.')[0] as TelemetryField | undefined;
    if (field && field in modelFrom({}) && out[field] === undefined) out[field] = rest.join(': ');
  }
  if (Object.keys(out).length === 0) out.form = message;
  return out;
}
