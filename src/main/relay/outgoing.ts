/**
 * What the relay needs to know about a line its stdio client wrote: which requests it carries
 * (to answer them with an error if the hub cannot), and whether it is the `initialize` that a
 * lost session is re-created with. The line itself is forwarded untouched.
 */
import { classify, type JsonRpcId, type JsonRpcRequest } from '../core/index.js';

export interface Outgoing {
  /** The JSON text as the client wrote it, sent as the POST body. */
  raw: string;
  /** Ids of the requests in the line (one, or several in a 2025-03-26 batch). */
  requestIds: JsonRpcId[];
  /** The client's `initialize` request, when this line is one. */
  initialize?: JsonRpcRequest;
  /** True for `notifications/initialized`: the session is ready for its GET stream then. */
  initialized: boolean;
}

export type ParsedLine = { ok: true; value: Outgoing } | { ok: false; code: 'not-json' | 'not-json-rpc'; message: string };

export function parseOutgoing(raw: string): ParsedLine {
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
  return { ok: true, value: out };
}

/** One line of JSON text for stdio: re-serialised only when the server's text spans lines. */
export function oneLine(json: string): string {
  return json.includes('\n') || json.includes('\r') ? JSON.stringify(JSON.parse(json)) : json;
}
