/**
 * Live status per configured server for the UI: sessions and children (sampled), and the last
 * error with where it happened, learned as an observer of sessions (see sessionOpened). Changes
 * are published as `servers.status` events.
 *
 * One source of truth (issue 28): every status this tracker hands out — in an event, in
 * `servers.overview`, in a saved server's detail — goes through `status()`, which numbers each
 * change (`rev`) and publishes it. A reader holding two statuses of a server keeps the one with
 * the larger `rev`, so a snapshot taken before a failure can never overwrite the failure's event
 * however the two arrive. What the tracker knew of a server is dropped in one place only: when the
 * config's entry for it changed (`configApplied`, called by the engine on every config change, from
 * the API or a hand edit); a reload or a save that leaves the entry as it was keeps it.
 */
import type { ServerConfig } from '../../../shared/config-schema.js';
import { serversContract, type ServerEra, type ServerError, type ServerStatus } from '../../../shared/api/servers-contract.js';
import type { ApiRegistry } from '../api/api-registry.js';
import type { ObservedSession, SessionObserver, SessionWatch } from '../hub/observer.js';

export interface StatusSources {
  servers(): Record<string, ServerConfig>;
  /** Live downstream sessions per server id. */
  sessionCounts(): Map<string, number>;
  /** Children running now for a server (0 when it is not running). */
  childCount(id: string): number;
  /** The protocol era the server speaks, once known. */
  eraOf?(id: string): ServerEra | undefined;
}

interface Health {
  lastError?: ServerError;
  lastOkAt?: string;
}

export class ServerStatusTracker implements SessionObserver {
  private readonly health = new Map<string, Health>();
  /** The last status handed out per server (with its rev), and its JSON without the rev. */
  private readonly last = new Map<string, { key: string; status: ServerStatus }>();
  /** Each server's config entry as last applied (JSON), to tell which entries a change touched. */
  private readonly entries = new Map<string, string>();
  /**
   * Grows with every change of any server's status. It starts at the engine's start time in
   * microseconds, so the statuses of a restarted engine are newer than any its predecessor sent.
   */
  private rev: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sources: StatusSources,
    private readonly api: ApiRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.rev = this.now().getTime() * 1000;
    for (const [id, entry] of Object.entries(sources.servers())) this.entries.set(id, JSON.stringify(entry));
  }

  /** Samples every `intervalMs` and publishes what changed. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.publishChanges(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The server's status now, numbered; a change since the last one handed out is published first. */
  status(id: string): ServerStatus {
    const status = this.compute(id);
    const key = JSON.stringify(status);
    const last = this.last.get(id);
    if (last?.key === key) return last.status;
    const numbered: ServerStatus = { ...status, rev: ++this.rev };
    this.last.set(id, { key, status: numbered });
    if (id in this.sources.servers()) this.api.emit(serversContract, 'servers.status', numbered);
    return numbered;
  }

  all(): ServerStatus[] {
    return Object.keys(this.sources.servers()).map((id) => this.status(id));
  }

  recordError(id: string, stage: ServerError['stage'], message: string): void {
    const h = this.health.get(id) ?? {};
    h.lastError = { message, stage, at: this.now().toISOString() };
    this.health.set(id, h);
    this.publish(id);
  }

  recordOk(id: string): void {
    const h = this.health.get(id) ?? {};
    h.lastOkAt = this.now().toISOString();
    this.health.set(id, h);
    this.publish(id);
  }

  /**
   * The config changed (the engine calls this on every change, whoever made it): a server whose
   * entry was added, edited, enabled, disabled or removed has a new runtime, and what we knew of
   * the old one's health no longer describes it. Entries left as they were keep everything.
   */
  configApplied(servers: Record<string, ServerConfig>): void {
    const changed: string[] = [];
    for (const [id, entry] of Object.entries(servers)) {
      const json = JSON.stringify(entry);
      if (this.entries.get(id) !== json) changed.push(id);
      this.entries.set(id, json);
    }
    for (const id of [...this.entries.keys()]) {
      if (id in servers) continue;
      this.entries.delete(id);
      changed.push(id);
    }
    for (const id of changed) {
      this.health.delete(id);
      this.publish(id);
    }
  }

  /**
   * The observer port (hub/observer.ts): errors are seen at the session's upstream edge — a
   * connection that cannot open (missing secret, spawn failure) or dies unasked — and health at
   * a connection's first answer. Nothing per message: the watch implements no traffic calls.
   */
  sessionOpened(session: ObservedSession): SessionWatch {
    const id = session.serverId;
    return {
      upstreamFailed: (message) => this.recordError(id, 'start', message),
      upstreamAnswered: () => this.recordOk(id),
      upstreamClosed: (info, answered) => this.recordError(id, answered ? 'exit' : 'start', info.message),
    };
  }

  publishChanges(): void {
    for (const id of new Set([...Object.keys(this.sources.servers()), ...this.last.keys()])) this.publish(id);
  }

  private publish(id: string): void {
    if (!(id in this.sources.servers())) {
      if (this.last.delete(id)) this.health.delete(id);
      return;
    }
    this.status(id);
  }

  private compute(id: string): ServerStatus {
    const config = this.sources.servers()[id];
    const sessions = this.sources.sessionCounts().get(id) ?? 0;
    const children = config && !config.disabled ? this.sources.childCount(id) : 0;
    const h = this.health.get(id) ?? {};
    const failing = h.lastError !== undefined && (h.lastOkAt === undefined || h.lastError.at >= h.lastOkAt);
    const state = !config || config.disabled ? 'disabled' : failing ? 'error' : sessions > 0 || children > 0 ? 'running' : 'idle';
    const out: ServerStatus = { id, state, sessions, children };
    if (h.lastError) out.lastError = h.lastError;
    if (h.lastOkAt) out.lastOkAt = h.lastOkAt;
    const era = config && !config.disabled ? this.sources.eraOf?.(id) : undefined;
    if (era) out.era = era;
    return out;
  }
}
