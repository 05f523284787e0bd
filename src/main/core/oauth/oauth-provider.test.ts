import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { PatchbayOAuthProvider, type ProviderHost } from './oauth-provider.js';

describe('the sign-in attempt keeps its discovery with its verifier', () => {
  it("survives another session's invalidation of the provider's shared discovery (the callback leg needs it)", async () => {
    const provider = new PatchbayOAuthProvider({ serverId: 'x', config: undefined } as ProviderHost);
    const discovery = { authorizationServerUrl: 'http://127.0.0.1:1/' } as OAuthDiscoveryState;
    provider.attempt = { interactive: true };
    provider.saveDiscoveryState(discovery);
    provider.saveCodeVerifier('verifier');
    // What a concurrent auth() of another session may do to the shared copy.
    await provider.invalidateCredentials('discovery');
    expect(provider.discoveryState()).toBeUndefined();
    expect(provider.attempt).toMatchObject({ codeVerifier: 'verifier', discovery });
  });
});
