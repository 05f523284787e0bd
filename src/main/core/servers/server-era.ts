/**
 * Which protocol era a configured server speaks (2026-07-28 basic/versioning, "Backward
 * Compatibility"): the config may say (`protocol`), else the hub finds out — a `server/discover`
 * request with a modern envelope. A DiscoverResult, or a recognized modern error, means modern;
 * any other error (or, on stdio, silence) means legacy. The verdict is a property of the server,
 * kept for the runtime's life (one process / one origin), and shown in the server's status.
 */
import type { ServerEra } from '../../../shared/api/servers-contract.js';
import { eraOfSetting, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { isModernError, supportedVersionsOf } from '../protocol/modern.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { ModernUpstream } from '../upstream/modern-upstream.js';

export type Era = 'legacy' | 'modern';

export interface EraVerdict {
  era: Era;
  /** How it was decided: the config said so, a `server/discover` probe, or an `initialize` refused as modern-only. */
  how: 'config' | 'probe' | 'initialize';
  /** The server's DiscoverResult, when it answered one. */
  discover?: Record<string, unknown>;
  /** The revisions the server says it supports, when it said. */
  versions?: string[];
  /** A pinned revision (`protocol: "2025-06-18"`). */
  pinned?: string;
}

/** The verdict as the server's status shows it (without the DiscoverResult). */
export function eraStatus(verdict: EraVerdict): ServerEra {
  const out: ServerEra = { era: verdict.era, how: verdict.how };
  if (verdict.versions) out.versions = verdict.versions;
  if (verdict.pinned) out.pinned = verdict.pinned;
  return out;
}

/** The verdict the config gives, or undefined for `auto` (find out). */
export function configuredVerdict(protocol: string | undefined): EraVerdict | undefined {
  const set = eraOfSetting(protocol);
  return set && { ...set, how: 'config' };
}

/** A `server/discover` request with the hub's modern envelope. */
export function discoverRequest(id: string, version: string): JsonRpcRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: {
      _meta: {
        [META.protocolVersion]: MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1],
        [META.clientInfo]: { name: 'patchbay', version },
        [META.clientCapabilities]: {},
      },
    },
  };
}

export interface ProbeOptions {
  serverId: string;
  /** The hub's version, for its clientInfo. */
  version: string;
  timeoutMs: number;
  /** stdio: silence means legacy. HTTP: silence is an outage, not a verdict (it throws). */
  silenceIsLegacy: boolean;
}

/**
 * Asks the server its era over a modern channel. Resolves with a verdict, or rejects when the
 * server could not be asked at all (not started, unreachable, refused credentials): no verdict.
 */
export async function probeEra(channel: ModernUpstream, opts: ProbeOptions): Promise<EraVerdict> {
  const request = discoverRequest(`patchbay-discover-${Date.now()}`, opts.version);
  let cancel: (() => void) | undefined;
  const answer = new Promise<{ message: JsonRpcResponse; local: boolean; status?: number }>((resolve) => {
    const call = channel.call(
      { message: request, raw: undefined, headers: { 'MCP-Protocol-Version': MODERN_PROTOCOL_VERSIONS[0], 'Mcp-Method': 'server/discover' } },
      {
        notification: () => undefined,
        response: (message, _raw, info) => resolve({ message, local: info.local, ...(info.status !== undefined ? { status: info.status } : {}) }),
      },
    );
    cancel = () => call.cancel('era probe timed out');
  });
  const outcome = await withTimeout(answer, opts.timeoutMs, () => undefined);
  if (outcome === undefined) {
    cancel?.();
    if (opts.silenceIsLegacy) return { era: 'legacy', how: 'probe' };
    throw new Error(`server '${opts.serverId}' did not answer server/discover within ${Math.round(opts.timeoutMs / 1000)}s`);
  }
  const { message, local } = outcome;
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result && Array.isArray(result.supportedVersions)) {
    return { era: 'modern', how: 'probe', discover: result, versions: (result.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') };
  }
  const error = (message as { error?: { code?: number; message?: string; data?: unknown } }).error;
  if (local) {
    // An HTTP error with no JSON-RPC body (a legacy HTTP+SSE server's 404/405, a 2025 server's
    // plain 400) is legacy evidence; the hub's own answers otherwise (the child died, the remote
    // was unreachable, credentials refused) are not evidence at all.
    const cause = (error?.data as { cause?: unknown } | undefined)?.cause;
    if (cause === 'http' && (error?.data as { status?: number }).status !== 401) return { era: 'legacy', how: 'probe' };
    throw new Error(error?.message ?? `server '${opts.serverId}' could not be probed`);
  }
  if (isModernError(error)) {
    const versions = supportedVersionsOf(error);
    return { era: 'modern', how: 'probe', ...(versions ? { versions } : {}) };
  }
  return { era: 'legacy', how: 'probe' };
}
