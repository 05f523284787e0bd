/**
 * The shape of Patchbay's `config.json`. It accepts the `mcpServers` object MCP clients already
 * use, so a snippet from any server's README pastes in. Objects are "loose": keys we do not know
 * are kept, so a round trip through Patchbay never drops what a user or another tool wrote.
 */
import { z } from 'zod';

/** Server ids appear in URLs (`/mcp/<id>`) and in client configs, so keep them URL- and shell-safe. */
export const SERVER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const stringMap = z.record(z.string(), z.string());

const common = {
  /** Disabled servers are kept in the config but not served. */
  disabled: z.boolean().optional(),
  /** Per-request timeout upstream, in milliseconds; progress notifications reset it. */
  requestTimeoutMs: z.number().int().positive().max(86_400_000).optional(),
  /**
   * How long the server may take to answer `initialize` — its start-up (default 60 s; a first
   * `npx -y` download may need more). Past it the client gets an error with the server's stderr.
   */
  startupTimeoutMs: z.number().int().positive().max(86_400_000).optional(),
  /**
   * The protocol era the server speaks: `auto` (default) finds out (stdio: a `server/discover`
   * probe; HTTP: a modern request), `legacy` (2025 and older, `initialize`) or `modern`
   * (2026-07-28 on) skip the probe, and a revision such as `"2025-06-18"` pins that one.
   */
  protocol: z.union([z.enum(['auto', 'legacy', 'modern']), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a protocol revision looks like 2025-11-25')]).optional(),
  /**
   * Secret checks on this server's tool calls (docs/secret-checks.md): `warn` (default) reports a
   * secret found in arguments or answers, `mask` replaces it, `block` refuses the message, `off`.
   */
  secretCheck: z.enum(['off', 'warn', 'mask', 'block']).optional(),
  /** Where an entry installed from a registry came from (docs/catalog.md): what `outdated` and `update` compare. */
  catalog: z
    .looseObject({
      registry: z.string().url('catalog.registry must be the registry\'s URL'),
      /** The server.json `name`. */
      name: z.string().min(1),
      /** The version installed (pinned in the command or URL too). */
      version: z.string().min(1),
      /** Which way of running it was chosen: `package:<i>` or `remote:<i>`. */
      option: z.string().optional(),
    })
    .optional(),
};

const sandboxPathSchema = z.string().refine((p) => p.startsWith('/') || p === '~' || p.startsWith('~/'), 'a sandbox path must be absolute or start with ~/');

/** A host a sandboxed server may reach through the hub's proxy: `name`, `*.suffix`, either with `:port`. */
const sandboxHostSchema = z
  .string()
  .regex(/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*(:[0-9]{1,5})?$/i, 'a sandbox host is a name, or *.suffix, optionally with :port');

/**
 * Run the server in a sandbox (docs/sandbox.md): `true` for the default policy, or an object that
 * adds readable and writable paths, sets the network (`none`, `all`, or a list of hosts reached
 * through the hub's proxy) and whether it may start subprocesses (default true).
 */
export const sandboxSchema = z.union([
  z.boolean(),
  z.looseObject({
    read: z.array(sandboxPathSchema).optional(),
    write: z.array(sandboxPathSchema).optional(),
    network: z.union([z.enum(['none', 'all']), z.array(sandboxHostSchema).min(1, 'a host list names at least one host (or use "none")')]).optional(),
    subprocesses: z.boolean().optional(),
  }),
]);
export type SandboxSetting = z.infer<typeof sandboxSchema>;

export const stdioServerSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'command must not be empty'),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  /** One child shared by every session (ids are rewritten so they never collide). */
  shared: z.boolean().optional(),
  /** A fresh child per request; GET and DELETE answer 405. */
  stateless: z.boolean().optional(),
  /**
   * Children started ahead so a new session need not wait for one to boot: true (default) keeps
   * a pool sized to demand, up to 4; a number caps it there; false or 0 keeps none.
   */
  warmSpare: z.union([z.boolean(), z.number().int().min(0).max(64)]).optional(),
  /** Patchbay's own demo server, added on the first run (the UI marks it and removes it in one click). */
  demo: z.boolean().optional(),
  sandbox: sandboxSchema.optional(),
  ...common,
});

