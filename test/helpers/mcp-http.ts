/**
 * Streamable HTTP requests to the hub's `/mcp/<server>` with fetch: the headers a client sends
 * (token, session, version, Accept, Content-Type), each overridable so a test can send them wrong,
 * and readers for what comes back (a JSON-RPC error body; every message of a JSON or SSE answer).
 * Response bodies a test leaves open are cancelled after it.
 */
import { onCleanup } from './cleanup.js';
import type { JsonRpcError, JsonRpcMessage } from './json-rpc.js';
import { messagesOf, SseReader, type SseItem } from './sse.js';
import type { TestHub } from './test-hub.js';
import { withTimeout } from './waits.js';

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** What the requests need of a hub: its MCP URLs and its token header. */
type McpEndpoint = Pick<TestHub, 'mcpUrl' | 'authHeader'>;

export interface PostOptions {
  sessionId?: string;
  protocolVersion?: string;
  /** Default ACCEPT_BOTH; null sends no Accept header. */
  accept?: string | null;
  /** Default application/json; null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Default true: send the hub token. */
  auth?: boolean;
}

function requestHeaders(hub: McpEndpoint, o: PostOptions, defaults: { accept: string; contentType: string | null }): Record<string, string> {
  const h: Record<string, string> = {};
  const accept = o.accept === undefined ? defaults.accept : o.accept;
  if (accept !== null) h.Accept = accept;
  const contentType = o.contentType === undefined ? defaults.contentType : o.contentType;
  if (contentType !== null) h['Content-Type'] = contentType;
  if (o.auth !== false) Object.assign(h, hub.authHeader());
  if (o.sessionId !== undefined) h['Mcp-Session-Id'] = o.sessionId;
  if (o.protocolVersion !== undefined) h['MCP-Protocol-Version'] = o.protocolVersion;
  return { ...h, ...(o.headers ?? {}) };
}

/** POSTs a body (a value is JSON-encoded; a string is sent as is) to /mcp/<serverId>. */
export async function post(hub: McpEndpoint, serverId: string, body: unknown, o: PostOptions = {}): Promise<Response> {
  const res = await fetch(hub.mcpUrl(serverId), {
    method: 'POST',
    headers: requestHeaders(hub, o, { accept: ACCEPT_BOTH, contentType: 'application/json' }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  trackResponse(res);
  return res;
}

export async function get(hub: McpEndpoint, serverId: string, o: PostOptions & { lastEventId?: string } = {}): Promise<Response> {
  const headers = requestHeaders(hub, o, { accept: 'text/event-stream', contentType: null });
  if (o.lastEventId !== undefined) headers['Last-Event-ID'] = o.lastEventId;
  const res = await fetch(hub.mcpUrl(serverId), { method: 'GET', headers, ...(o.signal ? { signal: o.signal } : {}) });
  trackResponse(res);
  return res;
}

export async function del(hub: McpEndpoint, serverId: string, o: PostOptions = {}): Promise<Response> {
  const res = await fetch(hub.mcpUrl(serverId), {
    method: 'DELETE',
    headers: requestHeaders(hub, o, { accept: ACCEPT_BOTH, contentType: null }),
  });
  trackResponse(res);
  return res;
}

/** Open response bodies are cancelled after the test so no connection outlives it. */
function trackResponse(res: Response): void {
  onCleanup(() => {
    if (res.body && !res.bodyUsed) return res.body.cancel().catch(() => undefined);
    return undefined;
  });
}

/** Reads a JSON error body and checks its JSON-RPC shape. */
export async function jsonRpcErrorOf(res: Response): Promise<JsonRpcMessage & { error: JsonRpcError }> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!type.includes('application/json')) throw new Error(`expected a JSON body, got ${type}: ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as JsonRpcMessage;
  if (body.jsonrpc !== '2.0' || !body.error || typeof body.error.code !== 'number' || typeof body.error.message !== 'string') {
    throw new Error(`not a JSON-RPC error body: ${text.slice(0, 300)}`);
  }
  return body as JsonRpcMessage & { error: JsonRpcError };
}

/** Reads every JSON-RPC message of a response, whether it is JSON or an SSE stream. */
export async function messagesOfResponse(res: Response, timeoutMs = 10_000): Promise<{ messages: JsonRpcMessage[]; items: SseItem[] }> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const reader = new SseReader(res.body!);
    const items = await reader.rest(timeoutMs);
    return { messages: messagesOf(items), items };
  }
  const text = await withTimeout(res.text(), timeoutMs, 'a JSON response body');
  if (text === '') return { messages: [], items: [] };
  const value = JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
  return { messages: Array.isArray(value) ? value : [value], items: [] };
}
