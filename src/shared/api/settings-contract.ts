/**
 * Hub settings as the UI edits them (stored under `hub` in config.json), token rotation, the
 * per-client tokens (list, revoke), and the desktop-only "start at login". Port and origins take effect at the next start of the hub.
 */
import { z } from 'zod';
import { call, event } from './contract.js';

/** An exact browser origin: scheme://host[:port], nothing after. */
export const originSchema = z
  .string()
  .regex(/^https?:\/\/[^/\s?#]+$/, 'an origin is scheme://host[:port] with nothing after it, e.g. http://localhost:5173');

export const retentionSchema = z.object({
  historyMaxAgeDays: z.number().optional(),
  historyMaxBytes: z.number().int().optional(),
  maxEventsPerSession: z.number().int().optional(),
});

export const settingsSchema = z.object({
  /** Configured port (hub.port); undefined means the default. */
  port: z.number().int().optional(),
  defaultPort: z.number().int(),
  /** The port the running hub listens on. */
  activePort: z.number().int(),
  allowedOrigins: z.array(z.string()),
  /** Origins the running hub accepts (its own UI origins plus the allowed ones at start). */
  activeOrigins: z.array(z.string()),
  auth: z.boolean(),
  tokenFile: z.string(),
  configFile: z.string(),
  /** Desktop only; absent when this shell cannot start at login (headless). */
  startAtLogin: z.boolean().optional(),
  /** How much captured traffic the inspector keeps (`inspector` in config.json); unset = its defaults. */
  retention: retentionSchema,
});

/**
 * A per-client token (issue 17) as anyone may see it: metadata only. The token itself is written
 * into the client's config file at export and shown nowhere else.
 */
export const clientTokenSchema = z.object({
  id: z.string(),
  /** The client's id (`cursor`, `claude-code`, …). */
  client: z.string(),
  /** The client's name (`Cursor`): what the inspector shows as "via token". */
  label: z.string(),
  /** The config file the token was written into. */
  file: z.string(),
  created: z.string(),
  /** When the hub last accepted it (noted in memory, written about once a minute). */
  lastUsed: z.string().optional(),
  revoked: z.string().optional(),
});

export const settingsUpdateSchema = z.object({
  port: z.number().int().min(0).max(65535).nullable().optional(),
  allowedOrigins: z.array(originSchema).max(64).optional(),
  startAtLogin: z.boolean().optional(),
  /** null clears a value (back to the inspector's default). */
  retention: z
    .object({
      historyMaxAgeDays: z.number().positive().nullable().optional(),
      historyMaxBytes: z.number().int().positive().nullable().optional(),
      maxEventsPerSession: z.number().int().positive().nullable().optional(),
    })
    .optional(),
});

export const settingsContract = {
  'settings.get': call(z.object({}), settingsSchema, 'Hub settings: port, allowed origins, auth, token and config file'),
  'settings.update': call(
    settingsUpdateSchema,
    z.object({ settings: settingsSchema, restartRequired: z.array(z.string()) }),
    'Change hub settings; says which ones need a restart of the hub',
  ),
  'settings.rotateToken': call(
    z.object({}),
    z.object({
      tokenFile: z.string(),
      rotatedAt: z.string(),
      /** A one-time login path for the browser UI, whose session ended with the old token. */
      loginPath: z.string().optional(),
    }),
    'Replace the hub token; the old one is refused from now on',
  ),
  'settings.tokenRotated': event(z.object({ rotatedAt: z.string() }), 'The hub token was replaced; clients need the new one'),
  'settings.clientTokens': call(z.object({}), z.array(clientTokenSchema), 'The per-client tokens that exports wrote into clients (metadata only, newest first)'),
  'settings.revokeClientToken': call(
    z.object({ id: z.string().min(1).max(64) }),
    clientTokenSchema,
    'Revoke one client token: that client gets 401 until it is exported again; the others keep working',
  ),
  'settings.clientTokensChanged': event(z.object({ changedAt: z.string() }), 'A client token was minted or revoked (here or by another Patchbay process)'),
} as const;

export type Settings = z.infer<typeof settingsSchema>;
export type ClientToken = z.infer<typeof clientTokenSchema>;
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;