/** OAuth client settings of a remote server (docs/remote-and-oauth.md). */
export const remoteOAuthSchema = z.looseObject({
  /** A client registered ahead with the authorization server (used before CIMD and DCR). */
  clientId: z.string().min(1).optional(),
  /** Its secret, normally a `${secret:NAME}` reference. */
  clientSecret: z.string().min(1).optional(),
  /** An https URL serving Patchbay's Client ID Metadata Document. */
  clientMetadataUrl: z.string().url('clientMetadataUrl must be an absolute https URL').optional(),
  /** Scope to ask for when neither the server's challenge nor its metadata names one. */
  scope: z.string().optional(),
  /** false: leave out the RFC 8707 `resource` parameter (for identity providers that reject it). */
  resource: z.boolean().optional(),
});

export const remoteServerSchema = z.looseObject({
  /** Omitted: Streamable HTTP, falling back to legacy HTTP+SSE. `sse` pins the legacy transport. */
  type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().url('url must be an absolute URL'),
  headers: stringMap.optional(),
  /** Pins the transport (`http` = `streamable-http`); `auto` tries Streamable HTTP, then HTTP+SSE (P32). */
  transport: z.enum(['auto', 'streamable-http', 'http', 'sse']).optional(),
  /** OAuth client settings; false turns OAuth off (a 401 is then reported, not signed in to). */
  oauth: z.union([z.literal(false), remoteOAuthSchema]).optional(),
  ...common,
});

export const serverConfigSchema = z.union([stdioServerSchema, remoteServerSchema]);

/** A Host header value: a DNS name or IPv4 address, or a bracketed IPv6 one, and an optional port. */
const HOST_HEADER_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export const hubSettingsSchema = z.looseObject({
  port: z.number().int().min(0).max(65535).optional(),
  /** Extra browser origins allowed to call the hub (the UI's own origins always are). */
  allowedOrigins: z.array(z.string()).optional(),
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: z.number().int().min(1024).max(64 * 1024 * 1024).optional(),
  /** A session with no traffic for this long is closed, in milliseconds. */
  sessionIdleTimeoutMs: z.number().int().positive().optional(),
  /** Most concurrent downstream sessions. */
  maxSessions: z.number().int().positive().optional(),
  /**
   * Host headers accepted besides the hub's own loopback names (`mcp.example.com`,
   * `lb.internal:8080`): the public names a load balancer in front passes on (docs/deploy.md).
   * Matched exactly, host and port, case-insensitively: a name without a port matches only a
   * Host header without one (what clients send to the default port of https or http).
   */
  allowedHosts: z.array(z.string().regex(HOST_HEADER_PATTERN, 'a host name or address, optionally with :port (no scheme, no path)')).optional(),
});

/**
 * A replica's id (`patchbay serve --replica-id`, `PATCHBAY_REPLICA_ID`): put before the random
 * part of the session ids it mints (`<id>.<random>`), so a load balancer can send a 2025 session's
 * requests to the replica that holds it. Letters, digits, `_` and `-` only: no `.` (the separator).
 */
export const REPLICA_ID_PATTERN = /^[A-Za-z0-9_-]{1,63}$/;

