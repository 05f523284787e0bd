/**
 * The relay's face: what the cli (`patchbay relay`, `patchbay sessions`) and the desktop app's
 * bundled relay use from src/main/relay. Everything here loads fast (no engine, no zod, no MCP
 * SDK): desktop clients start a relay for every session. `runUrlRelay` loads the engine itself,
 * on first use.
 */
export { hubEndpointSource } from './hub-endpoint.js';
export { discoverHub, type Discovery, type HubInfo } from './hub-discovery.js';
export type { RelayOutput } from './output-flow.js';
export { runStdioRelay, type RelayEnd, type StdioRelayOptions } from './stdio-relay.js';
export { runUrlRelay, type RemoteRelayFlags, type UrlRelayOptions } from './url-relay.js';
