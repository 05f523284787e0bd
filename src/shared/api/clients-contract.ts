/**
 * MCP clients (Claude Desktop, Cursor, VS Code, …) as the UI manages them: which are installed
 * and what their config holds, an export previewed as a diff and then written (atomically, with
 * a timestamped backup), rollback, import of a client's own servers, and the doctor with its
 * safe fixes. Secret values never travel through this contract; diffs come with the hub token
 * and credential-looking values masked.
 */
import { z } from 'zod';
import { call, event } from './contract.js';

export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'lmstudio', 'zed', 'cline', 'opencode', 'goose', 'continue'] as const;

export const clientIdSchema = z.enum(CLIENT_IDS);
export const entryKindSchema = z.enum(['stdio', 'http']);

export const clientEntrySummarySchema = z.object({
  name: z.string(),
  kind: z.enum(['stdio', 'http', 'unsupported']),
  /** Patchbay's own entry (the relay or a hub URL), and the server it points at. */
  patchbay: z.boolean(),
  server: z.string().optional(),
});

export const clientStateSchema = z.object({
  id: clientIdSchema,
  name: z.string(),
  format: z.enum(['json', 'jsonc', 'toml', 'yaml']),
  /** Entry kinds the client takes, preferred first. */
  kinds: z.array(entryKindSchema),
  installed: z.boolean(),
  configPath: z.string(),
  configExists: z.boolean(),
  status: z.enum(['ok', 'missing', 'invalid', 'unreadable', 'unsupported']),
  problem: z.string().optional(),
  entries: z.array(clientEntrySummarySchema),
  restartHint: z.string(),
});

export const exportChangeSchema = z.object({
  server: z.string(),
  entryName: z.string(),
  action: z.enum(['add', 'update', 'unchanged', 'remove', 'conflict']),
  kind: entryKindSchema.optional(),
  message: z.string().optional(),
});

export const exportPreviewSchema = z.object({
  clientId: clientIdSchema,
  file: z.string(),
  exists: z.boolean(),
  changes: z.array(exportChangeSchema),
  changed: z.boolean(),
  /** Unified diff; the hub token and credential-looking values are masked. */
  diff: z.string(),
  /** Pass back to `clients.export` so a file changed since the preview is not overwritten. */
  baseHash: z.string(),
  restartHint: z.string(),
});

export const exportOutcomeSchema = exportPreviewSchema.extend({ written: z.boolean(), backupId: z.string().optional() });

const exportInput = z.object({
  client: clientIdSchema,
  /** Server ids; default: every enabled server (and Patchbay entries of removed servers are dropped). */
  servers: z.array(z.string()).optional(),
  /** Profile names instead of servers: one entry per profile; members' own Patchbay entries are removed. */
  profiles: z.array(z.string()).optional(),
  kind: entryKindSchema.optional(),
  /** Take over same-named entries that are the client's own (a backup is kept). */
  replace: z.boolean().optional(),
});

export const backupRecordSchema = z.object({
  id: z.string(),
  clientId: clientIdSchema,
  file: z.string(),
  createdAt: z.string(),
  existed: z.boolean(),
  size: z.number().int(),
  sha256: z.string(),
  reason: z.enum(['export', 'import', 'rollback', 'fix']),
});

export const rollbackOutcomeSchema = z.object({
  file: z.string(),
  /** The backup restored. */
  restored: z.string(),
  /** True when the file did not exist before and was removed. */
  deleted: z.boolean(),
  /** The backup of the state just replaced (roll back to it to undo the rollback). */
  backupId: z.string(),
});

export const importOutcomeSchema = z.object({
  clientId: clientIdSchema,
  file: z.string(),
  dryRun: z.boolean(),
  imported: z.array(z.object({ entryName: z.string(), serverId: z.string(), secrets: z.array(z.string()) })),
  skipped: z.array(z.object({ entryName: z.string(), serverId: z.string(), status: z.enum(['new', 'same', 'conflict', 'unsupported', 'patchbay', 'invalid']), reason: z.string() })),
  /** Names of the secrets stored (never values). */
  secretsStored: z.array(z.string()),
  replaced: exportOutcomeSchema.optional(),
});

export const doctorCheckSchema = z.object({
  id: z.string(),
  area: z.enum(['patchbay', 'hub', 'servers', 'clients']),
  status: z.enum(['ok', 'info', 'warn', 'error']),
  title: z.string(),
  detail: z.string().optional(),
  hint: z.string().optional(),
  fix: z.object({ id: z.string(), label: z.string() }).optional(),
});

export const doctorReportSchema = z.object({
  checks: z.array(doctorCheckSchema),
  counts: z.object({ ok: z.number().int(), info: z.number().int(), warn: z.number().int(), error: z.number().int() }),
});

export const fixOutcomeSchema = z.object({ fixId: z.string(), message: z.string(), file: z.string().optional(), backupId: z.string().optional() });

export const clientsContract = {
  'clients.list': call(z.object({}), z.array(clientStateSchema), 'Every known MCP client: installed or not, its config file, its entries'),
  'clients.previewExport': call(exportInput, exportPreviewSchema, "Preview writing Patchbay's entries into a client's config, as a diff"),
  'clients.export': call(exportInput.extend({ baseHash: z.string().optional() }), exportOutcomeSchema, "Write Patchbay's entries into a client's config (atomic, timestamped backup)"),
  'clients.backups': call(z.object({ client: clientIdSchema }), z.array(backupRecordSchema), "Patchbay's backups of a client's config, newest first"),
  'clients.rollback': call(z.object({ client: clientIdSchema, backupId: z.string().optional() }), rollbackOutcomeSchema, 'Restore a backup (default: the latest) byte for byte'),
  'clients.import': call(
    z.object({ client: clientIdSchema, servers: z.array(z.string()).optional(), replace: z.boolean().optional(), dryRun: z.boolean().optional() }),
    importOutcomeSchema,
    "Copy a client's servers into Patchbay (inline keys move to the secret store); optionally route them through the hub",
  ),
  'clients.doctor': call(z.object({}), doctorReportSchema, 'Check PATHs, runtimes, the hub port, stale tokens, client configs, the MSIX path'),
  'clients.fix': call(z.object({ fixId: z.string().max(300) }), fixOutcomeSchema, 'Apply a safe fix the doctor offers (a backup is kept)'),
  'clients.written': event(z.object({ client: clientIdSchema, file: z.string(), action: z.enum(['export', 'rollback', 'import', 'fix']) }), "Patchbay wrote a client's config file"),
} as const;

export type ClientStateDto = z.infer<typeof clientStateSchema>;
export type ExportPreviewDto = z.infer<typeof exportPreviewSchema>;
export type DoctorReportDto = z.infer<typeof doctorReportSchema>;
