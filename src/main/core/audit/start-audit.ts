/**
 * The audit trail as an observer of the capture pipeline's completed exchanges (the one spine's
 * feed: docs/architecture.md): on unless the config says `audit: {enabled: false}`. Its lines are
 * written in batches from the drain, never on a call's path.
 */
import type { Logger } from '../log/logger.js';
import type { Traffic } from '../traffic/traffic.js';
import { auditEventOf } from './audit-entry.js';
import { AuditLog, type AuditEvent } from './audit-log.js';

export interface RunningAudit {
  /** A line of another kind than a client's call: an approval, a policy decision. */
  record(event: AuditEvent): void;
  close(): Promise<void>;
}

export async function startAudit(o: { dir: string; traffic: Traffic; enabled: boolean; logger: Logger }): Promise<RunningAudit> {
  if (!o.enabled) return { record: () => undefined, close: async () => undefined };
  const log = await AuditLog.open(o.dir, o.logger);
  const off = o.traffic.onExchange((x) => {
    const event = auditEventOf(x);
    if (event !== undefined) log.append(event);
  });
  return {
    record: (event) => log.append(event),
    close: async () => {
      off();
      await log.close();
    },
  };
}
