/** Protocol constants shared by the engine and the UI. */

/** MCP revisions the hub serves (PROTOCOL.md). Checked against the request header, not the negotiated value. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** What a request without `MCP-Protocol-Version` is assumed to speak (spec: basic/transports). */
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';

/** Error codes the hub itself uses; upstream JSON-RPC errors pass through untouched. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InternalError: -32603,
  /** Unauthorized, or session not found (per the spec's examples). */
  Unauthorized: -32001,
  SessionNotFound: -32001,
  /** Application errors, e.g. a missing session header. */
  ServerError: -32000,
} as const;

export const HEADER_SESSION_ID = 'Mcp-Session-Id';
export const HEADER_PROTOCOL_VERSION = 'Mcp-Protocol-Version';
