import { MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';

/** `/.well-known/mcp-config`: describes the hub; reveals no server names, paths or config (P25). */
export function wellKnown(version: string, tokenRequired: boolean): Record<string, unknown> {
  return {
    name: 'patchbay',
    version,
    transport: 'streamable-http',
    endpoint: '/mcp/{server}',
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS],
    // Both eras on every endpoint, whatever era the server behind it speaks: the hub bridges.
    eras: {
      legacy: { protocolVersions: SUPPORTED_PROTOCOL_VERSIONS, sessions: true, legacySse: '/sse/{server}' },
      modern: { protocolVersions: MODERN_PROTOCOL_VERSIONS, sessions: false },
    },
    authentication: tokenRequired ? 'bearer' : 'none',
  };
}
