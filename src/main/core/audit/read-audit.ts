/**
 * Reading the audit trail back: oldest first and filtered for `patchbay audit`, or a page newest
 * first for the UI (`audit.list`). Lines that are not JSON are skipped here: `verify` names them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AUDIT_FILE, rotatedFiles, type AuditLine } from './audit-log.js';

export interface AuditFilter {
  /** Only lines at or after this time (epoch ms). */
  since?: number;
  /** Only lines before this time (epoch ms). */
  until?: number;
  /** Substring of the client (`Cursor`, `token:Cursor`, `ui`, `relay`). */
  client?: string;
  /** The server id or `@profile`, exactly. */
  server?: string;
  /** The method, exactly (`tools/call`). */
  method?: string;
  /** The outcome, exactly, or its family before the colon: `error` matches `error:jsonrpc`. */
  outcome?: string;
}

/** The files of a trail, oldest first: the rotated ones, then the current one. */
async function trailFiles(dir: string): Promise<string[]> {
  return [...(await rotatedFiles(dir)), path.join(dir, AUDIT_FILE)];
}

function parse(line: string): AuditLine | undefined {
  if (line === '') return undefined;
  try {
    const entry = JSON.parse(line) as AuditLine;
    // A line edited into another shape is `verify`'s business; here it must not break a filter.
    return typeof entry === 'object' && entry !== null && typeof entry.t === 'string' && typeof entry.client === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

function matchesAudit(entry: AuditLine, filter: AuditFilter): boolean {
  if (filter.since !== undefined && Date.parse(entry.t) < filter.since) return false;
  if (filter.until !== undefined && Date.parse(entry.t) >= filter.until) return false;
  if (filter.client !== undefined && !entry.client.includes(filter.client)) return false;
  if (filter.server !== undefined && entry.server !== filter.server) return false;
  if (filter.method !== undefined && entry.method !== filter.method) return false;
  if (filter.outcome !== undefined && entry.outcome !== filter.outcome && !String(entry.outcome).startsWith(`${filter.outcome}:`)) return false;
  return true;
}

export async function readAudit(dir: string, filter: AuditFilter = {}): Promise<AuditLine[]> {
  const out: AuditLine[] = [];
  for (const file of await trailFiles(dir)) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const entry = parse(line);
      if (entry !== undefined && matchesAudit(entry, filter)) out.push(entry);
    }
  }
  return out;
}

export interface AuditPage {
  /** Newest first. */
  lines: AuditLine[];
  /** Older matching lines exist: ask again with `before` set to the last line's `seq`. */
  more: boolean;
}

/**
 * A page of matching lines, newest first, older than `before` (a `seq`) when given. Files are read
 * newest first and reading stops once the page is full, so the first page of a long trail costs
 * one file, not all of them.
 */
export async function readAuditPage(dir: string, filter: AuditFilter, page: { limit: number; before?: number }): Promise<AuditPage> {
  const lines: AuditLine[] = [];
  const files = await trailFiles(dir);
  for (let f = files.length - 1; f >= 0; f--) {
    const text = await readFile(files[f]!, 'utf8').catch(() => '');
    const raw = text.split('\n');
    for (let i = raw.length - 1; i >= 0; i--) {
      const entry = parse(raw[i]!);
      if (entry === undefined) continue;
      if (page.before !== undefined && !(entry.seq < page.before)) continue;
      if (!matchesAudit(entry, filter)) continue;
      if (lines.length === page.limit) return { lines, more: true };
      lines.push(entry);
    }
  }
  return { lines, more: false };
}
