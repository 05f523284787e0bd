/**
 * One HTTP exchange with a remote server as the inspector sees it. Credentials are masked here
 * already (the inspector redacts again): the Authorization header, cookies, and every header the
 * config sets (API keys) show as `[redacted]`. The URL loses its query (keys hide there too).
 */
import type { UpstreamHttpExchange } from './upstream.js';
import { displayUrl } from './remote-errors.js';

const ALWAYS_MASKED = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'dpop']);

/** Response headers as fetch gives them, or as undici's request API does (lower-case names, repeated ones in arrays). */
export type ExchangeHeaders = Headers | Record<string, string | string[] | undefined>;

function record(headers: RequestInit['headers'] | ExchangeHeaders | undefined, masked: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries: Iterable<[string, unknown]> = headers instanceof Headers || Array.isArray(headers) ? new Headers(headers as ConstructorParameters<typeof Headers>[0]) : Object.entries(headers);
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    const name = key.toLowerCase();
    out[name] = masked.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : String(value);
  }
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

/** The header names an exchange record masks: credentials always, and every header the config sets. */
export function maskedHeaders(configuredHeaders: string[]): ReadonlySet<string> {
  return new Set([...ALWAYS_MASKED, ...configuredHeaders.map((h) => h.toLowerCase())]);
}

/**
 * @param masked `maskedHeaders()` of the config's headers (built once per connection: this runs
 * for every request while an observer listens), or the configured names themselves
 * @param ids the JSON-RPC ids the body carries, when the caller knows them (else read from the body)
 */
export function exchangeOf(url: string | URL, init: RequestInit | undefined, res: { status: number; headers: ExchangeHeaders } | undefined, masked: ReadonlySet<string> | string[], ids?: Array<string | number>): UpstreamHttpExchange {
  const maskedSet = Array.isArray(masked) ? maskedHeaders(masked) : masked;
  const bodyIds = ids ?? idsOf(init?.body);
  return {
    method: init?.method ?? 'GET',
    url: displayUrl(url instanceof URL ? url : new URL(url)),
    ...(res ? { status: res.status, responseHeaders: record(res.headers, maskedSet) } : {}),
    requestHeaders: record(init?.headers, maskedSet),
    ...(bodyIds && bodyIds.length > 0 ? { ids: bodyIds } : {}),
  };
}
