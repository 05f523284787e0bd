/**
 * Live status per configured server for the UI: sessions and children (sampled), and the last
 * error with where it happened. Errors are observed at the runtime's edge — a `connect()` that
 * throws (missing secret, spawn failure) or a connection that dies unasked (`onclose`) — so the
 * hub's hot path is untouched: only the first upstream message of a connection is tapped.
 * Changes are published as `servers.status` events.
 */
import type { ServerConfig } from '../../../shared/config-schema.js';
import { serversContract, type ServerError, type ServerStatus } from '../../../shared/api/servers-contract.js';
import type { ServerRuntime } from './server-runtime.js';
import type { UpstreamClosed, UpstreamConnection } from '../upstream/upstream.js';
import type { ApiRegistry } from '../api/api-registry.js';

export interface StatusSources {
  servers(): Record<string, ServerConfig>;
  /** Live downstream sessions per server id. */
  sessionCounts(): Map<string, number>;
  runtime(id: string): ServerRuntime | undefined;
}

interface Health {
  lastError?: ServerError;
  lastOkAt?: string;
}

export class ServerStatusTracker {
  private readonly health = new Map<string, Health>();
  private readonly last = new Map<string, string>();
  private readonly watched = new WeakSet<ServerRuntime>();
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
    const runtime = config && !config.disabled ? this.sources.runtime(id) : undefined;
    const children = runtime?.childCount ?? 0;
    const h = this.health.get(id) ?? {};
    const failing = h.lastError !== undefined && (h.lastOkAt === undefined || h.lastError.at >= h.lastOkAt);
    const state = !config || config.disabled ? 'disabled' : failing ? 'error' : sessions > 0 || children > 0 ? 'running' : 'idle';
    const out: ServerStatus = { id, state, sessions, children };
    if (h.lastError) out.lastError = h.lastError;
    if (h.lastOkAt) out.lastOkAt = h.lastOkAt;
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

  /** Returns the runtime with its connections observed (once per runtime object). */
  watch(runtime: ServerRuntime | undefined): ServerRuntime | undefined {
    if (!runtime || this.watched.has(runtime)) return runtime;
    this.watched.add(runtime);
    const connect = runtime.connect.bind(runtime);
    const id = runtime.id;
    runtime.connect = async () => {
      let conn: UpstreamConnection;
      try {
        conn = await connect();
      } catch (err) {
        this.recordError(id, 'start', (err as Error).message);
        throw err;
      }
      tapConnection(conn, {
        firstMessage: () => this.recordOk(id),
        closed: (info, answered) => this.recordError(id, answered ? 'exit' : 'start', info.message),
      });
      return conn;
    };
    return runtime;
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

/**
 * Chains onto a connection's `onmessage` (first message only, then the session's handler is put
 * back untouched) and `onclose` (an unexpected end), whatever the session assigns later.
 */
function tapConnection(
  conn: UpstreamConnection,
  taps: { firstMessage(): void; closed(info: UpstreamClosed, answered: boolean): void },
): void {
  let answered = false;
  let onmessage = conn.onmessage;
  let onclose = conn.onclose;
  const firstMessage: NonNullable<UpstreamConnection['onmessage']> = (message, raw) => {
    if (!answered) {
      answered = true;
      // Hand the property back as a plain value: later messages skip this wrapper entirely.
      Object.defineProperty(conn, 'onmessage', { value: onmessage, writable: true, configurable: true, enumerable: true });
      taps.firstMessage();
    }
    onmessage?.(message, raw);
  };
  const closed: NonNullable<UpstreamConnection['onclose']> = (info) => {
    taps.closed(info, answered);
    onclose?.(info);
  };
  Object.defineProperty(conn, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => firstMessage,
    set: (fn: UpstreamConnection['onmessage']) => {
      onmessage = fn;
    },
  });
  Object.defineProperty(conn, 'onclose', {
    configurable: true,
    enumerable: true,
    get: () => closed,
    set: (fn: UpstreamConnection['onclose']) => {
      onclose = fn;
    },
  });
}
