/**
 * Failures of a remote server's sign-in that its clients must hear about as a JSON-RPC error
 * (never a hang): the server needs a login nobody has completed yet, the login failed, or the
 * server keeps asking for a scope that signing in again cannot grant.
 */
export type OAuthFailureCode = 'login_required' | 'login_failed' | 'insufficient_scope' | 'oauth_config';

export class UpstreamAuthError extends Error {
  constructor(
    readonly code: OAuthFailureCode,
    message: string,
    /** Extra fields for the JSON-RPC error's `data` (never secrets). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'UpstreamAuthError';
  }
}

export function isUpstreamAuthError(err: unknown): err is UpstreamAuthError {
  return err instanceof UpstreamAuthError;
}

/** Thrown into the SDK's auth() when a background refresh would need a browser: not now. */
export class InteractionNeeded extends Error {
  constructor() {
    super('sign-in needs the browser');
    this.name = 'InteractionNeeded';
  }
}

/**
 * A 401 without a Bearer challenge: the server refuses the configured credentials (an API key
 * header), it does not ask for OAuth. Carries the status so it is reported as "HTTP 401".
 */
export class CredentialsRefused extends Error {
  readonly data = { status: 401 };
  constructor(serverId: string) {
    super(`server '${serverId}' answered 401 without an OAuth challenge`);
    this.name = 'CredentialsRefused';
  }
}
