/**
 * Small decisions of the OAuth client, kept apart so they read (and test) on their own: when to
 * refresh, when a same-origin issuer of a 2025-03-26 server is acceptable, how a token's state is
 * shown, how a failure is worded.
 */
import { IssuerMismatchError } from '@modelcontextprotocol/client';
import type { OAuthServerStatus } from '../../../shared/api/oauth-contract.js';
import type { TokenRecord } from './token-store.js';

/** Refresh when less than a minute (or half the token's life, if shorter) is left. */
export function expiresSoon(record: TokenRecord, now = Date.now()): boolean {
  if (record.expiresAt === undefined) return false;
  const margin = Math.min(60_000, Math.max(0, (record.expiresAt - record.obtainedAt) / 2));
  return now >= record.expiresAt - margin;
}

/**
 * The authorization server metadata found at the MCP server's own origin (no protected resource
 * metadata: a 2025-03-26 server) names an issuer on that same origin. RFC 8414's issuer echo
 * fails, yet it is the server's own word either way, so it is accepted.
 */
export function isSameOriginLegacyIssuer(err: unknown, serverUrl: string): boolean {
  if (!IssuerMismatchError.isInstance(err) || err.kind !== 'metadata' || !err.received || !err.expected) return false;
  try {
    const origin = new URL(serverUrl).origin;
    const expected = new URL(err.expected);
    // Only where the authorization server was derived from the server's origin (no PRM).
    return expected.origin === origin && expected.pathname === '/' && new URL(err.received).origin === origin;
  } catch {
    return false;
  }
}

/** What the UI shows for a server's stored tokens (a pending sign-in is decided by the caller). */
export function tokenStatus(server: string, needsLogin: boolean, record: TokenRecord | undefined, now = Date.now()): OAuthServerStatus {
  if (!record) return { server, needsLogin, state: 'signed_out' };
  const expired = record.expiresAt !== undefined && record.expiresAt <= now && !record.tokens.refresh_token;
  return {
    server,
    needsLogin,
    state: expired ? 'expired' : 'signed_in',
    issuer: record.issuer,
    ...(record.tokens.scope ? { scope: record.tokens.scope } : {}),
    ...(record.expiresAt ? { expiresAt: new Date(record.expiresAt).toISOString() } : {}),
  };
}

/** An error of the OAuth flow as a sentence; mix-up details are never repeated (RFC 9207). */
export function describeAuthError(err: unknown): string {
  if (IssuerMismatchError.isInstance(err)) {
    return err.kind === 'authorization_response'
      ? 'the authorization response did not come from the expected authorization server (a possible mix-up attack); refused'
      : `the authorization server's metadata names another issuer than the one it was found at (expected ${err.expected ?? 'unknown'})`;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}
