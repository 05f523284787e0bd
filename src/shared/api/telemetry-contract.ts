/**
 * Telemetry (OpenTelemetry export, issue 23) as the UI shows and edits it: the `telemetry` block of
 * config.json as stored, the settings in effect with where each one comes from (the hub's
 * environment wins over config.json, as OTEL_* variables do everywhere), and — when the telemetry
 * module reports it — whether the exporter runs now.
 *
 * A domain of its own rather than more `settings.*` calls: it edits another block of config.json
 * (`telemetry`, not `hub`), its answers have a shape of their own (sources, exporter state), and
 * the exporter's events belong here when it has some.
 */
import { z } from 'zod';
import { isHttpUrl, traceViewerLink } from '../trace-viewer.js';
import { telemetrySettingsSchema } from '../config-schema.js';
import { call } from './contract.js';

/** Where an effective value comes from: the hub's environment, config.json, the built-in default, or nowhere. */
export const telemetrySourceSchema = z.enum(['environment', 'config', 'default', 'unset']);

export const effectiveValueSchema = z.object({
  /** The value in effect; absent when unset. Never a secret: header values are not reported. */
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  source: telemetrySourceSchema,
  /** The environment variable that sets it (set or not); absent for settings only config.json has. */
  variable: z.string().optional(),
  /** The other place sets it too, and loses: `config` — config.json's value is overridden by the environment. */
  overrides: z.enum(['environment', 'config']).optional(),
});

export const effectiveTelemetrySchema = z.object({
  /** Telemetry is on by these settings: an endpoint is set and nothing disables it. */
  on: z.boolean(),
  /** One sentence: why it is on or off, naming the variable or the config key that decides. */
  reason: z.string(),
  enabled: effectiveValueSchema,
  endpoint: effectiveValueSchema,
  tracesEndpoint: effectiveValueSchema,
  metricsEndpoint: effectiveValueSchema,
  protocol: effectiveValueSchema,
  serviceName: effectiveValueSchema,
  /** As OTEL_RESOURCE_ATTRIBUTES writes them: `key=value,…`. */
  resourceAttributes: effectiveValueSchema,
  sampler: effectiveValueSchema,
  samplerArg: effectiveValueSchema,
  captureContent: effectiveValueSchema,
  traceViewerUrl: effectiveValueSchema,
  /** Header names only (values may be secrets); `secret` names the stored key a config.json value references. */
  headers: z.array(z.object({ name: z.string(), source: z.enum(['environment', 'config']), secret: z.string().optional(), overrides: z.enum(['environment', 'config']).optional() })),
  /** Environment values that could not be used and were ignored (an unknown sampler, a URL that is not one). */
  problems: z.array(z.string()),
});

/**
 * What the telemetry module (src/main/core/telemetry/) says of the running exporter. Every field but
 * `active` is optional: it reports what it knows.
 */
export const telemetryExporterStateSchema = z.object({
  /** The exporter runs now: spans are built and sent. */
  active: z.boolean(),
  /** Why it does not run, when it does not (e.g. it failed to start). */
  reason: z.string().optional(),
  startedAt: z.string().optional(),
  /** The endpoint and protocol it runs with (fixed at its start). */
  endpoint: z.string().optional(),
  protocol: z.string().optional(),
  /** Given up since the hub started: spans the collector did not take or the queue had no room for, failed metric exports. */
  dropped: z.object({ spans: z.number().int().optional(), metricExports: z.number().int().optional() }).optional(),
  exported: z.object({ spans: z.number().int().optional(), metricExports: z.number().int().optional() }).optional(),
  lastError: z.object({ message: z.string(), at: z.string() }).optional(),
  /** The exporter follows changes of config.json without a restart of the hub. */
  followsConfig: z.boolean().optional(),
});

