/**
 * The hub's front-door checks (PROTOCOL E: P23–P26), in one place with one test file that pins
 * them. Each returns a union rather than a boolean so the caller can answer with the exact reason.
 */
import crypto, { createHash, timingSafeEqual } from 'node:crypto';

export type GuardResult = { ok: true } | { ok: false; status: number; message: string; headers?: Record<string, string> };

const OK: GuardResult = { ok: true };

export interface GuardConfig {
  port: number;
  /** Extra browser origins the user allowed (exact `scheme://host[:port]` strings). */
  extraOrigins: readonly string[];
  /** The hub token; undefined when auth is turned off (`--no-auth`). */
  token: string | undefined;
}

/**
 * The Host headers `hub.allowedHosts` adds (lower-cased, for checkHost): the public names of a
 * load balancer in front (docs/deploy.md). Each is matched exactly, host and port: a name
 * without a port matches only a Host header without one, never "that name on any port".
 */
export function allowedHostSet(allowedHosts: readonly string[]): ReadonlySet<string> {
  return new Set(allowedHosts.map((h) => h.toLowerCase()));
}

/**
 * Host must name a loopback address with the hub's own port (P23): the DNS-rebinding defence. Or,
 * when the config lists them (`hub.allowedHosts`), exactly one of the names a load balancer in
 * front passes on: a public name the person chose, not any name that resolves to the hub.
 */
export function checkHost(host: string | undefined, port: number, extraHosts?: ReadonlySet<string>): GuardResult {
  if (!host) return { ok: false, status: 403, message: 'Forbidden: missing Host header' };
  const h = host.toLowerCase();
  const allowed = h === `127.0.0.1:${port}` || h === `localhost:${port}` || h === `[::1]:${port}` || extraHosts?.has(h) === true;
  if (allowed) return OK;
  const hint = extraHosts && extraHosts.size > 0 ? ' or a name in hub.allowedHosts' : '';
  return { ok: false, status: 403, message: `Forbidden: Host '${host}' is not allowed; use 127.0.0.1:${port}${hint}` };
}

export function allowedOrigins(config: GuardConfig): Set<string> {
  return new Set([`http://127.0.0.1:${config.port}`, `http://localhost:${config.port}`, ...config.extraOrigins]);
}

/**
 * A missing Origin is allowed (non-browser clients send none). A present one must be in the
 * allow-list; `null` never is, and Origin equal to Host is not a reason to accept (P23).
 */
export function checkOrigin(origin: string | undefined, allowed: ReadonlySet<string>): GuardResult {
  if (origin === undefined) return OK;
  if (allowed.has(origin)) return OK;
  return { ok: false, status: 403, message: `Forbidden: Origin '${origin}' is not allowed` };
}

/** SHA-256 in one call where Node has it (20.12+: no Hash object per request), else by a Hash. */
const digest: (value: string) => Buffer =
  typeof crypto.hash === 'function' ? (value) => crypto.hash('sha256', value, 'buffer') : (value) => createHash('sha256').update(value).digest();

/** The hub token's digest, kept while the token is the same (it changes only when rotated). */
let tokenDigest: { token: string; digest: Buffer } | undefined;

function digestOfToken(token: string): Buffer {
  if (tokenDigest?.token !== token) tokenDigest = { token, digest: digest(token) };
  return tokenDigest.digest;
}

/**
 * The hub's question about a bearer token that is not the hub token (home/client-tokens.ts
 * answers it): undefined when it is not a client token at all.
 */
export interface ClientTokenVerifier {
  check(token: string): { state: 'valid' | 'revoked'; info: { client: string; label: string } } | { state: 'unknown' } | undefined;
}

/** Who a request proved to be: `principal` is the client a client token was minted for (none for the hub token). */
export type AuthResult = { ok: true; principal?: string; client?: string } | Extract<GuardResult, { ok: false }>;

const BEARER = { 'WWW-Authenticate': 'Bearer realm="patchbay"' };

function unauthorized(message: string): AuthResult {
  return { ok: false, status: 401, message, headers: BEARER };
}

/**
 * Bearer token (P25): the hub token, compared in constant time (hashing first makes the lengths
 * equal), or — where `clients` is given, i.e. on the MCP doors only — a client token that was not
 * revoked. A client token never opens `/api`: a leaked client config must not control Patchbay.
 */
export function checkToken(authorization: string | undefined, token: string | undefined, clients?: ClientTokenVerifier): AuthResult {
  if (token === undefined) return OK;
  if (!authorization) return unauthorized('Unauthorized: missing hub token (send "Authorization: Bearer <token>")');
  const wrong = (): AuthResult => unauthorized('Unauthorized: the hub token is wrong');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return wrong();
  const presented = match[1]!;
  if (timingSafeEqual(digest(presented), digestOfToken(token))) return OK;
  const client = clients?.check(presented);
  if (client === undefined) return wrong();
  if (client.state === 'valid') return { ok: true, principal: client.info.label, client: client.info.client };
  if (client.state === 'revoked') {
    return unauthorized(`Unauthorized: this client token (${client.info.label}) was revoked in Patchbay's Settings; export the client again (patchbay export ${client.info.client})`);
  }
  return unauthorized("Unauthorized: this client token is not known to this Patchbay (it was removed, or it belongs to another data dir); export the client again");
}

/** CORS response headers for an allowed origin (P26); none for requests without Origin. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
    Vary: 'Origin',
  };
}

export const PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name',
  'Access-Control-Max-Age': '600',
};

/** How many Host headers a request has (the parser's flat name/value list: names at even indexes). */
export function hostHeaders(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') n++;
  }
  return n;
}
