/** Reading the audit trail back (`patchbay audit`), oldest first, filtered. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AUDIT_FILE, rotatedFiles, type AuditLine } from './audit-log.js';

export interface AuditFilter {
  /** Only lines at or after this time (epoch ms). */
  since?: number;
  /** Substring of the client (`Cursor`, `token:Cursor`, `ui`). */
  client?: string;
  /** The server id or `@profile`, exactly. */
  server?: string;
}

export async function readAudit(dir: string, filter: AuditFilter = {}): Promise<AuditLine[]> {
  const out: AuditLine[] = [];
  for (const file of [...(await rotatedFiles(dir)), path.join(dir, AUDIT_FILE)]) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let entry: AuditLine;
      try {
        entry = JSON.parse(line) as AuditLine;
      } catch {
        continue; // `patchbay audit verify` names it
      }
      if (filter.since !== undefined && Date.parse(entry.t) < filter.since) continue;
      if (filter.client !== undefined && !entry.client.includes(filter.client)) continue;
      if (filter.server !== undefined && entry.server !== filter.server) continue;
      out.push(entry);
    }
  }
  return out;
}
