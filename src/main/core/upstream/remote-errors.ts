/**
 * Why a remote server could not be reached, in words a person can act on. Node's fetch hides the
 * real reason in `err.cause` (a system error code such as ECONNREFUSED, or an undici code); the SDK
 * transports wrap HTTP failures in errors that carry the status. Both are turned into one of a
 * few causes, so a client sees "connection refused", "DNS", "TLS", "HTTP 502" or "timeout".
 */
import { InsufficientScopeError } from '@modelcontextprotocol/client';
import { ErrorCode } from '../../../shared/protocol.js';
import { isUpstreamAuthError } from './upstream-auth-errors.js';

export type RemoteCause = 'dns' | 'refused' | 'unreachable' | 'reset' | 'tls' | 'timeout' | 'http' | 'unknown';

export interface RemoteFailure {
  cause: RemoteCause;
  /** The HTTP status when the server answered. */
  status?: number;
  /** A phrase that completes "server 'x' …", e.g. "could not be reached: connection refused". */
  detail: string;
}

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const REFUSED = new Set(['ECONNREFUSED']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TimeoutError']);

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('CERT_') ||
    code === 'EPROTO' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'ERR_SSL_WRONG_VERSION_NUMBER'
  );
}

/** Every error in the `cause` chain (bounded: causes can be cyclic in theory). */
function chain(err: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  for (let i = 0; i < 8 && typeof current === 'object' && current !== null; i++) {
    out.push(current as Record<string, unknown>);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** The HTTP status an SDK transport error carries (SdkHttpError.status, SseError.code, or "(HTTP 404)"). */
export function httpStatusOf(err: unknown): number | undefined {
  for (const e of chain(err)) {
    const data = e.data as { status?: unknown } | undefined;
    if (data && typeof data.status === 'number') return data.status;
    if (e.name === 'SseError' && typeof e.code === 'number') return e.code;
    // The legacy SSE transport's POST failure: "Error POSTing to endpoint (HTTP 404): …".
    const m = typeof e.message === 'string' ? /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(e.message) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

function statusPhrase(status: number): string {
  if (status >= 500) return `answered HTTP ${status} (a server-side failure; try again later)`;
  if (status === 401) return 'answered HTTP 401: the credentials were refused (check the configured headers or secrets, or sign in again)';
  if (status === 403) return 'answered HTTP 403: access was refused for these credentials';
  if (status === 404) return 'answered HTTP 404: no MCP endpoint at this URL (check the url in the config)';
  if (status === 429) return 'answered HTTP 429: too many requests (rate limited; try again later)';
  return `answered HTTP ${status}`;
}

/** Classifies a failure of a request to a remote server. */
export function describeFailure(err: unknown): RemoteFailure {
  const links = chain(err);
  for (const e of links) {
    const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' && e.name === 'TimeoutError' ? 'TimeoutError' : '';
    if (!code) continue;
    if (DNS.has(code)) return { cause: 'dns', detail: `could not be reached: its host name does not resolve (DNS ${code}; check the url, or your network)` };
    if (REFUSED.has(code)) return { cause: 'refused', detail: 'could not be reached: connection refused (is the server running at that address?)' };
    if (UNREACHABLE.has(code)) return { cause: 'unreachable', detail: `could not be reached: the network is unreachable (${code})` };
    if (TIMEOUT.has(code)) return { cause: 'timeout', detail: `did not answer in time (${code})` };
    if (isTlsCode(code)) {
      return {
        cause: 'tls',
        detail: `could not be reached securely: TLS failed (${code}; for a private certificate authority set NODE_EXTRA_CA_CERTS)`,
      };
    }
    if (RESET.has(code)) return { cause: 'reset', detail: `closed the connection unexpectedly (${code})` };
  }
  const status = httpStatusOf(err);
  if (status !== undefined) return { cause: 'http', status, detail: statusPhrase(status) };
  for (const e of links) {
    const message = typeof e.message === 'string' ? e.message : '';
    if (/certificate|ssl|tls/i.test(message)) return { cause: 'tls', detail: `could not be reached securely: ${message}` };
    if (/other side closed|socket hang up/i.test(message)) return { cause: 'reset', detail: 'closed the connection unexpectedly' };
  }
  const last = links[links.length - 1];
  const message = last && typeof last.message === 'string' && last.message ? last.message : String(err);
  return { cause: 'unknown', detail: `failed: ${message}` };
}

/** The URL without query and fragment (some servers take API keys in the query string). */
export function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * The JSON-RPC error a client gets for a request that failed on the way to a remote server:
 * -32001 for sign-in and scope problems (the client's user must act), -32603 otherwise, with
 * `data.server` and `data.cause` for programs.
 */
export function rpcErrorFor(err: unknown, serverId: string, method: string, url: URL): { code: number; message: string; data: Record<string, unknown> } {
  if (isUpstreamAuthError(err)) return { code: ErrorCode.Unauthorized, message: err.message, data: { cause: err.code, ...err.data } };
  if (InsufficientScopeError.isInstance(err)) {
    const scope = err.requiredScope ? ` (it asks for scope '${err.requiredScope}')` : '';
    return { code: ErrorCode.Unauthorized, message: `server '${serverId}' refused '${method}': insufficient scope${scope}`, data: { cause: 'insufficient_scope' } };
  }
  const failure = describeFailure(err);
  const data: Record<string, unknown> = { cause: failure.cause };
  if (failure.status !== undefined) data.status = failure.status;
  return { code: ErrorCode.InternalError, message: `server '${serverId}' ${failure.detail} (${displayUrl(url)})`, data };
}
