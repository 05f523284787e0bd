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

/** Whether an Accept header lists a media type (ignoring parameters; `*\/*` counts). */
export function accepts(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  for (const part of accept.split(',')) {
    const t = part.split(';')[0]!.trim().toLowerCase();
    if (t === type || t === '*/*' || t === `${type.split('/')[0]}/*`) return true;
  }
  return false;
}
