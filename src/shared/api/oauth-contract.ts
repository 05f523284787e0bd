/**
 * Sign-in to remote servers that use OAuth (docs/remote-and-oauth.md). The engine owns the
 * login: one per server, shared by every session and every relay of that server. Tokens never
 * travel through this contract; only their state does.
 */
import { z } from 'zod';
import { call, event } from './contract.js';

export const oauthStateSchema = z.enum([
  /** OAuth is off for this server (`oauth: false`, or an Authorization header is configured). */
  'off',
  /** No tokens. `needsLogin` says whether the server has asked for them. */
  'signed_out',
  /** A browser sign-in was started and has not come back yet. */
  'pending',
  'signed_in',
  /** The access token expired and there is no refresh token: the next use asks for a login. */
  'expired',
]);

export const oauthServerStatusSchema = z.object({
  server: z.string(),
  state: oauthStateSchema,
  /** The server answered 401 and nobody has signed in since. */
  needsLogin: z.boolean(),
  /** The authorization server the tokens come from. */
  issuer: z.string().optional(),
  scope: z.string().optional(),
  /** ISO time the access token expires (it is refreshed before that when possible). */
  expiresAt: z.string().optional(),
  /** While pending: where to sign in. */
  authorizationUrl: z.string().optional(),
});

const serverInput = z.object({ server: z.string().min(1) });

export const oauthContract = {
  'oauth.status': call(
    z.object({ server: z.string().optional() }),
    z.array(oauthServerStatusSchema),
    'Sign-in state of every remote server (or of one)',
  ),
  'oauth.signIn': call(
    serverInput,
    z.object({ server: z.string(), authorizationUrl: z.string() }),
    'Starts (or resumes) the browser sign-in of a server: returns the authorization URL and opens it',
  ),
  'oauth.signOut': call(serverInput, z.object({ server: z.string(), signedOut: z.boolean() }), "Forgets a server's tokens (the next use asks for a login)"),
  'oauth.loginNeeded': event(
    z.object({ server: z.string(), authorizationUrl: z.string(), reason: z.string() }),
    'A server needs a sign-in; the browser was asked to open this URL',
  ),
  'oauth.loginCompleted': event(
    z.object({ server: z.string(), ok: z.boolean(), message: z.string().optional(), issuer: z.string().optional() }),
    'A browser sign-in came back: signed in, or why not',
  ),
} as const;

export type OAuthServerStatus = z.infer<typeof oauthServerStatusSchema>;
export type OAuthState = z.infer<typeof oauthStateSchema>;
