// @ts-check
/**
 * A hub's upstream first reached by a client of a given era before a conformance suite runs
 * against it (issue 22, PROTOCOL Q11: what a client gets must not depend on which era's client
 * came first): `primeModern`, a 2026-07-28 `server/discover`; `primeLegacy`, a 2025 `initialize`,
 * `notifications/initialized` and DELETE; and the eras the hub then shows for it (`eraOf`).
 */
import { RunError } from './conformance-kit.mjs';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';
const PRIME_TIMEOUT_MS = 30_000;
const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * The JSON-RPC messages of a response body, JSON or SSE (`data:` lines of each event).
 * @param {Response} res
 * @returns {Promise<Array<Record<string, unknown>>>}
 */
async function rpcMessages(res) {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    if (text.trim() === '') return [];
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  }
  /** @type {Array<Record<string, unknown>>} */
  const out = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data.trim() === '') continue;
    try {
      out.push(JSON.parse(data));
    } catch {
      // not JSON-RPC (a priming event, a comment)
    }
  }
  return out;
}

/**
 * Makes a 2026-07-28 client the first to reach an MCP endpoint of the hub: one sessionless
 * `server/discover` with the modern `_meta` envelope and the headers the modern era requires
 * (MCP-Protocol-Version and Mcp-Method, equal to the body's; no Mcp-Name for this method). The
 * hub finds out the server's era for it (its `server/discover` probe). Resolves to the
 * DiscoverResult; throws a RunError when the answer is not one.
 * @param {string} url the hub's `/mcp/<server>` URL
 * @returns {Promise<Record<string, unknown>>}
 */
export async function primeModern(url) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'MCP-Protocol-Version': MODERN_VERSION,
      'Mcp-Method': 'server/discover',
      Accept: ACCEPT_BOTH,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'prime', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
    signal: AbortSignal.timeout(PRIME_TIMEOUT_MS),
  });
  const messages = await rpcMessages(res);
  const answer = messages.find((m) => m.id === 1);
  const result = /** @type {Record<string, unknown> | undefined} */ (answer?.result);
  if (res.status !== 200 || !result || !Array.isArray(result.supportedVersions)) {
    throw new RunError(
      `priming ${url} with a 2026-07-28 server/discover failed: HTTP ${res.status} ${JSON.stringify(messages).slice(0, 500)}`,
    );
  }
  return result;
}

/**
 * Makes a 2025 client the first to reach an MCP endpoint of the hub: `initialize` (2025-11-25),
 * `notifications/initialized` and a DELETE that ends the session. Resolves to the protocol
 * version the session negotiated; throws a RunError on any unexpected answer.
 * @param {string} url the hub's `/mcp/<server>` URL
 * @returns {Promise<string>}
 */
export async function primeLegacy(url) {
  const signal = () => AbortSignal.timeout(PRIME_TIMEOUT_MS);
  const init = await fetch(url, {
    method: 'POST',
    headers: { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'prime', version: '1' },
      },
    }),
    signal: signal(),
  });
  const messages = await rpcMessages(init);
  const result = /** @type {{ protocolVersion?: unknown } | undefined} */ (
    messages.find((m) => m.id === 1)?.result
  );
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || typeof result?.protocolVersion !== 'string' || !sessionId) {
    throw new RunError(
      `priming ${url} with a 2025 initialize failed: HTTP ${init.status}, session ${sessionId ?? 'none'}, ${JSON.stringify(messages).slice(0, 500)}`,
    );
  }
  const version = result.protocolVersion;
  const session = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': version };
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json', ...session },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    signal: signal(),
  });
  await initialized.arrayBuffer().catch(() => undefined);
  if (initialized.status !== 202) {
    throw new RunError(
      `priming ${url}: notifications/initialized answered HTTP ${initialized.status}, not 202`,
    );
  }
  const ended = await fetch(url, { method: 'DELETE', headers: session, signal: signal() });
  await ended.arrayBuffer().catch(() => undefined);
  if (ended.status !== 200 && ended.status !== 204) {
    throw new RunError(`priming ${url}: DELETE of the session answered HTTP ${ended.status}`);
  }
  return version;
}

/**
 * The protocol era the hub shows for a server (its `servers.overview` API, as the UI reads it),
 * e.g. `modern (probe)`; `unknown` when it shows none or the API could not be read. For the log
 * only: nothing is decided on it.
 * @param {string} base the hub's origin
 * @param {string} serverId
 * @returns {Promise<string>}
 */
export async function eraOf(base, serverId) {
  try {
    const res = await fetch(`${base}/api/call/servers.overview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(10_000),
    });
    /** @typedef {{ speaks?: boolean, how?: string }} Fact */
    const answer =
      /** @type {{ value?: Array<{ id?: string, status?: { era?: { era?: string, legacy?: Fact, modern?: Fact } } }> }} */ (
        await res.json()
      );
    const era = answer.value?.find((s) => s.id === serverId)?.status?.era;
    /** @param {string} label @param {Fact | undefined} f */
    const fact = (label, f) => `${label} ${f ? `${f.speaks ? 'yes' : 'no'} (${f.how})` : 'unknown'}`;
    return era?.era ? `${era.era}: ${fact('2025', era.legacy)}, ${fact('2026', era.modern)}` : 'unknown';
  } catch {
    return 'unknown';
  }
}
