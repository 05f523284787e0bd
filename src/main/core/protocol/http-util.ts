import type { ServerResponse } from 'node:http';
import { errorResponse } from './json-rpc.js';

/** Answers with a JSON-RPC error body, `id: null`, as the spec's HTTP-level errors do. */
export function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, errorResponse(null, code, message), headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * What `accepts` answered per type and header: a client sends the same Accept header on every
 * request, and splitting it twice per POST was a few µs of the hub's per-message path. Bounded:
 * cleared when full, so a client that varies its header only costs the parse.
 */
const acceptMemo = new Map<string, boolean>();
const ACCEPT_MEMO_MAX = 64;

/** Whether an Accept header lists a media type (ignoring parameters; `*\/*` counts). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  const key = `${type}\n${accept}`;
  let answer = acceptMemo.get(key);
  if (answer === undefined) {
    answer = listsType(accept, type);
    if (acceptMemo.size >= ACCEPT_MEMO_MAX) acceptMemo.clear();
    acceptMemo.set(key, answer);
  }
  return answer;
}

function listsType(accept: string, type: string): boolean {
  for (const part of accept.split(',')) {
    const t = part.split(';')[0]!.trim().toLowerCase();
    if (t === type || t === '*/*' || t === `${type.split('/')[0]}/*`) return true;
  }
  return false;
}
