/**
 * The audit trail (issue 25, docs/audit.md) as the UI reads it: its lines newest first, filtered
 * and paged, read from the files as `patchbay audit` reads them; and the hash chain checked as
 * `patchbay audit verify` checks it. Read-only: nothing here writes the trail. A line never holds
 * a call's arguments or result, so neither does this contract.
 */
import { z } from 'zod';
import { call } from './contract.js';

/** A line as written. `kind` and `outcome` are strings, not enums: a line edited by hand is shown as it reads. */
export const auditLineSchema = z.object({
  seq: z.number(),
  /** ISO time the call started (or the decision was made). */
  t: z.string(),
  /** `call` (a client's request), `approve` (a changed tool approved), `policy` (a blocked secret, a denied host). */
  kind: z.string(),
  /** Who: `token:<label>`, `relay`, `relay/token:<label>`, `ui`, `api`, `hub-token:<client name>` (a call, and a secret check's policy line about it); `sandbox` (a sandboxed server's request its host list refused). */
  client: z.string(),
  /** The client as it names itself, when `client` does not say it. */
  name: z.string().optional(),
  /** The server id or `@profile`. */
  server: z.string(),
  method: z.string().optional(),
  /** The tool, prompt or resource URI. */
  target: z.string().optional(),
  /** `ok`, `error:<kind>`, `cancelled`, `timeout`, `approved`, … */
  outcome: z.string(),
  ms: z.number().optional(),
});

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO time, e.g. 2026-11-28T07:58:01Z');
const text = z.string().min(1).max(500);

export const auditListInputSchema = z.object({
  /** Only lines at or after this time. */
  since: isoTime.optional(),
  /** Only lines before this time. */
  until: isoTime.optional(),
  /** Clients whose name contains this (`Cursor`, `relay`, `ui`). */
  client: text.optional(),
  /** This server id or `@profile`, exactly. */
  server: text.optional(),
  /** This method, exactly (`tools/call`). */
  method: text.optional(),
  /** This outcome, or its family: `error` matches `error:jsonrpc`, `error:tool_error`, … */
  outcome: text.optional(),
  /** Lines per page (default 200). */
  limit: z.number().int().min(1).max(1000).optional(),
  /** Only lines older than this `seq`: the next page after a line. */
  before: z.number().int().positive().optional(),
});

export const auditPageSchema = z.object({
  /** Newest first. */
  lines: z.array(auditLineSchema),
  /** Older matching lines exist: ask again with `before` = the last line's `seq`. */
  more: z.boolean(),
  /** The folder of the trail's files (`audit.jsonl`, older ones `audit.1.jsonl`, …). */
  dir: z.string(),
  /** Whether the hub records a trail now (`"audit": {"enabled": false}` in config.json turns it off). */
  enabled: z.boolean(),
});

export const auditVerifySchema = z.object({
  ok: z.boolean(),
  /** Lines that check out (before the problem, when there is one). */
  lines: z.number().int(),
  /** Files read. */
  files: z.number().int(),
  dir: z.string(),
  /** The first place the chain breaks: the file, its 1-based line, and what is wrong. */
  problem: z.object({ file: z.string(), line: z.number().int(), reason: z.string() }).optional(),
});

export const auditContract = {
  'audit.list': call(auditListInputSchema, auditPageSchema, 'Lines of the audit trail, newest first, filtered and paged'),
  'audit.verify': call(z.object({}), auditVerifySchema, "Check the audit trail's hash chain; the first line that was edited, removed or moved"),
} as const;

export type AuditLineDto = z.infer<typeof auditLineSchema>;
export type AuditListInput = z.input<typeof auditListInputSchema>;
export type AuditPageDto = z.infer<typeof auditPageSchema>;
export type AuditVerifyDto = z.infer<typeof auditVerifySchema>;
