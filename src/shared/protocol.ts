/** Protocol constants shared by the engine and the UI. */

/**
 * The legacy-era MCP revisions the hub serves (PROTOCOL.md): those that open with `initialize`.
 * Checked against the request header, not the negotiated value.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/**
 * The modern-era revisions the hub serves (PROTOCOL.md section I): no `initialize`, no sessions,
 * every request carrying its version and the client's capabilities in `_meta`.
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every revision the hub serves, oldest first. */
export const ALL_PROTOCOL_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS] as const;

/** The `_meta` keys of the modern era's per-request envelope and results (2026-07-28, basic/index). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The `_meta` key that marks a playground request an MCP App made (its `tools/call`); the inspector shows it. */
export const APP_ORIGIN_META_KEY = 'patchbay/origin';

/** The MCP Apps extension (SEP-1865) as a host that renders apps declares it (`capabilities.extensions`). */
export const MCP_APPS_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } as const;

/**
 * What a client that can answer every request a server may make, and render MCP Apps, declares.
 * The playground is such a client, and a profile's inventory asks its members as one: a server
 * may offer some tools only to clients with sampling, elicitation or roots (server-everything
 * does), or only to hosts that render apps (ext-apps' `getUiCapability` pattern), so a profile's
 * counts and token cost are those of its fullest client, and equal its playground's lists.
 */
export const FULL_CLIENT_CAPABILITIES = { sampling: {}, elicitation: {}, roots: { listChanged: true }, extensions: MCP_APPS_EXTENSION } as const;

/** FULL_CLIENT_CAPABILITIES's own capabilities (`sampling`, `elicitation`, `roots`); its extensions are checked one by one. */
const REQUEST_CAPABILITIES = Object.keys(FULL_CLIENT_CAPABILITIES).filter((k) => k !== 'extensions');

/** Whether a client's declared capabilities include every one of FULL_CLIENT_CAPABILITIES (the MCP Apps extension among its extensions). */
export function isFullClient(capabilities: unknown): boolean {
  if (capabilities === null || typeof capabilities !== 'object') return false;
  const declared = capabilities as Record<string, unknown>;
  if (!REQUEST_CAPABILITIES.every((k) => declared[k] !== undefined)) return false;
  const extensions = declared.extensions as Record<string, unknown> | undefined;
  return typeof extensions === 'object' && extensions !== null && Object.keys(MCP_APPS_EXTENSION).every((k) => extensions[k] !== undefined);
}

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
  InvalidParams: -32602,
  /** Modern era: HTTP headers disagree with the body, or a required one is missing (SEP-2243). */
  HeaderMismatch: -32020,
  /** Modern era: a request needs a client capability the envelope does not declare. */
  MissingRequiredClientCapability: -32021,
  /** Modern era: the requested protocol version is not served (`data: { supported, requested }`). */
  UnsupportedProtocolVersion: -32022,
} as const;

export const HEADER_SESSION_ID = 'Mcp-Session-Id';
export const HEADER_PROTOCOL_VERSION = 'Mcp-Protocol-Version';
export const HEADER_METHOD = 'Mcp-Method';
/**
 * The product `patchbay relay` names itself by in its User-Agent, so the hub can say a session came
 * through the relay (the audit trail's `relay`). A claim, like a clientInfo name: the token the
 * request carries is what authenticates it.
 */
export const RELAY_USER_AGENT = 'patchbay-relay';
export const HEADER_NAME = 'Mcp-Name';
/** `Mcp-Param-{name}`: a tool parameter mirrored into a header (`x-mcp-header`). */
export const HEADER_PARAM_PREFIX = 'Mcp-Param-';

/** Whether a revision string names the modern era (a date from 2026-07-28 on, served or not). */
export function isModernVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}

/** The era a server's `protocol` setting pins, or undefined for `auto` (the hub finds out). */
export function eraOfSetting(protocol: string | undefined): { era: 'legacy' | 'modern'; pinned?: string } | undefined {
  if (protocol === undefined || protocol === 'auto') return undefined;
  if (protocol === 'legacy' || protocol === 'modern') return { era: protocol };
  return { era: isModernVersion(protocol) ? 'modern' : 'legacy', pinned: protocol };
}
