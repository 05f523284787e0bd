/**
 * Which protocol eras a configured server speaks (2026-07-28 basic/versioning, "Backward
 * Compatibility"; PROTOCOL Q11). A server may speak both, so the hub knows two facts, learned
 * independently, never one verdict:
 *
 * - speaks 2025 (the legacy era): an `initialize` it answered with a result says yes; one it
 *   refused naming only modern revisions says no (upstream/era-sniffer.ts);
 * - speaks 2026-07-28 (the modern era): a `server/discover` it answered says yes; a refusal only a
 *   legacy server gives (or, on stdio, silence) says no (`probeEra` below).
 *
 * The config may pin either (`protocol`). A client is served in its own era whenever the server
 * speaks it; a bridge is chosen only when the server is known not to. Unknown means "try it": the
 * first 2025 client's initialize goes to the server as it is, the first 2026 client's request
 * waits for one probe. So the order in which clients arrive never changes what a client gets.
 */
import type { ServerEra } from '../../../shared/api/servers-contract.js';
import { eraOfSetting, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { isModernError, supportedVersionsOf } from '../protocol/modern.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { ModernUpstream } from '../upstream/modern-upstream.js';

export type Era = 'legacy' | 'modern';

/** One fact: whether the server speaks an era, and how that was learned. */
export interface EraFact {
  speaks: boolean;
  /** The config said so, a `server/discover` probe, or its answer to an `initialize`. */
  how: 'config' | 'probe' | 'initialize';
}

/** What the hub knows of a server's eras; a fact is absent until it is learned. */
export interface EraFacts {
  legacy?: EraFact;
  modern?: EraFact;
  /** The server's DiscoverResult, when it answered one. */
  discover?: Record<string, unknown>;
  /** The revisions the server says it supports, when it said. */
  versions?: string[];
  /** A pinned revision (`protocol: "2025-06-18"`). */
  pinned?: string;
}

/**
 * The facts as the server's status shows them, or undefined while nothing is known. `era` sums
 * them up: both, or the one it speaks; an era it is known not to speak leaves the other (every MCP
 * server speaks one).
 */
export function eraStatus(facts: EraFacts): ServerEra | undefined {
  const { legacy, modern } = facts;
  if (!legacy && !modern) return undefined;
  const era = legacy?.speaks && modern?.speaks ? 'both' : legacy?.speaks ? 'legacy' : modern?.speaks ? 'modern' : legacy ? 'modern' : 'legacy';
  const out: ServerEra = { era };
  if (legacy) out.legacy = { ...legacy };
  if (modern) out.modern = { ...modern };
  if (facts.versions) out.versions = facts.versions;
  if (facts.pinned) out.pinned = facts.pinned;
  return out;
}

/** The facts the config gives (`protocol` pins an era: the other is then not spoken), or none for `auto`. */
export function configuredFacts(protocol: string | undefined): EraFacts {
  const set = eraOfSetting(protocol);
  if (!set) return {};
  const facts: EraFacts = { legacy: { speaks: set.era === 'legacy', how: 'config' }, modern: { speaks: set.era === 'modern', how: 'config' } };
  if (set.pinned) facts.pinned = set.pinned;
  return facts;
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

/** What a `server/discover` probe learned: whether the server speaks the modern era, and what it said. */
export interface ProbeResult {
  modern: boolean;
  discover?: Record<string, unknown>;
  versions?: string[];
}

/**
 * Asks the server over a modern channel whether it speaks the modern era. Resolves with the
 * answer, or rejects when the server could not be asked at all (not started, unreachable, refused
 * credentials): nothing learned.
 */
export async function probeEra(channel: ModernUpstream, opts: ProbeOptions): Promise<ProbeResult> {
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
    if (opts.silenceIsLegacy) return { modern: false };
    throw new Error(`server '${opts.serverId}' did not answer server/discover within ${Math.round(opts.timeoutMs / 1000)}s`);
  }
  const { message, local } = outcome;
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result && Array.isArray(result.supportedVersions)) {
    return { modern: true, discover: result, versions: (result.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string') };
  }
  const error = (message as { error?: { code?: number; message?: string; data?: unknown } }).error;
  if (local) {
    // An HTTP error with no JSON-RPC body (a legacy HTTP+SSE server's 404/405, a 2025 server's
    // plain 400) is legacy evidence; the hub's own answers otherwise (the child died, the remote
    // was unreachable, credentials refused) are not evidence at all.
    const cause = (error?.data as { cause?: unknown } | undefined)?.cause;
    if (cause === 'http' && (error?.data as { status?: number }).status !== 401) return { modern: false };
    throw new Error(error?.message ?? `server '${opts.serverId}' could not be probed`);
  }
  if (isModernError(error)) {
    const versions = supportedVersionsOf(error);
    return { modern: true, ...(versions ? { versions } : {}) };
  }
  return { modern: false };
}
