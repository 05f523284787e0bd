/**
 * What the relay needs to know about a line its stdio client wrote: which requests it carries
 * (to answer them with an error if the hub cannot), whether it is the `initialize` that a lost
 * session is re-created with, and which protocol era it speaks: a message whose `_meta` names a
 * 2026-07-28-or-later revision is a modern one, sent on its own without a session (PROTOCOL Q1,
 * Q10). The line itself is forwarded untouched.
 */
import { isModernVersion, META } from '../../shared/protocol.js';
import { classify, type JsonRpcId, type JsonRpcRequest } from '../core/index.js';
import { scanMessage } from './message-scan.js';

/** A modern-era message (2026-07-28 basic/index `_meta`): no session, its own POST. */
export interface ModernLine {
  /**
   * The revision its `_meta` names, for the `MCP-Protocol-Version` header. Undefined when the
   * claim is not a string: the hub explains what is wrong with the envelope.
   */
  version: string | undefined;
  method: string;
  params: unknown;
  /** The request's id; undefined for a notification. */
  id?: JsonRpcId;
}

export interface Outgoing {
  /** The JSON text as the client wrote it, sent as the POST body. */
  raw: string;
  /** Ids of the requests in the line (one, or several in a 2025-03-26 batch). */
  requestIds: JsonRpcId[];
  /** The client's `initialize` request, when this line is one. */
  initialize?: JsonRpcRequest;
  /** True for `notifications/initialized`: the session is ready for its GET stream then. */
  initialized: boolean;
  /** Set for a modern-era message (one message, not a batch). */
  modern?: ModernLine;
  /** For `notifications/cancelled` (either era): the id of the request it cancels. */
  cancels?: JsonRpcId;
}

export type ParsedLine = { ok: true; value: Outgoing } | { ok: false; code: 'not-json' | 'not-json-rpc'; message: string };

export function parseOutgoing(raw: string): ParsedLine {
  // Most lines need only their kind and id, which a scan finds without parsing (message-scan.ts).
  // Parsed in full: a line that may be modern (its `_meta` claim is read, and its params give the
  // modern headers), initialize (kept for replays), a cancellation (its request id), a batch, and
  // anything the scan cannot read (to say why it is skipped).
  if (!raw.includes('protocolVersion')) {
    const m = scanMessage(raw);
    if (m && m.method !== 'initialize' && m.method !== 'notifications/cancelled') {
      return { ok: true, value: { raw, requestIds: m.kind === 'request' ? [m.id!] : [], initialized: m.kind === 'notification' && m.method === 'notifications/initialized' } };
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { ok: false, code: 'not-json', message: `skipped a line that is not JSON: ${(err as Error).message}` };
  }
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  const out: Outgoing = { raw, requestIds: [], initialized: false };
  let known = 0;
  for (const m of list) {
    const kind = classify(m);
    if (kind === undefined) continue;
    known++;
    const message = m as { id?: JsonRpcId; method?: string };
    if (kind === 'request') {
      out.requestIds.push(message.id!);
      if (message.method === 'initialize' && !Array.isArray(value)) out.initialize = m as JsonRpcRequest;
    } else if (kind === 'notification' && message.method === 'notifications/initialized') {
      out.initialized = true;
    }
  }
  // Like a stdio server, the relay skips (and logs) what is not JSON-RPC rather than dying (P29).
  if (known === 0) return { ok: false, code: 'not-json-rpc', message: 'the line is JSON but not a JSON-RPC 2.0 message' };
  if (!Array.isArray(value)) {
    const message = value as { id?: JsonRpcId; method?: unknown; params?: unknown };
    if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') out.cancels = requestId;
    }
    const modern = modernLine(message);
    if (modern) out.modern = modern;
  }
  return { ok: true, value: out };
}

/**
 * The modern-era reading of one request or notification, or undefined for a legacy one. Modern:
 * `params._meta` carries the protocol-version claim and it names a revision from 2026-07-28 on;
 * a claim that is not a string at all is modern too (the hub answers it with the envelope's
 * problem). A string naming an older or unknown revision stays on the legacy path, as before.
 */
function modernLine(message: { id?: JsonRpcId; method?: unknown; params?: unknown }): ModernLine | undefined {
  if (typeof message.method !== 'string') return undefined;
  const params = message.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || !(META.protocolVersion in meta)) return undefined;
  const claim = (meta as Record<string, unknown>)[META.protocolVersion];
  if (typeof claim === 'string' && !isModernVersion(claim)) return undefined;
  const line: ModernLine = { version: typeof claim === 'string' ? claim : undefined, method: message.method, params };
  if ('id' in message && message.id !== undefined) line.id = message.id;
  return line;
}

/** One line of JSON text for stdio: re-serialised only when the server's text spans lines. */
export function oneLine(json: string): string {
  return json.includes('\n') || json.includes('\r') ? JSON.stringify(JSON.parse(json)) : json;
}