export const telemetryViewSchema = z.object({
  /** The `telemetry` block as stored in config.json (`{}` when there is none); `${secret:NAME}` stays a reference. */
  config: telemetrySettingsSchema,
  effective: effectiveTelemetrySchema,
  /**
   * With word from the exporter: `running`, or `stopped` (the settings turn telemetry on and it
   * does not run: it failed to start, or they changed since the hub started), or `off`. Without:
   * `configured` (the settings turn telemetry on) or `off`.
   */
  status: z.enum(['running', 'stopped', 'configured', 'off']),
  /** Whether the exporter runs now; absent when the hub cannot tell. */
  active: z.boolean().optional(),
  exporter: telemetryExporterStateSchema.optional(),
  /** Stored keys that header values reference and that do not exist (the export would fail). */
  missingSecrets: z.array(z.string()),
  /** Changes to the exporter's settings apply at once; false: after a restart of the hub. */
  appliesLive: z.boolean(),
  configFile: z.string(),
});

export { isHttpUrl, traceViewerLink };

const EXAMPLE_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const httpUrl = (example: string) => z.string().refine(isHttpUrl, `use an http(s) URL, e.g. ${example}`);
const shape = telemetrySettingsSchema.shape;
type Shape = typeof shape;
/** Every field of the shared schema, nullable: null removes the key from config.json. */
const nullableShape = Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.nullable()])) as { [K in keyof Shape]: z.ZodNullable<Shape[K]> };

/**
 * A change to the `telemetry` block: keys given are set, `null` removes a key, keys not given stay
 * as they are (so a hand edit of another key made meanwhile is kept). Each field is the shared
 * schema's; URLs are held to http(s) with clearer words, and header names to HTTP's token rules.
 * The config store validates the whole block again before it writes.
 */
export const telemetryUpdateSchema = z.strictObject({
  ...nullableShape,
  endpoint: httpUrl('http://localhost:4318').nullable().optional(),
  tracesEndpoint: httpUrl('http://localhost:4318/v1/traces').nullable().optional(),
  metricsEndpoint: httpUrl('http://localhost:4318/v1/metrics').nullable().optional(),
  headers: z
    .record(z.string(), z.string().regex(/^[^\r\n\0]*$/, 'a header value is one line'))
    .superRefine((headers, ctx) => {
      // Checked here rather than as the record's key schema, whose failure says only "Invalid key".
      for (const name of Object.keys(headers)) if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: "a header name is letters, digits and !#$%&'*+.^_`|~- only" });
    })
    .nullable()
    .optional(),
  traceViewerUrl: z
    .string()
    .refine((v) => v.includes('{traceId}'), 'the URL must contain {traceId}, e.g. http://localhost:16686/trace/{traceId}')
    .refine((v) => !v.includes('{traceId}') || traceViewerLink(v, EXAMPLE_TRACE_ID) !== undefined, 'use an http(s) URL with {traceId} in it, e.g. http://localhost:16686/trace/{traceId}')
    .nullable()
    .optional(),
});

export const telemetryContract = {
  'telemetry.settings': call(z.object({}), telemetryViewSchema, 'Telemetry: the config block as stored, the settings in effect and where each comes from, whether the exporter runs'),
  'telemetry.update': call(
    telemetryUpdateSchema,
    z.object({ settings: telemetryViewSchema, restartRequired: z.boolean() }),
    'Change the telemetry block of config.json (null removes a key); says whether the change needs a restart of the hub',
  ),
  'telemetry.openTrace': call(
    z.object({ traceId: z.string().regex(/^[0-9a-f]{32}$/, 'a trace id is 32 lower-case hex digits') }),
    z.object({ url: z.string() }),
    "Open a trace in the configured trace viewer, in the default browser (the desktop app's way out; a browser tab follows the link itself)",
  ),
} as const;

export type TelemetrySource = z.infer<typeof telemetrySourceSchema>;
export type EffectiveValue = z.infer<typeof effectiveValueSchema>;
export type EffectiveTelemetry = z.infer<typeof effectiveTelemetrySchema>;
export type TelemetryExporterState = z.infer<typeof telemetryExporterStateSchema>;
export type TelemetryView = z.infer<typeof telemetryViewSchema>;
export type TelemetryUpdate = z.input<typeof telemetryUpdateSchema>;
