/**
 * What the capture pipeline knows of one session, from its events alone: who it is (server,
 * transports, era, principal, profile), what it learned from the traffic (the client from
 * initialize or a modern request's `_meta`, the negotiated version and capabilities, the server's
 * era once a bridge was crossed), its state (live, closed, failed and why), and its pairing.
 * The inspector's record of the session (inspector/session-record.ts) adds what it stores: the
 * events, counts and bytes, stderr.
 */
import type { CaptureEra, CaptureLeg, InspectorSession, InspectorSessionState } from '../../../shared/api/inspector-contract.js';
import { META } from '../../../shared/protocol.js';
import { ExchangeTracker, type PairingInput } from './exchange-tracker.js';
import type { HttpMemo } from './http-capture.js';
import type { ExchangeSession } from './observed-exchange.js';

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
  /** `relay`: the client came through `patchbay relay` (hub/observer.ts). */
  via?: 'relay';
  /** Its `Mcp-Session-Id`, when it has one (hub/observer.ts). */
  mcpSessionId?: string;
}

/** A session a profile opened to one of its members: the profile, and the captured session it serves. */
export interface SessionProfile {
  readonly id: string;
  /** The id of the client's session the member's session serves, when that one was captured. */
  readonly parentSession: string | undefined;
}

function object(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function info(v: unknown): { name: string; version?: string } | undefined {
  const o = object(v);
  if (!o || typeof o.name !== 'string') return undefined;
  return typeof o.version === 'string' ? { name: o.name, version: o.version } : { name: o.name };
}

/** The event is on this leg (a pass-through pair is on both). */
function onLeg(e: PairingInput, paired: boolean, leg: CaptureLeg): boolean {
  return e.leg === leg || (paired && e.leg !== undefined && e.leg !== leg);
}

export class TrafficSession {
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
  /** The last client request's HTTP details (redacted), shared while they stay the same. */
  lastHttp: HttpMemo | undefined;
  /** Where dropped items are counted (the session's tap), read live. */
  dropCounter: { readonly dropped: number } | undefined;
  /** The sink's own slot for what it keeps of this session (the inspector's record). */
  sinkState: unknown = undefined;
  /** Redacted request params of open exchanges, while a subscriber wants texts (exchange-feed.ts). */
  requestTexts: Map<object, string> | undefined;
  /** The id of the client's own initialize request, to recognise its answer. */
  private initializeId: string | number | undefined;
  private view: ExchangeSession | undefined;

  constructor(
    readonly identity: SessionIdentity,
    readonly profile: SessionProfile | undefined,
    maxExchanges: number,
    scrub: (text: string) => string,
  ) {
    this.tracker = new ExchangeTracker(identity.id, identity.server, maxExchanges, () => this.client?.name, scrub, identity.era ?? 'legacy');
  }

  get id(): string {
    return this.identity.id;
  }

  /** The session as exchange subscribers see it: one object, remade only when the transport changes. */
  get observed(): ExchangeSession {
    const identity = this.identity;
    let view = this.view;
    if (view === undefined || view.upstreamTransport !== identity.upstreamTransport) {
      view = { id: identity.id, serverId: identity.server, clientTransport: identity.clientTransport, upstreamTransport: identity.upstreamTransport, debug: identity.debug, era: identity.era ?? 'legacy' };
      if (identity.principal !== undefined) view.principal = identity.principal;
      if (identity.via !== undefined) view.via = identity.via;
      if (identity.mcpSessionId !== undefined) view.mcpSessionId = identity.mcpSessionId;
      if (this.profile !== undefined) view.profile = this.profile.parentSession === undefined ? { id: this.profile.id } : { id: this.profile.id, parentSession: this.profile.parentSession };
      this.view = Object.freeze(view);
    }
    return view;
  }

  /**
   * Learns what a message says about the session: the client and versions from initialize and
   * its answer, a modern client from its first request's `_meta`, the server's era from the first
   * bridged message. `json` gives the message's redacted text (parsed only for those few
   * messages). True when something was learned (the session's summary changed).
   */
  learn(e: PairingInput, paired: boolean, json: () => string | undefined): boolean {
    const kind = e.kind;
    if (kind === 'notification') return false;
    if (this.serverEra === undefined && e.note === 'bridged') {
      this.serverEra = this.identity.era === 'modern' ? 'legacy' : 'modern';
      return true;
    }
    // A modern client says who it is in every request's `_meta`: learned from its first one.
    if (this.client === undefined && this.identity.era === 'modern' && kind === 'request' && e.origin === 'client' && onLeg(e, paired, 'client')) return this.learnModernClient(parse(json()));
    // The client's own initialize (in a debug session the hub is the client), not a replayed one.
    if (kind === 'request' && e.method === 'initialize' && (e.origin !== 'hub' || this.identity.debug)) {
      if (onLeg(e, paired, 'client') || this.initializeId === undefined) {
        const params = object(object(parse(json()))?.params);
        this.initializeId = e.id ?? undefined;
        const client = info(params?.clientInfo);
        if (client) this.client = client;
        this.clientCapabilities = object(params?.capabilities) ?? this.clientCapabilities;
        if (typeof params?.protocolVersion === 'string') this.protocolVersion ??= params.protocolVersion;
      }
    }
    if (kind === 'response' && this.initializeId !== undefined && e.id === this.initializeId && onLeg(e, paired, 'client')) {
      const answer = object(parse(json()));
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

  private learnModernClient(message: unknown): boolean {
    const meta = object(object(object(message)?.params)?._meta);
    const client = info(meta?.[META.clientInfo]);
    if (!client) return false;
    this.client = client;
    this.clientCapabilities = object(meta?.[META.clientCapabilities]) ?? this.clientCapabilities;
    const version = meta?.[META.protocolVersion];
    if (typeof version === 'string') this.protocolVersion = version;
    return true;
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
}

/** The redacted text parsed (a truncated message is a JSON string: nothing to learn from it). */
function parse(json: string | undefined): unknown {
  return json === undefined ? undefined : JSON.parse(json);
}
