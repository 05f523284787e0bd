/**
 * The SDK's `OAuthClientProvider` for one remote server, backed by the secret store. The SDK's
 * `auth()` does discovery (RFC 9728, RFC 8414 / OpenID Connect), registration, PKCE, the token
 * requests and refresh; this class answers its questions:
 *
 * - which client: a pre-registered one from the config, else a Client ID Metadata Document URL
 *   (when the authorization server supports them), else Dynamic Client Registration (P38);
 * - the redirect URI: the hub's own `/oauth/callback` on loopback (P40);
 * - `state`, the PKCE verifier and the discovery result of the sign-in in progress (the callback
 *   must find the same ones: `ServerAuth` sets `attempt` under its lock);
 * - the `resource` indicator: the server's canonical URI (P39), checked against the protected
 *   resource metadata, or none when the config opts out;
 * - PKCE S256 must be advertised by the authorization server, or the sign-in is refused (P36).
 */
import { randomBytes } from 'node:crypto';
import {
  checkResourceAllowed,
  resourceUrlFromServerUrl,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteOAuthConfig } from '../../../shared/config-schema.js';
import { InteractionNeeded, UpstreamAuthError } from '../upstream/upstream-auth-errors.js';
import type { OAuthTokenStore, TokenRecord } from './token-store.js';

/** What the provider needs from the server's `ServerAuth`. */
export interface ProviderHost {
  readonly serverId: string;
  readonly config: RemoteOAuthConfig | undefined;
  readonly store: OAuthTokenStore;
  redirectUrl(): string;
  clientName: string;
  /** The configured client secret with its `${secret:…}` reference resolved. */
  clientSecret(): Promise<string | undefined>;
  record(): Promise<TokenRecord | undefined>;
  saveTokens(tokens: StoredOAuthTokens, issuer: string): Promise<void>;
  dropTokens(): Promise<void>;
}

/** The sign-in attempt `auth()` is working on. */
export interface Attempt {
  /** False for background refreshes: a browser must not open from them. */
  interactive: boolean;
  state?: string;
  codeVerifier?: string;
  /**
   * The discovery the verifier was made with, kept with it: the callback leg needs it (the SDK:
   * "persist discoveryState alongside codeVerifier"), and the provider's own copy is shared by
   * every session of the server — another session's `auth()` (the SDK transport runs one on a 401,
   * outside ServerAuth's lock) may invalidate it while this sign-in is being prepared.
   */
  discovery?: OAuthDiscoveryState;
  authorizationUrl?: URL;
}

export class PatchbayOAuthProvider implements OAuthClientProvider {
  attempt: Attempt = { interactive: false };
  discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly host: ProviderHost) {}

  get redirectUrl(): string {
    return this.host.redirectUrl();
  }

  get clientMetadataUrl(): string | undefined {
    return this.host.config?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.host.config?.scope;
    return {
      client_name: this.host.clientName,
      redirect_uris: [this.host.redirectUrl()],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(32).toString('base64url');
    this.attempt.state = state;
    return state;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const config = this.host.config;
    if (config?.clientId) {
      const secret = await this.host.clientSecret();
      // Stamped with the issuer asked about: a pre-registered client is meant for the server's AS.
      return { client_id: config.clientId, ...(secret ? { client_secret: secret } : {}), ...(ctx?.issuer ? { issuer: ctx.issuer } : {}) };
    }
    if (!ctx?.issuer) return undefined;
    return (await this.host.store.loadClient(ctx.issuer, this.redirectUrl))?.client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.host.config?.clientId) return; // the config holds it; nothing to store
    const issuer = ctx?.issuer ?? client.issuer;
    if (!issuer) return;
    await this.host.store.saveClient({ v: 1, issuer, redirectUri: this.redirectUrl, client });
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.host.record();
    if (!record) return undefined;
    if (ctx?.issuer && !sameIssuer(record.issuer, ctx.issuer)) return undefined;
    return { ...record.tokens, issuer: record.issuer };
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) throw new Error('tokens without an issuer cannot be stored');
    await this.host.saveTokens(tokens, issuer);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.attempt.interactive) throw new InteractionNeeded();
    const metadata = this.discovery?.authorizationServerMetadata;
    if (metadata && !(metadata.code_challenge_methods_supported ?? []).includes('S256')) {
      throw new UpstreamAuthError(
        'oauth_config',
        `the authorization server of '${this.host.serverId}' (${metadata.issuer}) does not advertise PKCE S256; MCP requires it, so Patchbay will not sign in there`,
      );
    }
    // Opened by ServerAuth once auth() has returned (outside its lock: the callback needs it).
    this.attempt.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.attempt.codeVerifier = codeVerifier;
    if (this.discovery) this.attempt.discovery = this.discovery;
  }

  codeVerifier(): string {
    if (!this.attempt.codeVerifier) throw new Error('no PKCE code verifier for this sign-in');
    return this.attempt.codeVerifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.host.dropTokens();
    if ((scope === 'all' || scope === 'client') && !this.host.config?.clientId) {
      const issuer = this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
      if (issuer) await this.host.store.deleteClient(issuer, this.redirectUrl);
    }
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'all' || scope === 'verifier') this.attempt.codeVerifier = undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /**
   * P39: the canonical server URI, or the metadata's `resource` when it matches; none if opted out.
   * The metadata's identifier is sent exactly as published (RFC 9728 §3.3, RFC 8707 §2): a parsed
   * URL would add a "/" to a pathless one (`http://host:1234` → `http://host:1234/`), and an
   * authorization server may compare the indicator as a string.
   */
  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    if (this.host.config?.resource === false) return undefined;
    const canonical = resourceUrlFromServerUrl(serverUrl);
    if (resource === undefined) return canonical;
    const refuse = (why: string): never => {
      throw new UpstreamAuthError('oauth_config', `server '${this.host.serverId}' publishes metadata for resource ${resource}, ${why}; refusing to sign in (its tokens would be meant for another server)`);
    };
    if (!URL.canParse(resource)) refuse('which is not an absolute URI');
    if (resource.includes('#')) refuse('which has a fragment (RFC 8707 §2 forbids one)');
    if (!checkResourceAllowed({ requestedResource: canonical, configuredResource: resource })) refuse(`which is not ${canonical.href}`);
    return resourceIndicator(resource);
  }
}

/**
 * A resource indicator that keeps its exact text: the SDK sends a provider's indicator as its
 * `href` (`auth()` in @modelcontextprotocol/client 2.4), which for a parsed URL is normalised.
 * A URL in every other respect (origin, pathname …), for code that compares it.
 */
export function resourceIndicator(exact: string): URL {
  const url = new URL(exact);
  Object.defineProperties(url, {
    href: { get: () => exact, enumerable: true },
    toString: { value: () => exact },
    toJSON: { value: () => exact },
  });
  return url;
}

/** RFC 8414 issuers compared as the SDK does: equal, or differing only by a trailing slash. */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '');
}
