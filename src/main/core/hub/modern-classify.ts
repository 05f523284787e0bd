/**
 * Which era an HTTP POST to `/mcp/<server>` speaks, decided from its body first (the `_meta`
 * envelope) with the headers as a cross-check — the order the spec's server validation and the
 * official SDK's HTTP entry use (PROTOCOL Q1–Q3, 2026-07-28 basic/transports "Server Validation").
 * A request that fails several checks is answered by the earliest; every error echoes the request's
 * id. Pure: headers and the parsed body in, a route or a rejection out.
 */
import { ErrorCode, isModernVersion, MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../protocol/json-rpc.js';
import { decodeHeaderValue, envelopeIssues, envelopeVersion, hasEnvelopeClaim, metaOf, nameSource, trimOws } from '../protocol/modern.js';

/** The headers classification reads (values as received; undefined when absent). */
export interface ModernHeaders {
  protocolVersion: string | undefined;
  method: string | undefined;
  name: string | undefined;
}

export type Route =
  | { kind: 'legacy' }
  | { kind: 'modern'; message: JsonRpcRequest | JsonRpcNotification; version: string }
  | { kind: 'reject'; status: number; id: JsonRpcId | null; code: number; message: string; data?: unknown };

const SERVED = new Set<string>(MODERN_PROTOCOL_VERSIONS);
const LEGACY = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

function reject(id: JsonRpcId | null, status: number, code: number, message: string, data?: unknown): Route {
  return data === undefined ? { kind: 'reject', status, id, code, message } : { kind: 'reject', status, id, code, message, data };
}

function mismatch(id: JsonRpcId | null, message: string): Route {
  return reject(id, 400, ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** Classifies one parsed JSON-RPC body (a batch is `messages.length > 1` or `batch`). */
export function classifyPost(headers: ModernHeaders, messages: readonly JsonRpcMessage[], batch: boolean): Route {
  const h = {
    protocolVersion: headers.protocolVersion === undefined ? undefined : trimOws(headers.protocolVersion),
    method: headers.method === undefined ? undefined : trimOws(headers.method),
    name: headers.name === undefined ? undefined : trimOws(headers.name),
  };
  const headerModern = h.protocolVersion !== undefined && isModernVersion(h.protocolVersion);
  if (batch) {
    if (messages.some((m) => 'method' in m && hasEnvelopeClaim(m.params))) {
      return reject(null, 400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later');
    }
    return { kind: 'legacy' };
  }
  const message = messages[0]!;
  if (!('method' in message)) return headerModern ? reject(null, 400, ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC responses cannot be posted in protocol revision 2026-07-28') : { kind: 'legacy' };
  const id = 'id' in message ? message.id : null;
  const params = message.params;

  if (message.method === 'initialize' && !(hasEnvelopeClaim(params) && isModernVersion(envelopeVersion(params) ?? ''))) {
    if (headerModern) return mismatch(id, `an initialize request (the legacy handshake) was sent with MCP-Protocol-Version ${h.protocolVersion}`);
    return { kind: 'legacy' };
  }

  if (hasEnvelopeClaim(params)) {
    const meta = metaOf(params)!;
    const issue = 'id' in message ? envelopeIssues(meta)[0] : undefined;
    const claimed = envelopeVersion(params);
    if (issue) return reject(id, 400, ErrorCode.InvalidParams, `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`, { envelope: issue });
    if (claimed === undefined) return reject(id, 400, ErrorCode.InvalidParams, 'Invalid _meta envelope: io.modelcontextprotocol/protocolVersion: expected a protocol version string');
    if (h.protocolVersion !== undefined && h.protocolVersion !== claimed) return mismatch(id, `the body names protocol version ${claimed} but the MCP-Protocol-Version header names ${h.protocolVersion}`);
    if (h.method !== undefined && h.method !== message.method) return mismatch(id, `the body names method ${message.method} but the Mcp-Method header names ${h.method}`);
    // A legacy revision in an envelope is a legacy request; anything else it names is the modern
    // era's to answer (an unknown revision gets -32022 there, with the request's id).
    if (LEGACY.has(claimed)) return { kind: 'legacy' };
    return modernRoute(h, message, claimed, id);
  }

  if (headerModern) {
    if (!('id' in message)) {
      if (h.method !== undefined && h.method !== message.method) return mismatch(id, `the body names method ${message.method} but the Mcp-Method header names ${h.method}`);
      return modernRoute(h, message, h.protocolVersion!, id);
    }
    const meta = metaOf(params) ?? {};
    const missing = envelopeIssues(meta).filter((i) => i.problem === 'missing').map((i) => i.key);
    return reject(id, 400, ErrorCode.InvalidParams, `Invalid params: the MCP-Protocol-Version header names protocol revision ${h.protocolVersion}, but the request is missing the per-request _meta envelope key(s): ${(missing.length ? missing : ['io.modelcontextprotocol/protocolVersion']).join(', ')}`, { envelope: { missing } });
  }
  return { kind: 'legacy' };
}

/** A modern message: the revision must be served, then the standard headers checked (requests only). */
function modernRoute(h: ModernHeaders, message: JsonRpcRequest | JsonRpcNotification, version: string, id: JsonRpcId | null): Route {
  if (!SERVED.has(version)) {
    // Only the modern revisions: the list a DiscoverResult gives (the legacy ones are reached by
    // `initialize`, not by an envelope), so a client can pick from it and retry.
    return reject(id, 400, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${version}`, { supported: [...MODERN_PROTOCOL_VERSIONS].reverse(), requested: version });
  }
  if (!('id' in message)) return { kind: 'modern', message, version };
  if (h.protocolVersion === undefined) return mismatch(id, `the body names protocol version ${version} but the required MCP-Protocol-Version header is absent`);
  if (h.method === undefined) return mismatch(id, `the body names method ${message.method} but the required Mcp-Method header is absent`);
  const source = nameSource(message.method, message.params);
  if (source?.value !== undefined) {
    if (h.name === undefined) return mismatch(id, `the body carries params.${source.field}="${source.value}" but the required Mcp-Name header is absent`);
    const decoded = decodeHeaderValue(h.name);
    if (decoded === undefined) return mismatch(id, 'the Mcp-Name header carries an invalid value (characters a header may not hold, or a malformed =?base64?…?= sentinel)');
    if (decoded !== source.value) return mismatch(id, `the body carries params.${source.field}="${source.value}" but the Mcp-Name header names "${decoded}"`);
  }
  return { kind: 'modern', message, version };
}
