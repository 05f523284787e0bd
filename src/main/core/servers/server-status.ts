/**
 * Live status per configured server for the UI: sessions and children (sampled), and the last
 * error with where it happened, learned as an observer of sessions (see sessionOpened). Changes
 * are published as `servers.status` events.
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
  private readonly last = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sources: StatusSources,
    private readonly api: ApiRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Samples every `intervalMs` and publishes what changed. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.publishChanges(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  status(id: string): ServerStatus {
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

  /** The entry changed or was removed: what we knew of its health no longer applies. */
  forget(id: string): void {
    this.health.delete(id);
    this.publish(id);
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
    const status = this.status(id);
    const key = JSON.stringify(status);
    if (this.last.get(id) === key) return;
    this.last.set(id, key);
    this.api.emit(serversContract, 'servers.status', status);
  }
}
