/**
 * From a remote server's config entry to a `RemoteUpstream`: the transport it pins (if any), its
 * headers with secrets resolved, its OAuth (owned by the engine's OAuth service, shared by all of
 * the server's sessions), the proxy-aware fetch.
 */
import type { RemoteServerConfig } from '../../../shared/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { RemoteFetch } from './remote-fetch.js';
import { RemoteUpstream, type RemoteAuth, type RemoteUpstreamOptions } from './remote-upstream.js';

export interface RemoteConnectDeps {
  fetch: RemoteFetch;
  /** The OAuth service; undefined = no OAuth (a 401 is reported as refused credentials). */
  oauth?: { remoteAuth(serverId: string, server: RemoteServerConfig): RemoteAuth | undefined };
  logger: Logger;
  /** Deadline of `initialize` when the server sets neither startupTimeoutMs nor requestTimeoutMs (default 60 s). */
  initializeTimeoutMs?: number;
  /** Telemetry is on: the trace context in a message's `_meta` also goes as W3C headers (RemoteUpstreamOptions). */
  traceHeaders?: boolean;
}

/** `type: "sse"` means the legacy transport (as in MCP clients' configs); `transport` pins either. */
export function transportOf(config: RemoteServerConfig): RemoteUpstreamOptions['transport'] {
  const pinned = config.transport as string | undefined;
  if (pinned === 'sse') return 'sse';
  if (pinned === 'streamable-http' || pinned === 'http') return 'streamable-http';
  if (pinned === 'auto') return 'auto';
  return config.type === 'sse' ? 'sse' : 'auto';
}

/**
 * @param config the entry as configured (secret references unresolved): keys the OAuth state
 * @param resolved the same entry with `${secret:…}` resolved: its headers go on the wire
 */
export function createRemoteUpstream(serverId: string, config: RemoteServerConfig, resolved: RemoteServerConfig, deps: RemoteConnectDeps): RemoteUpstream {
  const auth = deps.oauth?.remoteAuth(serverId, config);
  return new RemoteUpstream({
    serverId,
    url: resolved.url,
    transport: transportOf(config),
    headers: { ...(resolved.headers ?? {}) },
    fetch: deps.fetch,
    ...(auth ? { auth } : {}),
    initializeTimeoutMs: config.startupTimeoutMs ?? config.requestTimeoutMs ?? deps.initializeTimeoutMs ?? 60_000,
    ...(deps.traceHeaders ? { traceHeaders: true } : {}),
    logger: deps.logger,
  });
}
