/**
 * Modern-era traffic has no sessions, but a person reading the inspector wants one timeline per
 * client. The hub groups a server's modern requests by the client they say they come from
 * (`_meta` clientInfo name and version) into an observed "session" that observers see opened,
 * fed and ended like any other (hub/observer.ts). A group ends after a quiet while with nothing
 * in flight; the next request from that client opens a new one.
 */
import { META } from '../../../shared/protocol.js';
import { metaOf } from '../protocol/modern.js';
import type { SessionObserver, SessionWatch } from './observer.js';
import type { ServerPort } from './server-port.js';
import type { ClientIdentity, UpstreamEvent } from '../upstream/upstream.js';

interface Group {
  readonly key: object;
  readonly watch: SessionWatch | undefined;
  readonly who: ClientIdentity;
  inFlight: number;
  lastActivity: number;
  /** The server answered since the group opened, or since it last failed (for the server's status). */
  answered: boolean;
}

export interface ModernWatch {
  readonly watch: SessionWatch | undefined;
  /** Who this client is (its token, how it came, the name it gives). */
  readonly who: ClientIdentity;
  /** A call of this client began / ended (keeps the group open while any is in flight). */
  begin(): void;
  end(): void;
  /** The server's upstream answered (a notification or a response): it is healthy. */
  answered(): void;
  /** The upstream could not be had at all (a missing secret, a spawn or connection failure). */
  unreachable(message: string): void;
  /** The hub answered for the server, which will not (its child died, it could not be reached). */
  failed(message: string): void;
  /** Stderr lines, HTTP exchanges the upstream reported while a call of this client was in flight. */
  event(event: UpstreamEvent): void;
}

export class ModernClients {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly observer: SessionObserver | undefined,
    private readonly idleMs: number,
  ) {}

  /** The group of a request's client on a server (opened when new); `principal`: the client token's label, `via`: `relay` (principal.ts). */
  watchFor(server: ServerPort, params: unknown, principal?: string, via?: 'relay'): ModernWatch {
    const info = metaOf(params)?.[META.clientInfo] as { name?: unknown; version?: unknown } | undefined;
    const client = typeof info?.name === 'string' ? `${info.name}@${typeof info.version === 'string' ? info.version : ''}` : '(anonymous)';
    // Two clients that give the same clientInfo but hold different client tokens are two timelines.
    const id = `${server.id}\u0000${client}\u0000${principal ?? ''}\u0000${via ?? ''}`;
    let group = this.groups.get(id);
    if (!group) {
      const key = {};
      const watch = this.observer?.sessionOpened({ key, serverId: server.id, clientTransport: 'streamable-http', upstreamTransport: server.transportLabel, debug: false, era: 'modern', ...(principal !== undefined ? { principal } : {}), ...(via !== undefined ? { via } : {}) });
      // Made once per group: the group's id is these very facts.
      const who: ClientIdentity = { transport: 'streamable-http', ...(principal !== undefined ? { principal } : {}), ...(via !== undefined ? { via } : {}), ...(typeof info?.name === 'string' ? { name: info.name } : {}) };
      group = { key, watch, who, inFlight: 0, lastActivity: Date.now(), answered: false };
      this.groups.set(id, group);
    }
    const g = group;
    g.lastActivity = Date.now();
    return {
      watch: g.watch,
      who: g.who,
      begin: () => {
        g.inFlight++;
      },
      end: () => {
        g.inFlight--;
        g.lastActivity = Date.now();
      },
      // Reported as a 2025 session reports its upstream's health (session.ts): once when it first
      // answers, and a failure with whether it had answered before (a start or a later failure).
      answered: () => {
        if (g.answered) return;
        g.answered = true;
        g.watch?.upstreamAnswered?.();
      },
      unreachable: (message) => g.watch?.upstreamFailed?.(message),
      failed: (message) => {
        g.watch?.upstreamClosed?.({ message }, g.answered);
        g.answered = false;
      },
      event: (event) => g.watch?.upstreamEvent?.(event),
    };
  }

  /** Ends the groups that have been quiet for `idleMs` with nothing in flight. */
  tick(now: number): void {
    for (const [id, g] of this.groups) {
      if (g.inFlight > 0 || now - g.lastActivity < this.idleMs) continue;
      this.groups.delete(id);
      g.watch?.ended?.('closed', undefined);
    }
  }

  closeAll(): void {
    for (const g of this.groups.values()) g.watch?.ended?.('closed', undefined);
    this.groups.clear();
  }
}
