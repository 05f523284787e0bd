/** JSON-RPC message shapes as the tests see them, and builders for the requests they send. */

export const LATEST = '2025-11-25';
export const SUPPORTED_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

export type JsonRpcId = string | number;
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: JsonRpcError;
}

export function isResponse(m: JsonRpcMessage): boolean {
  return m.method === undefined && ('result' in m || 'error' in m);
}

/** The text of the first text content block of a tools/call result. */
export function toolText(m: JsonRpcMessage): string {
  if (m.error) throw new Error(`expected a result, got error ${m.error.code}: ${m.error.message}`);
  const result = m.result as { content?: Array<{ type: string; text?: string }> } | undefined;
  const block = result?.content?.find((c) => c.type === 'text');
  if (!block || typeof block.text !== 'string') throw new Error(`no text content in ${JSON.stringify(m).slice(0, 300)}`);
  return block.text;
}

export function initializeRequest(id: JsonRpcId = 0, protocolVersion = LATEST, capabilities: Record<string, unknown> = {}): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities, clientInfo: { name: 'patchbay-hub-test', version: '1.0.0' } },
  };
}

export function toolCall(id: JsonRpcId, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): JsonRpcMessage {
  const params: Record<string, unknown> = { name, arguments: args };
  if (meta) params._meta = meta;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}
