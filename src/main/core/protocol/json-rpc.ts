/**
 * Just enough JSON-RPC 2.0 to route messages without re-validating their payloads: the hub is a
 * pass-through, so it classifies a message by its envelope and never rewrites its body (except
 * the ids in shared mode). Payload validation is the two ends' job.
 */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type MessageKind = 'request' | 'notification' | 'response';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The kind of a JSON-RPC 2.0 message, or undefined when the value is not one. */
export function classify(value: unknown): MessageKind | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isObject(value.params) && !Array.isArray(value.params)) return undefined;
    if ('id' in value) return isId(value.id) ? 'request' : undefined;
    return 'notification';
  }
  if ('id' in value && (isId(value.id) || value.id === null)) {
    const hasResult = 'result' in value;
    const hasError = isObject(value.error) && typeof value.error.code === 'number';
    if (hasResult !== hasError) return 'response';
  }
  return undefined;
}

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m;
}
export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return 'method' in m && !('id' in m);
}
export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !('method' in m);
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

/** The progress token a request asked for, if any (`params._meta.progressToken`). */
export function progressTokenOf(m: JsonRpcMessage): JsonRpcId | undefined {
  const params = (m as { params?: unknown }).params;
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  if (!isObject(meta)) return undefined;
  return isId(meta.progressToken) ? meta.progressToken : undefined;
}

/** Map key for an id: 1 and "1" are different ids. */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}
