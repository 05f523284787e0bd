/**
 * One HTTP exchange with a remote server as the inspector sees it. Credentials are masked here
 * already (the inspector redacts again): the Authorization header, cookies, and every header the
 * config sets (API keys) show as `[redacted]`. The URL loses its query (keys hide there too).
 */
import type { UpstreamHttpExchange } from './upstream.js';
import { displayUrl } from './remote-errors.js';

const ALWAYS_MASKED = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'dpop']);

function record(headers: RequestInit['headers'] | Headers | undefined, masked: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, value] of new Headers(headers)) out[name] = masked.has(name) ? '[redacted]' : value;
  return out;
}

/** JSON-RPC ids of the messages of a request body (a JSON string), when it has any. */
function idsOf(body: unknown): Array<string | number> | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const value = JSON.parse(body) as unknown;
    const ids = (Array.isArray(value) ? value : [value])
      .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number');
    return ids.length > 0 ? ids : undefined;
  } catch {
    return undefined;
  }
}

export function exchangeOf(url: string | URL, init: RequestInit | undefined, res: Response | undefined, configuredHeaders: string[]): UpstreamHttpExchange {
  const masked = new Set([...ALWAYS_MASKED, ...configuredHeaders.map((h) => h.toLowerCase())]);
  const ids = idsOf(init?.body);
  return {
    method: init?.method ?? 'GET',
    url: displayUrl(new URL(url)),
    ...(res ? { status: res.status, responseHeaders: record(res.headers, masked) } : {}),
    requestHeaders: record(init?.headers, masked),
    ...(ids ? { ids } : {}),
  };
}
