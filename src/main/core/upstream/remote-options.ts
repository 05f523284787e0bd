/**
 * What a remote connection (remote-upstream.ts) is made with: the server's address and transport,
 * its headers, the fetch, its OAuth. A file of its own so that the connection's collaborators
 * (remote-pending.ts, remote-links.ts) can take the same options without importing the connection
 * itself; remote-upstream.ts re-exports both types, where their users import them from.
 */
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { Logger } from '../log/logger.js';
import type { RemoteFetch } from './remote-fetch.js';

/** What a remote connection needs from the engine's OAuth service for its server. */
export interface RemoteAuth {
  /** Given to the transports: the current bearer token, and the shared 401 handler. */
  provider: AuthProvider;
  /** A 403 insufficient_scope: sign in again with the wider scope, or throw when that cannot help. */
  stepUp(challenge: { scope?: string; resourceMetadataUrl?: URL }): Promise<void>;
  /** True while a browser sign-in is pending: `initialize` then waits for the person, not the clock. */
  signingIn(): boolean;
}

/** A remote connection's settings (remote-connect.ts builds them from the server's config entry). */
export interface RemoteUpstreamOptions {
  serverId: string;
  url: string;
  /** `auto`: Streamable HTTP, falling back to HTTP+SSE (P32). */
  transport: 'auto' | 'streamable-http' | 'sse';
  /** Sent on every request (secrets already resolved). */
  headers: Record<string, string>;
  fetch: RemoteFetch;
  auth?: RemoteAuth;
  /** How long `initialize` (and a replayed one) may take before the client gets an error. */
  initializeTimeoutMs: number;
  /**
   * Telemetry is on: each POST also carries the W3C `traceparent` (and `tracestate`, `baggage`)
   * its message has in `_meta` as headers (hub/tracing.ts), for servers that read them there.
   */
  traceHeaders?: boolean;
  logger: Logger;
}
