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
};

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
  /** Keep one child started ahead so a new session need not wait for one to boot (default true). */
  warmSpare: z.boolean().optional(),
  ...common,
});

export const remoteServerSchema = z.looseObject({
  /** Omitted: Streamable HTTP, falling back to legacy HTTP+SSE. `sse` pins the legacy transport. */
  type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
  url: z.string().url('url must be an absolute URL'),
  headers: stringMap.optional(),
  ...common,
});

export const serverConfigSchema = z.union([stdioServerSchema, remoteServerSchema]);

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
});

export const patchbayConfigSchema = z.looseObject({
  mcpServers: z.record(z.string().regex(SERVER_ID_PATTERN, 'server ids use letters, digits, ".", "_" and "-" (max 64)'), serverConfigSchema).default({}),
  hub: hubSettingsSchema.optional(),
});

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerSchema>;
export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type HubSettings = z.infer<typeof hubSettingsSchema>;
export type PatchbayConfig = z.infer<typeof patchbayConfigSchema>;

export function isStdioServer(server: ServerConfig): server is StdioServerConfig {
  return 'command' in server && typeof server.command === 'string';
}

export const DEFAULT_HUB_PORT = 39517;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
// Ten minutes: a session with no stream open and no traffic that long holds a child for nothing;
// a client that comes back later gets 404 and re-initializes, as the spec prescribes.
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 1000;
