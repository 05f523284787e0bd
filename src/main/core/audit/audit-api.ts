/**
 * Engine side of the audit contract: the same reader and verifier as `patchbay audit`, on the
 * running hub's own trail. Pending lines are flushed first, so a call the UI just made is listed.
 * Lines are copied field by field: a line edited on disk cannot add fields to the answer.
 */
import type { AuditLineDto, auditContract } from '../../../shared/api/audit-contract.js';
import type { Handlers } from '../api/api-registry.js';
import { verifyAudit, type AuditLine } from './audit-log.js';
import { readAuditPage, type AuditFilter } from './read-audit.js';

export interface AuditApiDeps {
  /** The trail's folder (per replica: `<data dir>[/replicas/<id>]/audit`). */
  dir: string;
  enabled: boolean;
  /** Writes lines still waiting for their batch. */
  flush(): Promise<void>;
}

const DEFAULT_LIMIT = 200;

function dto(l: AuditLine): AuditLineDto {
  const out: AuditLineDto = { seq: Number(l.seq), t: String(l.t), kind: String(l.kind), client: String(l.client), server: String(l.server), outcome: String(l.outcome) };
  if (typeof l.name === 'string') out.name = l.name;
  if (typeof l.method === 'string') out.method = l.method;
  if (typeof l.target === 'string') out.target = l.target;
  if (typeof l.ms === 'number') out.ms = l.ms;
  return out;
}

export function auditHandlers(deps: AuditApiDeps): Handlers<typeof auditContract> {
  return {
    'audit.list': async (input) => {
      await deps.flush();
      const filter: AuditFilter = {};
      if (input.since !== undefined) filter.since = Date.parse(input.since);
      if (input.until !== undefined) filter.until = Date.parse(input.until);
      if (input.client !== undefined) filter.client = input.client;
      if (input.server !== undefined) filter.server = input.server;
      if (input.method !== undefined) filter.method = input.method;
      if (input.outcome !== undefined) filter.outcome = input.outcome;
      const page = await readAuditPage(deps.dir, filter, { limit: input.limit ?? DEFAULT_LIMIT, ...(input.before !== undefined ? { before: input.before } : {}) });
      return { lines: page.lines.map(dto), more: page.more, dir: deps.dir, enabled: deps.enabled };
    },
    'audit.verify': async () => {
      await deps.flush();
      const r = await verifyAudit(deps.dir);
      return {
        ok: r.ok,
        lines: r.lines,
        files: r.files,
        dir: deps.dir,
        ...(r.problem ? { problem: { file: r.problem.file, line: r.problem.line, reason: r.problem.message } } : {}),
      };
    },
  };
}