/** The inspector (capture of every session's messages); defaults in src/main/core/inspector/settings.ts. */
export const inspectorSettingsSchema = z.looseObject({
  /** Capture messages at all (default true). */
  enabled: z.boolean().optional(),
  /** Events kept in memory per session and in all (oldest dropped first). */
  maxEventsPerSession: z.number().int().min(100).max(1_000_000).optional(),
  maxEvents: z.number().int().min(1000).max(10_000_000).optional(),
  /** Message text kept in memory in all, in bytes. */
  maxMemoryBytes: z.number().int().min(1024 * 1024).optional(),
  /** A message larger than this is kept as a truncated prefix. */
  maxMessageBytes: z.number().int().min(1024).optional(),
  /** Write history to <data dir>/inspector/*.jsonl (default true). */
  history: z.boolean().optional(),
  historyFileBytes: z.number().int().min(64 * 1024).optional(),
  historyMaxBytes: z.number().int().min(1024 * 1024).optional(),
  historyMaxAgeDays: z.number().positive().optional(),
  /** Env and header names whose values are secrets (besides names like *TOKEN*, *KEY*, Authorization). */
  secretNames: z.array(z.string()).optional(),
});

/**
 * Profile names appear in URLs (`/mcp/@<name>`), CLI arguments and client configs: the same rule
 * as server ids. `default` is the profile `/mcp` serves (built in: every enabled server).
 */
export const PROFILE_NAME_PATTERN = SERVER_ID_PATTERN;
export const DEFAULT_PROFILE = 'default';
/** In a profile's `servers`, stands for every enabled server not listed by name. */
export const ALL_SERVERS = '*';

/** A glob over tool or prompt names, or resource URIs: `*` any run of characters, `?` one. */
const globSchema = z.string().min(1, 'a pattern must not be empty').max(1024);

/**
 * Which tools (prompts, resources) of a member a profile exposes: `true` all (the default),
 * `false` none, a list of globs (only those), or `{allow, deny}` (deny wins).
 */
export const itemRuleSchema = z.union([
  z.boolean(),
  z.array(globSchema),
  z.looseObject({ allow: z.array(globSchema).optional(), deny: z.array(globSchema).optional() }),
]);

export const profileMemberSchema = z.looseObject({
  tools: itemRuleSchema.optional(),
  prompts: itemRuleSchema.optional(),
  resources: itemRuleSchema.optional(),
  /** This member's names qualified with its id or not, over the profile's `prefix`. */
  prefix: z.boolean().optional(),
});

const memberKeySchema = z.string().refine((k) => k === ALL_SERVERS || SERVER_ID_PATTERN.test(k), 'a server id, or "*" for every enabled server');

/** Held back from the aggregated list when changed, until approved: `remote` servers only (default), `always`, `never`. */
export const holdChangedToolsSchema = z.enum(['remote', 'always', 'never']);

export const profileSchema = z.looseObject({
  description: z.string().max(500).optional(),
  /** Members: a list of server ids (`"*"` = every enabled server), or id → what it exposes. Omitted: `["*"]`. */
  servers: z.union([z.array(memberKeySchema), z.record(memberKeySchema, profileMemberSchema)]).optional(),
  /**
   * Qualify tool and prompt names with the server id (default true). Off, names are the servers'
   * own; two members' tools of the same name then both take a suffix (docs/profiles.md).
   */
  prefix: z.boolean().optional(),
  holdChangedTools: holdChangedToolsSchema.optional(),
  /**
   * On-demand tools: list only `pinned` tools (exposed names or globs) and three meta-tools that
   * find, describe and call the rest. `true` for every client, or per client id (`clients`:
   * `{"cursor": true, "claude-code": false}`, matched against the client token a session opened with).
   */
  onDemand: z
    .union([
      z.boolean(),
      z.looseObject({
        enabled: z.boolean().optional(),
        pinned: z.array(globSchema).optional(),
        clients: z.record(z.string(), z.boolean()).optional(),
      }),
    ])
    .optional(),
});

/**
 * OpenTelemetry export of traces and metrics (docs/observability.md). The standard OTEL_*
 * environment variables configure the same; each field here names its variable. Telemetry is on
 * when an endpoint is given (here or in the environment) and not disabled.
 */
