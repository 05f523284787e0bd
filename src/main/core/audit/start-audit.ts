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
  /** The trail's folder. */
  readonly dir: string;
  /** Whether lines are being recorded (config `audit.enabled`, and capture not turned off). */
  readonly enabled: boolean;
  /** A line of another kind than a client's call: an approval, a policy decision. */
  record(event: AuditEvent): void;
  /** Writes the lines still waiting for the next batch (a reader then sees every line made so far). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** `content`: keep each call's params and answer too (redacted; `audit.content` in config.json, off by default). */
export async function startAudit(o: { dir: string; traffic: Traffic; enabled: boolean; content?: boolean; logger: Logger }): Promise<RunningAudit> {
  if (!o.enabled) return { dir: o.dir, enabled: false, record: () => undefined, flush: async () => undefined, close: async () => undefined };
  const log = await AuditLog.open(o.dir, o.logger);
  const off = o.traffic.onExchange(
    (x) => {
      const event = auditEventOf(x);
      if (event === undefined) return;
      if (o.content === true && x.texts) {
        if (x.texts.params !== undefined) event.params = x.texts.params;
        if (x.texts.result !== undefined) event.result = x.texts.result;
      }
      log.append(event);
    },
    // The texts cost a serialisation of both per exchange: asked for only when the trail keeps them.
    o.content === true ? { texts: true } : {},
  );
  return {
    dir: o.dir,
    enabled: true,
    record: (event) => log.append(event),
    flush: () => log.flush(),
    close: async () => {
      off();
      await log.close();
    },
  };
}
