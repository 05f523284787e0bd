/**
 * What the inspector keeps of one session: its recent events (a ring), counts and bytes per leg
 * and direction, its stderr; and, through the pipeline's session (traffic/traffic-session.ts),
 * who the client is, the negotiated version and capabilities, the transports, its state and its
 * exchanges. Built from events only, so it can be rebuilt from history.
 */
import type { CaptureHttp, InspectorSession } from '../../../shared/api/inspector-contract.js';
import type { ExchangeTracker } from '../traffic/exchange-tracker.js';
import type { SessionIdentity, TrafficSession } from '../traffic/traffic-session.js';
import { EventRing } from './event-ring.js';
import { httpRef, ROUTES, sessionRef, type HttpRef, type SessionRef, type StoredEvent } from './stored-event.js';

type LegCounts = { toServer: number; toClient: number };

const STDERR_TAIL = 20;

export class SessionRecord {
  readonly events = new EventRing();
  stderrLines = 0;
  readonly stderrTail: string[] = [];
  readonly messages = { client: { toServer: 0, toClient: 0 } as LegCounts, upstream: { toServer: 0, toClient: 0 } as LegCounts };
  readonly bytes = { client: { toServer: 0, toClient: 0 } as LegCounts, upstream: { toServer: 0, toClient: 0 } as LegCounts };
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  /** Shared by every event of this session. */
  readonly ref: SessionRef;
  /** The last HTTP details' encoding, shared while the pipeline hands the same details. */
  private lastHttp: HttpRef | undefined;

  constructor(readonly session: TrafficSession) {
    this.ref = sessionRef(session.identity.id, session.identity.server);
  }

  get id(): string {
    return this.session.identity.id;
  }
  get identity(): SessionIdentity {
    return this.session.identity;
  }
  get tracker(): ExchangeTracker {
    return this.session.tracker;
  }
  get endedAt(): number | undefined {
    return this.session.endedAt;
  }

  /** The encoded form of a client request's HTTP details (the pipeline shares one object while they stay the same). */
  httpRefOf(http: CaptureHttp): HttpRef {
    const last = this.lastHttp;
    if (last !== undefined && last.http === http) return last;
    return (this.lastHttp = httpRef(http));
  }

  /** Updates counts, the event range and the stderr tail. */
  note(e: StoredEvent): void {
    this.firstSeq ??= e.seq;
    this.lastSeq = e.lastSeq;
    const { leg, direction, kind } = ROUTES[e.route]!;
    if (leg && direction && (kind === 'request' || kind === 'response' || kind === 'notification')) {
      const toServer = direction === 'to-server';
      this.count(leg === 'client', toServer, e.size);
      if (e.paired) this.count(leg !== 'client', toServer, e.size);
    }
    if (kind === 'stderr' && e.text !== undefined) {
      this.stderrLines++;
      this.stderrTail.push(e.text);
      if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    }
  }

  private count(client: boolean, toServer: boolean, size: number): void {
    const messages = client ? this.messages.client : this.messages.upstream;
    const bytes = client ? this.bytes.client : this.bytes.upstream;
    if (toServer) {
      messages.toServer++;
      bytes.toServer += size;
    } else {
      messages.toClient++;
      bytes.toClient += size;
    }
  }

  summary(inMemory: boolean): InspectorSession {
    const session = this.session;
    const identity = session.identity;
    const tracker = session.tracker;
    const s: InspectorSession = {
      id: identity.id,
      server: identity.server,
      transport: { client: identity.clientTransport, upstream: identity.upstreamTransport },
      debug: identity.debug,
      era: identity.era ?? 'legacy',
      startedAt: identity.startedAt,
      state: session.state,
      restarts: Math.max(0, session.upstreamOpens - 1),
      messages: { client: { ...this.messages.client }, upstream: { ...this.messages.upstream } },
      bytes: { client: { ...this.bytes.client }, upstream: { ...this.bytes.upstream } },
      exchanges: { total: tracker.exchangesSeen, ...tracker.counts },
      errors: tracker.counts.error + tracker.counts.timeout + tracker.counts.orphaned,
      stderrLines: this.stderrLines,
      dropped: session.dropCounter?.dropped ?? 0,
      inMemory,
    };
    if (session.client) s.client = session.client;
    if (identity.principal !== undefined) s.principal = identity.principal;
    if (session.protocolVersion) s.protocolVersion = session.protocolVersion;
    if (session.clientCapabilities) s.clientCapabilities = session.clientCapabilities;
    if (session.serverInfo) s.serverInfo = session.serverInfo;
    if (session.serverCapabilities) s.serverCapabilities = session.serverCapabilities;
    if (session.serverEra) s.serverEra = session.serverEra;
    if (session.profile) s.profile = session.profile.parentSession === undefined ? { id: session.profile.id } : { id: session.profile.id, parentSession: session.profile.parentSession };
    if (session.endedAt !== undefined) s.endedAt = session.endedAt;
    if (session.failure) s.failure = session.failure;
    if (session.endReason) s.endReason = session.endReason;
    if (this.firstSeq !== undefined) s.firstSeq = this.firstSeq;
    if (this.lastSeq !== undefined) s.lastSeq = this.lastSeq;
    return s;
  }
}
