/**
 * What a legacy server's answers become for a modern client (2026-07-28): every result carries
 * `resultType` (changelog 8), list and read results carry cache hints (server/utilities/caching;
 * the hub cannot know how long the server's lists stay fresh, so `ttlMs: 0` — re-fetch when
 * needed, which the list-changed notifications tell), resource-not-found is -32602 (changelog
 * minor 6), and `server/discover` is made from the initialize result.
 */
import { ErrorCode, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/json-rpc.js';
import { addResultFields } from '../protocol/json-splice.js';

const CACHEABLE = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);
/** The legacy era's resource-not-found code. */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

type Obj = Record<string, unknown>;

/** A legacy answer to `method` as a modern client expects it (the same object when nothing changes). */
export function completeResult(method: string, message: JsonRpcMessage): JsonRpcResponse {
  const response = message as JsonRpcResponse;
  if (response.error) {
    if (method === 'resources/read' && response.error.code === LEGACY_RESOURCE_NOT_FOUND) {
      return { ...response, error: { ...response.error, code: ErrorCode.InvalidParams } };
    }
    return response;
  }
  const result = response.result as Obj | undefined;
  if (!result || typeof result !== 'object') return response;
  const needsType = result.resultType === undefined;
  const needsHints = CACHEABLE.has(method) && (result.ttlMs === undefined || result.cacheScope === undefined);
  if (!needsType && !needsHints) return response;
  const next: Obj = { ...result };
  if (needsType) next.resultType = 'complete';
  if (needsHints) {
    next.ttlMs ??= 0;
    next.cacheScope ??= 'private';
  }
  return { ...response, result: next };
}

/**
 * `completeResult` with the answer's text to go with it: when only fields are added to the
 * result, they are spliced into `raw` (json-splice.ts) rather than the whole answer serialised
 * again — a 1 MiB tool result would otherwise be written out twice.
 */
export function completeResultText(method: string, message: JsonRpcMessage, raw: string): { message: JsonRpcResponse; raw: string } {
  const done = completeResult(method, message);
  if (done === message) return { message: done, raw };
  const before = (message as JsonRpcResponse).result as Obj | undefined;
  const after = done.result as Obj | undefined;
  if (before && after && typeof before === 'object') {
    const added: Obj = {};
    let onlyAdded = true;
    for (const key in after) {
      if (!(key in before)) added[key] = after[key];
      else if (after[key] !== before[key]) onlyAdded = false; // e.g. a null ttlMs made 0
    }
    const text = onlyAdded ? addResultFields(raw, added) : undefined;
    if (text !== undefined) return { message: done, raw: text };
  }
  return { message: done, raw: JSON.stringify(done) };
}

/** A DiscoverResult made from a legacy server's initialize result. */
export function discoverFromInitialize(init: Obj): Obj {
  const out: Obj = {
    resultType: 'complete',
    supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
    capabilities: init.capabilities ?? {},
    ttlMs: 0,
    cacheScope: 'private',
  };
  if (init.serverInfo !== undefined) out._meta = { [META.serverInfo]: init.serverInfo };
  if (typeof init.instructions === 'string') out.instructions = init.instructions;
  return out;
}
