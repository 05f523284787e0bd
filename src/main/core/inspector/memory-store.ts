/**
 * The in-memory part of capture: one ring of every recent event in seq order (the live stream
 * and search read it) bounded by a global event count and byte budget, a ring per session bounded
 * per session, and the sessions themselves. A closed session whose events have all left memory is
 * kept as a summary only; its events are still in the history files.
 */
import type { InspectorSession } from '../../../shared/api/inspector-contract.js';
import { EventRing } from './event-ring.js';
import type { SessionRecord } from './session-record.js';
import type { InspectorLimits } from './settings.js';
import type { CapturedLeg, StoredEvent } from './stored-event.js';

/**
 * A session's exchanges stay in memory as long as its events do: kept to the per-session cap
 * alone, sixteen busy sessions held 160,000 exchanges that no memory cap counted. Queries for
 * older exchanges rebuild them from the history files.
 */
function trimExchanges(record: SessionRecord): void {
  record.tracker.dropBefore(record.events.first?.seq ?? Infinity);
}

export class MemoryStore {
  readonly all = new EventRing();
  /** Sessions with a live record (pairing state, recent events). */
  readonly sessions = new Map<string, SessionRecord>();
  /** Sessions known by their summary only (past ones, and those read from history). */
  readonly past = new Map<string, InspectorSession>();
  /** Bytes the events hold (their lines in the line log, and the objects). */
  bytes = 0;
  /** Events (legs) evicted by the caps since the engine started. */
  evicted = 0;

  constructor(private readonly limits: Pick<InspectorLimits, 'maxEvents' | 'maxEventsPerSession' | 'maxMemoryBytes' | 'maxSessions'>) {}

  add(record: SessionRecord, e: StoredEvent): void {
    this.all.push(e);
    record.events.push(e);
    this.bytes += e.memBytes;
    if (record.events.length > this.limits.maxEventsPerSession) {
      while (record.events.length > this.limits.maxEventsPerSession && record.events.entries > 1) record.events.shift();
      trimExchanges(record);
    }
    while (this.all.length > this.limits.maxEvents || (this.bytes > this.limits.maxMemoryBytes && this.all.entries > 1)) {
      const old = this.all.shift()!;
      this.evicted += old.legs;
      this.bytes -= old.memBytes;
      const owner = this.sessions.get(old.session);
      if (!owner) continue;
      // Both rings are in seq order: the globally oldest event of a session is its oldest.
      if (owner.events.first === old) {
        owner.events.shift();
        trimExchanges(owner);
      }
      if (owner.events.length === 0) this.retireIfDone(owner);
    }
  }

  /** A session that ended and has nothing left in memory becomes a summary. */
  retireIfDone(record: SessionRecord): void {
    if (record.endedAt === undefined || record.events.length > 0) return;
    this.sessions.delete(record.id);
    this.remember(record.summary(false));
  }

  remember(summary: InspectorSession): void {
    this.past.delete(summary.id);
    this.past.set(summary.id, summary);
    while (this.past.size + this.sessions.size > this.limits.maxSessions && this.past.size > 0) {
      this.past.delete(this.past.keys().next().value!);
    }
  }

  summary(id: string): InspectorSession | undefined {
    const record = this.sessions.get(id);
    return record ? record.summary(true) : this.past.get(id);
  }

  /** A stored event's leg by seq, if still in memory. */
  find(seq: number): CapturedLeg | undefined {
    return this.all.find(seq);
  }

  get oldestSeq(): number | undefined {
    return this.all.first?.seq;
  }
}
