/**
 * The MCP conventions' duration metrics (seconds, histograms with the conventions' bucket
 * boundaries), recorded from completed exchanges and ended sessions, sampled or not:
 *
 * - `mcp.server.operation.duration`: a client's request to the hub, as the client waited for it.
 * - `mcp.client.operation.duration`: the hub's request to a server (the upstream leg; a profile's
 *   member and the era bridge's session are the hub's requests too).
 * - `mcp.server.session.duration`: a 2025 client's session with the hub.
 * - `mcp.client.session.duration`: a 2025 session the hub held with a server (a client's own, a
 *   profile member's, the era bridge's). 2026-07-28 traffic has no sessions.
 */
import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { ExchangeSession, ObservedExchange } from '../traffic/observed-exchange.js';
import type { EndedSession } from '../traffic/exchange-feed.js';
import { isStage, metricAttributes, type AttributeContext, type PeerAddress } from './exchange-attributes.js';

/** The boundaries the conventions give every MCP duration histogram. */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

function histogram(meter: Meter, name: string, description: string): Histogram {
  return meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS } });
}

/** `network.*` of a session's side, as on its spans. */
function networkOf(transport: string, side: 'server' | 'client', out: Attributes): void {
  const http = transport === 'streamable-http' || transport === 'sse' || (side === 'client' && transport === 'http');
  if (side === 'client' && transport.startsWith('stdio')) out['network.transport'] = 'pipe';
  else if (http) {
    out['network.transport'] = 'tcp';
    out['network.protocol.name'] = 'http';
  }
}

/** True when the exchange's upstream leg is a request the hub made to a server itself (not to a stage of its own). */
function upstreamIsServer(x: ObservedExchange): boolean {
  const session = x.session;
  if (isStage(session)) return true;
  if (session.upstreamTransport === 'profile' || x.upstreamDurationMs === undefined) return false;
  // A 2026-07-28 client's call bridged to a 2025 server: the bridge's own session made that request.
  return !(x.eras.bridged && x.eras.client === 'modern');
}

/** The four duration histograms, recorded from the exchange feed and the ended sessions. */
export class McpMetrics {
  private readonly serverOperation: Histogram;
  private readonly clientOperation: Histogram;
  private readonly serverSession: Histogram;
  private readonly clientSession: Histogram;

  constructor(meter: Meter) {
    this.serverOperation = histogram(meter, 'mcp.server.operation.duration', 'MCP request duration as observed on the receiver from the time it was received until the result is sent.');
    this.clientOperation = histogram(meter, 'mcp.client.operation.duration', 'The duration of the MCP request as observed on the sender from the time it was sent until the response is received.');
    this.serverSession = histogram(meter, 'mcp.server.session.duration', 'The duration of the MCP session as observed on the MCP server.');
    this.clientSession = histogram(meter, 'mcp.client.session.duration', 'The duration of the MCP session as observed on the MCP client.');
  }

  /** A completed request of a client or of the hub (server→client requests are events, not operations here). */
  exchange(x: ObservedExchange, ctx: AttributeContext): void {
    if (x.session.debug || (x.requester !== 'client' && x.requester !== 'hub')) return;
    if (x.requester === 'client' && !isStage(x.session)) this.serverOperation.record(x.durationMs / 1000, metricAttributes(x, 'server', ctx));
    if (upstreamIsServer(x)) {
      const seconds = (isStage(x.session) ? x.durationMs : x.upstreamDurationMs!) / 1000;
      this.clientOperation.record(seconds, metricAttributes(x, 'client', ctx));
    }
  }

  /** A session ended: the client's with the hub, and the one the hub held with the server. */
  sessionEnded(ended: EndedSession, peer: PeerAddress | undefined): void {
    const session = ended.session;
    if (session.debug || session.era !== 'legacy') return;
    const seconds = Math.max(0, ended.endedAt - ended.startedAt) / 1000;
    if (!isStage(session) && session.clientTransport !== 'playground') this.serverSession.record(seconds, this.sessionAttributes(ended, session, 'server', undefined));
    if (session.upstreamTransport !== 'profile' && ended.serverEra !== 'modern') this.clientSession.record(seconds, this.sessionAttributes(ended, session, 'client', peer));
  }

  private sessionAttributes(ended: EndedSession, session: ExchangeSession, side: 'server' | 'client', peer: PeerAddress | undefined): Attributes {
    const out: Attributes = {};
    if (ended.protocolVersion !== undefined) out['mcp.protocol.version'] = ended.protocolVersion;
    if (ended.state === 'failed') out['error.type'] = 'session_failed';
    networkOf(side === 'server' ? session.clientTransport : session.upstreamTransport, side, out);
    if (peer !== undefined) {
      out['server.address'] = peer.address;
      out['server.port'] = peer.port;
    }
    out['patchbay.server'] = session.serverId;
    if (session.profile !== undefined) out['patchbay.profile'] = session.profile.id;
    return out;
  }
}
