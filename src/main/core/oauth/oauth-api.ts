/** The OAuth part of the engine's API (src/shared/api/oauth-contract.ts), served by the service. */
import type { oauthContract } from '../../../shared/api/oauth-contract.js';
import { ApiError, type Handlers } from '../api/api-registry.js';
import { OAuthServiceError, type OAuthService } from './oauth-service.js';

async function mapped<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (err instanceof OAuthServiceError) throw new ApiError(err.code, err.message);
    throw new ApiError('oauth_failed', (err as Error).message);
  }
}

export function oauthHandlers(service: OAuthService): Handlers<typeof oauthContract> {
  return {
    'oauth.status': ({ server }) => mapped(() => service.status(server)),
    'oauth.signIn': ({ server }) => mapped(() => service.signIn(server)),
    'oauth.signOut': ({ server }) => mapped(() => service.signOut(server)),
  };
}