export const telemetrySettingsSchema = z.looseObject({
  /** `false` turns telemetry off whatever the environment says (OTEL_SDK_DISABLED). */
  enabled: z.boolean().optional(),
  /** The OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT), e.g. `http://localhost:4318`. */
  endpoint: z.string().url().optional(),
  /** Per-signal endpoints (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, …_METRICS_ENDPOINT). */
  tracesEndpoint: z.string().url().optional(),
  metricsEndpoint: z.string().url().optional(),
  /** OTEL_EXPORTER_OTLP_PROTOCOL (default `http/protobuf`). */
  protocol: z.enum(['http/protobuf', 'http/json', 'grpc']).optional(),
  /** Sent with every export (OTEL_EXPORTER_OTLP_HEADERS); values may be `${secret:NAME}`. */
  headers: z.record(z.string(), z.string()).optional(),
  /** OTEL_SERVICE_NAME (default `patchbay`). */
  serviceName: z.string().min(1).optional(),
  /** OTEL_RESOURCE_ATTRIBUTES, as a map. */
  resourceAttributes: z.record(z.string(), z.string()).optional(),
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (default `parentbased_always_on`). */
  sampler: z.enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio']).optional(),
  samplerArg: z.number().min(0).max(1).optional(),
  /** Put tool arguments and results (redacted as in the inspector) on the spans. Off by default. */
  captureContent: z.boolean().optional(),
  /** A trace viewer's URL with `{traceId}` in it (e.g. `http://localhost:16686/trace/{traceId}`): the inspector links each exchange's trace. */
  traceViewerUrl: z.string().refine((v) => v.includes('{traceId}'), 'the URL must contain {traceId}').optional(),
});

export const patchbayConfigSchema = z.looseObject({
  mcpServers: z.record(z.string().regex(SERVER_ID_PATTERN, 'server ids use letters, digits, ".", "_" and "-" (max 64)'), serverConfigSchema).default({}),
  /** Named sets of servers served as one endpoint each, `/mcp/@<name>` (docs/profiles.md). */
  profiles: z.record(z.string().regex(PROFILE_NAME_PATTERN, 'profile names use letters, digits, ".", "_" and "-" (max 64)'), profileSchema).optional(),
  hub: hubSettingsSchema.optional(),
  inspector: inspectorSettingsSchema.optional(),
  telemetry: telemetrySettingsSchema.optional(),
  /**
   * MCP registries the catalog reads (docs/catalog.md), in order; omitted: the official MCP
   * Registry. `PATCHBAY_REGISTRY_URL` in the environment replaces the list with one URL.
   */
  registries: z
    .array(z.looseObject({ url: z.string().url('a registry url must be an absolute URL'), label: z.string().min(1).max(40).optional() }))
    .optional(),
  /** The audit trail of what clients did through the hub (docs/audit.md): on unless `enabled: false`. */
  audit: z
    .looseObject({
      enabled: z.boolean().optional(),
      /** Keep each call's params and answer in its line too (redacted as in the inspector). Off: never arguments or results. */
      content: z.boolean().optional(),
    })
    .optional(),
});

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerSchema>;
export type RemoteOAuthConfig = z.infer<typeof remoteOAuthSchema>;
export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type HubSettings = z.infer<typeof hubSettingsSchema>;
export type InspectorSettings = z.infer<typeof inspectorSettingsSchema>;
export type TelemetrySettings = z.infer<typeof telemetrySettingsSchema>;
export type PatchbayConfig = z.infer<typeof patchbayConfigSchema>;
export type ItemRule = z.infer<typeof itemRuleSchema>;
export type ProfileMemberConfig = z.infer<typeof profileMemberSchema>;
export type ProfileConfig = z.infer<typeof profileSchema>;
export type HoldChangedTools = z.infer<typeof holdChangedToolsSchema>;

export function isStdioServer(server: ServerConfig): server is StdioServerConfig {
  return 'command' in server && typeof server.command === 'string';
}

export const DEFAULT_HUB_PORT = 39517;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
// Ten minutes: a session with no stream open and no traffic that long holds a child for nothing;
// a client that comes back later gets 404 and re-initializes, as the spec prescribes.
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 1000;
