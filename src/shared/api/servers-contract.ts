/**
 * Servers as the UI manages them: the config entries (add, edit, remove, enable, import a pasted
 * `mcpServers` snippet), a connection test through the hub, and live status. Values may hold
 * `${secret:NAME}` references; secret values themselves never travel through this contract.
 */
import { z } from 'zod';
import { serverConfigSchema, SERVER_ID_PATTERN } from '../config-schema.js';
import { call, event } from './contract.js';

export const serverIdSchema = z.string().regex(SERVER_ID_PATTERN, 'use letters, digits, ".", "_" and "-" (max 64), starting with a letter or digit');

/** What the hub knows of a server at run time. */
export const serverStateSchema = z.enum(['disabled', 'idle', 'running', 'error']);

export const serverErrorSchema = z.object({
  message: z.string(),
  /** ISO time. */
  at: z.string(),
  /** Where it happened: starting the process, the MCP handshake, a listing, or the process dying later. */
  stage: z.enum(['start', 'initialize', 'list', 'exit', 'config']),
});

/** The protocol era a server speaks, as the hub knows it (2026-07-28 basic/versioning). */
/** One thing the hub knows of a server's eras: whether it speaks one, and how that was learned. */
export const eraFactSchema = z.object({
  speaks: z.boolean(),
  /** The config says so, a `server/discover` probe, or the server's answer to an `initialize`. */
  how: z.enum(['config', 'probe', 'initialize']),
});

/**
 * The protocol eras a server speaks, as far as the hub knows (PROTOCOL Q11): two facts learned
 * independently — speaks 2025 (`legacy`: initialize and sessions), speaks 2026-07-28 (`modern`) —
 * each absent until learned. `era` sums them up: `both`, or the one era it speaks.
 */
export const serverEraSchema = z.object({
  era: z.enum(['legacy', 'modern', 'both']),
  legacy: eraFactSchema.optional(),
  modern: eraFactSchema.optional(),
  /** The revisions the server says it supports, when it said. */
  versions: z.array(z.string()).optional(),
  /** The revision the config pins (`protocol: "2025-06-18"`). */
  pinned: z.string().optional(),
});

export const serverStatusSchema = z.object({
  id: z.string(),
  state: serverStateSchema,
  sessions: z.number().int(),
  children: z.number().int(),
  lastError: serverErrorSchema.optional(),
  /** ISO time the server last answered (a test, or a first message on a connection). */
  lastOkAt: z.string().optional(),
  /** Absent until the hub has found out (on the first connection, unless the config pins it). */
  era: serverEraSchema.optional(),
  /**
   * Orders a server's statuses: a larger rev is newer. Every status the engine hands out (events,
   * the overview, a saved server) is numbered, so a reader keeps the newest whichever way it came.
   */
  rev: z.number().optional(),
});

export const serverDetailSchema = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.enum(['stdio', 'remote']),
  /** The entry as stored in config.json (secret references, not values). */
  config: serverConfigSchema,
  status: serverStatusSchema,
});

export const toolInfoSchema = z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional() });
export const resourceInfoSchema = z.object({ uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional() });
export const promptInfoSchema = z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional() });

export const serverTestResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
    protocolVersion: z.string().optional(),
    tools: z.array(toolInfoSchema),
    resources: z.array(resourceInfoSchema),
    prompts: z.array(promptInfoSchema),
    durationMs: z.number(),
  }),
  z.object({
    ok: z.literal(false),
    /** The step that failed, so the UI can say where: the hub refused, the process, the handshake, a listing. */
    stage: z.enum(['hub', 'initialize', 'list']),
    message: z.string(),
    durationMs: z.number(),
  }),
]);

export const importProblemSchema = z.object({ id: z.string(), path: z.string(), message: z.string() });

export const importResultSchema = z.object({
  /** Entries that were (or, on a dry run, would be) added or replaced. */
  added: z.array(z.string()),
  replaced: z.array(z.string()),
  /** Entries left alone because one with that id exists and `overwrite` was not set. */
  skipped: z.array(z.string()),
  problems: z.array(importProblemSchema),
  dryRun: z.boolean(),
});

export const serversContract = {
  'servers.overview': call(z.object({}), z.array(serverDetailSchema), 'Every configured server with its config entry and live status'),
  'servers.add': call(z.object({ id: serverIdSchema, config: serverConfigSchema }), serverDetailSchema, 'Add a server entry to config.json'),
  'servers.update': call(
    z.object({ id: z.string(), config: serverConfigSchema, newId: serverIdSchema.optional() }),
    serverDetailSchema,
    'Replace a server entry (optionally renaming it); its sessions restart',
  ),
  'servers.remove': call(z.object({ id: z.string() }), z.object({ removed: z.boolean() }), 'Remove a server entry; its sessions end'),
  'servers.setEnabled': call(z.object({ id: z.string(), enabled: z.boolean() }), serverDetailSchema, 'Enable or disable a server (kept in config either way)'),
  'servers.import': call(
    z.object({ snippet: z.string().max(1_000_000), overwrite: z.boolean().optional(), dryRun: z.boolean().optional() }),
    importResultSchema,
    'Import a pasted mcpServers JSON snippet (any client\'s shape); dry run previews it',
  ),
  'servers.test': call(z.object({ id: z.string() }), serverTestResultSchema, 'Open a fresh session through the hub and list tools, resources and prompts'),
  'servers.status': event(serverStatusSchema, 'A server\'s live status changed (sessions, children, last error)'),
} as const;

export type ServerState = z.infer<typeof serverStateSchema>;
export type ServerStatus = z.infer<typeof serverStatusSchema>;
export type ServerError = z.infer<typeof serverErrorSchema>;
export type ServerEra = z.infer<typeof serverEraSchema>;
export type EraFactInfo = z.infer<typeof eraFactSchema>;
export type ServerDetail = z.infer<typeof serverDetailSchema>;
export type ServerTestResult = z.infer<typeof serverTestResultSchema>;
export type ImportResult = z.infer<typeof importResultSchema>;
export type ToolInfo = z.infer<typeof toolInfoSchema>;
