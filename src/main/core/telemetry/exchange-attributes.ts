/**
 * An exchange in the words of the MCP semantic conventions (open-telemetry/semantic-conventions-
 * genai, docs/gen-ai/mcp.md, status Development): span names, `error.type`, and the attributes
 * of the SERVER side (the client's request to the hub) and the CLIENT side (the hub's request to
 * the server) — on spans, and the low-cardinality subset on the duration metrics. Patchbay's own
 * attributes go under `patchbay.`.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ExchangeSession, ObservedExchange } from '../traffic/observed-exchange.js';

/** `server.address` / `server.port` of a remote server (from its configured URL). */
export interface PeerAddress {
  readonly address: string;
  readonly port: number;
}

/** Which span of an exchange: the hub serving the client, or the hub as the server's client. */
export type Side = 'server' | 'client';

/** What the attributes need besides the exchange. */
export interface AttributeContext {
  /** The inspector's redaction (secret values masked in every encoding it knows). */
  readonly redact: (text: string) => string;
  /** The remote server's address, for the CLIENT side (undefined: stdio, or unknown). */
  readonly peer: PeerAddress | undefined;
}

/** A session a stage of the hub holds toward a server (a profile's member, the era bridge's): only its CLIENT spans are made. */
export function isStage(session: ExchangeSession): boolean {
  return session.clientTransport === 'profile' || session.clientTransport === 'bridge';
}

/**
 * `error.type`: the JSON-RPC code of an error answer, `tool_error` for a tool result with
 * `isError: true`, else the hub's own reason (`cancelled`, `timeout`, `upstream_closed`,
 * `session_closed`, `session_ended`, `input_never_given`, `id_reused`); undefined when it succeeded.
 */
export function errorType(x: ObservedExchange): string | undefined {
  const error = x.error;
  if (error === undefined) return undefined;
  if (error.kind === 'jsonrpc') return error.code !== undefined ? String(error.code) : '_OTHER';
  return error.kind;
}

/** `{mcp.method.name} {target}` with the tool or prompt name; never the resource URI (high cardinality). */
export function spanName(x: ObservedExchange): string {
  const method = x.request.method;
  const target = x.request.target;
  return target !== undefined && (method === 'tools/call' || method === 'prompts/get') ? `${method} ${target}` : method;
}

/** `network.*` of how a client reached the hub. */
function clientNetwork(transport: string, out: Attributes): void {
  if (transport === 'streamable-http' || transport === 'sse') {
    out['network.transport'] = 'tcp';
    out['network.protocol.name'] = 'http';
  }
}

/** `network.*` of how the hub reaches a server (its configured transport label). */
function serverNetwork(transport: string, out: Attributes): void {
  if (transport.startsWith('stdio')) out['network.transport'] = 'pipe';
  else if (transport === 'streamable-http' || transport === 'http' || transport === 'sse') {
    out['network.transport'] = 'tcp';
    out['network.protocol.name'] = 'http';
  }
}

/**
 * The attributes both the spans and the duration metrics carry (the metrics' whole set): what
 * is asked, how it ended, the protocol and the network, and which server and profile.
 */
export function metricAttributes(x: ObservedExchange, side: Side, ctx: AttributeContext): Attributes {
  const out: Attributes = { 'mcp.method.name': x.request.method };
  const method = x.request.method;
  const target = x.request.target;
  if (target !== undefined && method === 'tools/call') {
    out['gen_ai.tool.name'] = ctx.redact(target);
    out['gen_ai.operation.name'] = 'execute_tool';
  } else if (target !== undefined && method === 'prompts/get') out['gen_ai.prompt.name'] = ctx.redact(target);
  const type = errorType(x);
  if (type !== undefined) out['error.type'] = type;
  if (x.error?.code !== undefined) out['rpc.response.status_code'] = String(x.error.code);
  if (x.protocolVersion !== undefined) out['mcp.protocol.version'] = x.protocolVersion;
  const session = x.session;
  if (side === 'server') clientNetwork(session.clientTransport, out);
  else {
    serverNetwork(session.upstreamTransport, out);
    if (ctx.peer !== undefined) {
      out['server.address'] = ctx.peer.address;
      out['server.port'] = ctx.peer.port;
    }
  }
  out['patchbay.server'] = session.serverId;
  // A member's session names its profile; a client's session with a profile is the profile's own.
  if (session.profile !== undefined) out['patchbay.profile'] = session.profile.id;
  else if (session.upstreamTransport === 'profile') out['patchbay.profile'] = session.serverId;
  return out;
}

/** A span's attributes: the metrics' set, and what identifies this one request. */
export function spanAttributes(x: ObservedExchange, side: Side, ctx: AttributeContext): Attributes {
  const out = metricAttributes(x, side, ctx);
  out['jsonrpc.request.id'] = ctx.redact(String(x.request.id));
  if (x.request.method === 'resources/read' && x.request.target !== undefined) out['mcp.resource.uri'] = ctx.redact(x.request.target);
  // The client's session with the hub (2025 HTTP); the hub's own link to a server has no id it knows.
  if (side === 'server' && x.session.mcpSessionId !== undefined) out['mcp.session.id'] = x.session.mcpSessionId;
  out['patchbay.era.client'] = x.eras.client;
  out['patchbay.era.server'] = x.eras.server;
  out['patchbay.bridged'] = x.eras.bridged;
  out['patchbay.exchange.id'] = x.id;
  if (x.session.principal !== undefined) out['patchbay.principal'] = x.session.principal;
  return out;
}
