/**
 * What the inspector knows of one session: who the client is (from initialize), the negotiated
 * version and capabilities, the transports, its state, counts, bytes, its recent events (a ring)
 * and its exchanges. Built from events only, so it can be rebuilt from history.
 */
import type { CaptureEra, CaptureLeg, InspectorSession, InspectorSessionState } from '../../../shared/api/inspector-contract.js';
import { META } from '../../../shared/protocol.js';
import { EventRing } from './event-ring.js';
import { ExchangeTracker } from './exchange-tracker.js';
import type { HttpMemo } from './http-capture.js';
import { otherLeg, ROUTES, sessionRef, type SessionRef, type StoredEvent } from './stored-event.js';

export interface SessionIdentity {
  id: string;
  server: string;
  clientTransport: string;
  upstreamTransport: string;
  debug: boolean;
  /** The client's era: a `modern` "session" is one modern client's sessionless requests, grouped (hub/modern-clients.ts). */
  era?: CaptureEra;
  startedAt: number;
  /** The client token's label, when one opened the session (hub/observer.ts). */
  principal?: string;
}

type LegCounts = { toServer: number; toClient: number };

const STDERR_TAIL = 20;

function object(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function parsed(e: StoredEvent): unknown {
  const json = e.json;
  return json === undefined ? undefined : JSON.parse(json);
}

function info(v: unknown): { name: string; version?: string } | undefined {
  const o = object(v);
  if (!o || typeof o.name !== 'string') return undefined;
  return typeof o.version === 'string' ? { name: o.name, version: o.version } : { name: o.name };
}

/** The event is on this leg (a pair is on both). */
function onLeg(e: StoredEvent, leg: CaptureLeg): boolean {
  return e.leg === leg || (e.paired && otherLeg(e.leg) === leg);
}

export class SessionRecord {
  readonly events = new EventRing();
  readonly tracker: ExchangeTracker;
  state: InspectorSessionState = 'live';
  endedAt: number | undefined;
  failure: InspectorSession['failure'];
  endReason: string | undefined;
  client: InspectorSession['client'];
  protocolVersion: string | undefined;
  clientCapabilities: Record<string, unknown> | undefined;
  serverInfo: InspectorSession['serverInfo'];
  serverCapabilities: Record<string, unknown> | undefined;
  /** Set once the hub bridged this session's traffic to a server of the other era. */
  serverEra: CaptureEra | undefined;
  upstreamOpens = 0;
  stderrLines = 0;
  readonly stderrTail: string[] = [];
  readonly messages = { client: { toServer: 0, toClient: 0 } as LegCounts, upstream: { toServer: 0, toClient: 0 } as LegCounts };
  readonly bytes = { client: { toServer: 0, toClient: 0 } as LegCounts, upstream: { toServer: 0, toClient: 0 } as LegCounts };
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  /** Where dropped items are counted (the session's tap), read live. */
  dropCounter: { readonly dropped: number } | undefined;
  /** The last client request's HTTP details (redacted), shared while they stay the same. */
  lastHttp: HttpMemo | undefined;
  /** Shared by every event of this session. */
  readonly ref: SessionRef;
  /** The id of the client's own initialize request, to recognise its answer. */
  private initializeId: string | number | undefined;

  constructor(
    readonly identity: SessionIdentity,
    maxExchanges: number,
    scrub?: (text: string) => string,
  ) {
    this.tracker = new ExchangeTracker(identity.id, identity.server, maxExchanges, () => this.client?.name, scrub, identity.era ?? 'legacy');
    this.ref = sessionRef(identity.id, identity.server);
  }

  get id(): string {
    return this.identity.id;
  }

  /**
   * Updates counts and what initialize says (parsing the redacted message of initialize and its
   * answer only). True when the answer to initialize was learned.
   */
  note(e: StoredEvent): boolean {
    this.firstSeq ??= e.seq;
    this.lastSeq = e.lastSeq;
    const { leg, direction, kind } = ROUTES[e.route]!;
    if (leg && direction && (kind === 'request' || kind === 'response' || kind === 'notification')) {
      const toServer = direction === 'to-server';
      this.count(leg === 'client', toServer, e.size);
      if (e.paired) this.count(leg !== 'client', toServer, e.size);
    }
    if (kind === 'notification') return false;
    if (this.serverEra === undefined && e.note === 'bridged') {
      this.serverEra = this.identity.era === 'modern' ? 'legacy' : 'modern';
      return true;
    }
    // A modern client says who it is in every request's `_meta`: learned from its first one.
    if (this.client === undefined && this.identity.era === 'modern' && kind === 'request' && e.origin === 'client' && onLeg(e, 'client')) return this.learnModernClient(e);
    if (kind === 'stderr' && e.text !== undefined) {
      this.stderrLines++;
      this.stderrTail.push(e.text);
      if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    }
    // The client's own initialize (in a debug session the hub is the client), not a replayed one.
    if (kind === 'request' && e.method === 'initialize' && (e.origin !== 'hub' || this.identity.debug)) {
      if (onLeg(e, 'client') || this.initializeId === undefined) {
        const params = object(object(parsed(e))?.params);
        this.initializeId = e.id ?? undefined;
        const client = info(params?.clientInfo);
        if (client) this.client = client;
        this.clientCapabilities = object(params?.capabilities) ?? this.clientCapabilities;
        if (typeof params?.protocolVersion === 'string') this.protocolVersion ??= params.protocolVersion;
      }
    }
    if (kind === 'response' && this.initializeId !== undefined && e.id === this.initializeId && onLeg(e, 'client')) {
      const answer = object(parsed(e));
      const result = object(answer?.result);
      if (result) {
        if (typeof result.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
        this.serverInfo = info(result.serverInfo) ?? this.serverInfo;
        this.serverCapabilities = object(result.capabilities) ?? this.serverCapabilities;
      } else if (this.state === 'live') {
        const error = object(answer?.error);
        this.fail(`initialize failed: ${typeof error?.message === 'string' ? error.message : 'no result'}`);
      }
      return true;
    }
    return false;
  }

  private learnModernClient(e: StoredEvent): boolean {
    const meta = object(object(object(parsed(e))?.params)?._meta);
    const client = info(meta?.[META.clientInfo]);
    if (!client) return false;
    this.client = client;
    this.clientCapabilities = object(meta?.[META.clientCapabilities]) ?? this.clientCapabilities;
    const version = meta?.[META.protocolVersion];
    if (typeof version === 'string') this.protocolVersion = version;
    return true;
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

  fail(reason: string, detail: { exitCode?: number | null | undefined; signal?: string | null | undefined; stderrTail?: string | undefined } = {}): void {
    this.state = 'failed';
    const failure: NonNullable<InspectorSession['failure']> = { reason };
    if (detail.exitCode !== undefined) failure.exitCode = detail.exitCode;
    if (detail.signal !== undefined) failure.signal = detail.signal;
    if (detail.stderrTail !== undefined) failure.stderrTail = detail.stderrTail;
    this.failure = failure;
  }

  /** A new upstream connection: after a failure, the hub restarted the server for this session. */
  upstreamOpened(): void {
    this.upstreamOpens++;
    if (this.state === 'failed' && this.endedAt === undefined) this.state = 'live';
  }

  /** The session ended. A session whose server had failed (and was not restarted) stays failed. */
  end(time: number, state: 'closed' | 'failed', reason: string | undefined): void {
    this.endedAt = time;
    if (state === 'failed') this.fail(reason ?? 'failed', this.failure ?? {});
    else if (this.state !== 'failed') this.state = 'closed';
    if (reason !== undefined && state === 'closed') this.endReason = reason;
  }

  summary(inMemory: boolean): InspectorSession {
    const s: InspectorSession = {
      id: this.identity.id,
      server: this.identity.server,
      transport: { client: this.identity.clientTransport, upstream: this.identity.upstreamTransport },
      debug: this.identity.debug,
      era: this.identity.era ?? 'legacy',
      startedAt: this.identity.startedAt,
      state: this.state,
      restarts: Math.max(0, this.upstreamOpens - 1),
      messages: { client: { ...this.messages.client }, upstream: { ...this.messages.upstream } },
      bytes: { client: { ...this.bytes.client }, upstream: { ...this.bytes.upstream } },
      exchanges: { total: this.tracker.exchangesSeen, ...this.tracker.counts },
      errors: this.tracker.counts.error + this.tracker.counts.timeout + this.tracker.counts.orphaned,
      stderrLines: this.stderrLines,
      dropped: this.dropCounter?.dropped ?? 0,
      inMemory,
    };
    if (this.client) s.client = this.client;
    if (this.identity.principal !== undefined) s.principal = this.identity.principal;
    if (this.protocolVersion) s.protocolVersion = this.protocolVersion;
    if (this.clientCapabilities) s.clientCapabilities = this.clientCapabilities;
    if (this.serverInfo) s.serverInfo = this.serverInfo;
    if (this.serverCapabilities) s.serverCapabilities = this.serverCapabilities;
    if (this.serverEra) s.serverEra = this.serverEra;
    if (this.endedAt !== undefined) s.endedAt = this.endedAt;
    if (this.failure) s.failure = this.failure;
    if (this.endReason) s.endReason = this.endReason;
    if (this.firstSeq !== undefined) s.firstSeq = this.firstSeq;
    if (this.lastSeq !== undefined) s.lastSeq = this.lastSeq;
    return s;
  }
}
