/**
 * The OAuth state of one remote server, shared by every session (and every link) of that server:
 * one sign-in at a time, one token, refreshed before it expires (P40).
 *
 * - A 401 (the SDK transport calls `onUnauthorized`) refreshes when it can, else starts a browser
 *   sign-in (or joins the one in progress) and waits for it, up to `loginWaitMs`; past that the
 *   request fails with a JSON-RPC error saying a sign-in is needed and where.
 * - A 403 insufficient_scope steps up with the union of the scopes asked so far (P37); when the
 *   token already has every scope asked for, signing in again cannot help and the error says so.
 * - Every `auth()` call runs under a lock, so two sessions never race on a verifier or a refresh
 *   token. The browser opens outside it: the callback that finishes the sign-in takes the lock.
 * - A refresh also holds a lock file in the data dir (fs/file-lock.ts), and reads the store again
 *   under it: replicas sharing the data dir share the tokens, and refresh each one once.
 */
import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  isStrictScopeSuperset,
  type IssuerMismatchError,
  type AuthProvider,
  type AuthResult,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { RemoteOAuthConfig } from '../../../shared/config-schema.js';
import type { OAuthServerStatus } from '../../../shared/api/oauth-contract.js';
import type { Logger } from '../log/logger.js';
import type { RemoteFetch } from '../upstream/remote-fetch.js';
import type { RemoteAuth } from '../upstream/remote-upstream.js';
import { describeAuthError, expiresSoon, isSameOriginLegacyIssuer, tokenStatus } from './auth-policy.js';
import { createLoginFlow, isJoinable, waitForLogin, type LoginFlow } from './login-flow.js';
import { CredentialsRefused, InteractionNeeded, UpstreamAuthError } from '../upstream/upstream-auth-errors.js';
import { PatchbayOAuthProvider, type ProviderHost } from './oauth-provider.js';
import type { CrossProcessLock } from '../fs/file-lock.js';
import type { OAuthTokenStore, TokenRecord } from './token-store.js';

export interface ServerAuthDeps {
  store: OAuthTokenStore;
  fetch: RemoteFetch;
  redirectUrl(): string;
  resolveSecret(value: string, field: string): Promise<string>;
  logger: Logger;
  clientName: string;
  loginWaitMs: number;
  flowTtlMs: number;
  /** A new browser sign-in began: register it for the callback, open the browser, tell the UI. */
  loginStarted(auth: ServerAuth, flow: LoginFlow, reason: string): void;
  /** A sign-in ended (the flow is unregistered by the service). */
  loginFinished(auth: ServerAuth, flow: LoginFlow, outcome: { ok: boolean; message?: string; issuer?: string }): void;
  /** Held around a refresh: other processes sharing the secret store refresh the same tokens (fs/file-lock.ts). */
  refreshLock?: CrossProcessLock;
}

interface LoginOptions {
  scope?: string;
  resourceMetadataUrl?: URL;
  forceReauthorization?: boolean;
  reason: string;
  /** The access token the failed request carried: a newer one means someone already signed in. */
  staleToken?: string;
}

export class ServerAuth implements ProviderHost {
  readonly provider: PatchbayOAuthProvider;
  /** The server answered 401 and no sign-in has completed since. */
  needsLogin = false;
  flow: LoginFlow | undefined;
  private cached: TokenRecord | undefined;
  private loaded = false;
  private lock: Promise<unknown> = Promise.resolve();
  private refreshing: Promise<void> | undefined;
  /** Scopes asked for so far (challenges and step-ups), kept for later sign-ins. */
  private scope: string | undefined;
  private resourceMetadataUrl: URL | undefined;
  /** The RFC 8414 issuer echo is relaxed for a same-origin issuer of a server without PRM. */
  private lenientIssuer = false;

  constructor(
    readonly serverId: string,
    readonly serverUrl: string,
    readonly config: RemoteOAuthConfig | undefined,
    private readonly deps: ServerAuthDeps,
  ) {
    this.provider = new PatchbayOAuthProvider(this);
  }

  get store(): OAuthTokenStore {
    return this.deps.store;
  }

  get clientName(): string {
    return this.deps.clientName;
  }

  redirectUrl(): string {
    return this.deps.redirectUrl();
  }

  async clientSecret(): Promise<string | undefined> {
    const value = this.config?.clientSecret;
    return value === undefined ? undefined : this.deps.resolveSecret(value, 'oauth.clientSecret');
  }

  /** What a remote connection of this server uses: a provider per link (it remembers its token). */
  remote(): RemoteAuth {
    return {
      provider: this.linkProvider(),
      stepUp: (challenge) => this.stepUp(challenge),
      signingIn: () => this.flow !== undefined && !this.flow.settled,
    };
  }

  linkProvider(): AuthProvider {
    let lastToken: string | undefined;
    return {
      token: async () => {
        lastToken = await this.token();
        return lastToken;
      },
      onUnauthorized: (ctx) => this.onUnauthorized(ctx, lastToken),
    };
  }

  async record(): Promise<TokenRecord | undefined> {
    if (!this.loaded) {
      this.cached = await this.deps.store.loadTokens(this.serverUrl);
      this.loaded = true;
    }
    return this.cached;
  }

  async saveTokens(tokens: StoredOAuthTokens, issuer: string): Promise<void> {
    const now = Date.now();
    const previous = this.cached;
    // A refresh may omit `scope` (RFC 6749 §5.1: unchanged); keep the granted scope known.
    const scope = tokens.scope ?? (previous && previous.issuer === issuer ? previous.tokens.scope : undefined);
    const record: TokenRecord = {
      v: 1,
      serverUrl: this.serverUrl,
      issuer,
      tokens: { ...tokens, ...(scope ? { scope } : {}), issuer },
      obtainedAt: now,
      ...(typeof tokens.expires_in === 'number' ? { expiresAt: now + tokens.expires_in * 1000 } : {}),
    };
    this.cached = record;
    this.loaded = true;
    this.needsLogin = false;
    await this.deps.store.saveTokens(record);
  }

  async dropTokens(): Promise<void> {
    this.cached = undefined;
    this.loaded = true;
    await this.deps.store.deleteTokens(this.serverUrl);
  }

  /** The access token for the next request, refreshed first when it is about to expire. */
  async token(): Promise<string | undefined> {
    const record = await this.record();
    if (!record) return undefined;
    if (record.tokens.refresh_token && expiresSoon(record)) await this.refresh();
    return this.cached?.tokens.access_token;
  }

  async onUnauthorized(ctx: { response: Response }, staleToken: string | undefined): Promise<void> {
    // No Bearer challenge: the server refuses what the config sends; signing in would not help.
    if (!/^\s*(bearer|dpop)\b/i.test(ctx.response.headers.get('www-authenticate') ?? '')) throw new CredentialsRefused(this.serverId);
    const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(ctx.response);
    if (resourceMetadataUrl) this.resourceMetadataUrl = resourceMetadataUrl;
    this.scope = computeScopeUnion(this.scope, scope);
    // Discover again: the server may have moved to another authorization server since the last
    // sign-in (its protected resource metadata names it), where Patchbay must register anew (SEP-2352).
    this.provider.discovery = undefined;
    // Another process (a relay's engine, the CLI) may have signed in: look before asking.
    this.loaded = false;
    this.needsLogin = true;
    await this.login({ reason: 'the server answered 401 Unauthorized', ...(this.scope ? { scope: this.scope } : {}), staleToken: staleToken ?? '' });
  }

  /** P37 step-up after 403 insufficient_scope. */
  async stepUp(challenge: { scope?: string; resourceMetadataUrl?: URL }): Promise<void> {
    if (challenge.resourceMetadataUrl) this.resourceMetadataUrl = challenge.resourceMetadataUrl;
    const granted = (await this.record())?.tokens.scope;
    if (!challenge.scope) {
      throw new UpstreamAuthError('insufficient_scope', `server '${this.serverId}' refused the request for insufficient scope without saying which scope it needs`);
    }
    if (granted && !isStrictScopeSuperset(challenge.scope, granted)) {
      // Every scope it asks for was granted already: another sign-in would loop (retry cap).
      throw new UpstreamAuthError('insufficient_scope', `server '${this.serverId}' still refuses the request for insufficient scope, although the sign-in granted '${granted}'`, { scope: challenge.scope });
    }
    const union = computeScopeUnion(this.scope, granted, challenge.scope);
    this.scope = union;
    this.provider.discovery = undefined;
    await this.login({
      reason: `the server needs more scope (${challenge.scope})`,
      ...(union ? { scope: union } : {}),
      forceReauthorization: isStrictScopeSuperset(union, granted),
    });
  }

  /** Starts a sign-in (or returns the pending one) without waiting for it: the UI's "Sign in". */
  async signIn(): Promise<LoginFlow> {
    const result = await this.beginLogin({ reason: 'sign-in was requested', forceReauthorization: true, ...(this.scope ? { scope: this.scope } : {}) });
    if (result === 'authorized') throw new Error('already signed in');
    return result;
  }

  async signOut(): Promise<boolean> {
    return this.exclusive(async () => {
      this.flow?.reject(new Error('signed out'));
      const had = (await this.record()) !== undefined;
      await this.dropTokens();
      return had;
    });
  }

  /** The callback leg: exchanges the code (iss is checked against the recorded issuer, P36). */
  async complete(flow: LoginFlow, code: string, iss: string | undefined): Promise<void> {
    await this.exclusive(async () => {
      if (flow.settled) throw new Error('this sign-in was already finished');
      try {
        const result = await this.runAuth(
          { interactive: true, state: flow.state, codeVerifier: flow.codeVerifier },
          { authorizationCode: code, ...(iss !== undefined ? { iss } : {}), ...(flow.scope ? { scope: flow.scope } : {}) },
          flow,
        );
        if (result !== 'AUTHORIZED') throw new Error('the authorization server issued no token');
      } catch (err) {
        const reason = describeAuthError(err);
        flow.reject(new Error(reason));
        this.deps.loginFinished(this, flow, { ok: false, message: reason });
        if (this.flow === flow) this.flow = undefined;
        throw new Error(reason);
      }
      flow.resolve();
      if (this.flow === flow) this.flow = undefined;
      this.deps.loginFinished(this, flow, { ok: true, ...(this.cached ? { issuer: this.cached.issuer } : {}) });
    });
  }

  async status(): Promise<OAuthServerStatus> {
    const flow = this.flow;
    if (flow && isJoinable(flow, undefined)) return { server: this.serverId, needsLogin: this.needsLogin, state: 'pending', authorizationUrl: flow.authorizationUrl };
    return tokenStatus(this.serverId, this.needsLogin, await this.record());
  }

  close(): void {
    this.flow?.reject(new Error(`server '${this.serverId}' was removed or changed`));
  }

  private async login(options: LoginOptions): Promise<void> {
    const result = await this.beginLogin(options);
    if (result !== 'authorized') await waitForLogin(result, this.deps.loginWaitMs);
  }

  private async beginLogin(options: LoginOptions): Promise<LoginFlow | 'authorized'> {
    let started: LoginFlow | undefined;
    const result = await this.exclusive(async (): Promise<LoginFlow | 'authorized'> => {
      if (options.staleToken !== undefined) {
        const current = (await this.record())?.tokens.access_token;
        if (current && current !== options.staleToken) return 'authorized';
      }
      const pending = this.flow;
      if (pending && isJoinable(pending, options.scope)) return pending;
      let outcome: AuthResult;
      try {
        outcome = await this.runAuth({ interactive: true }, {
          ...(options.scope ? { scope: options.scope } : {}),
          ...(this.resourceMetadataUrl ? { resourceMetadataUrl: this.resourceMetadataUrl } : {}),
          ...(options.forceReauthorization ? { forceReauthorization: true } : {}),
        });
      } catch (err) {
        if (err instanceof UpstreamAuthError) throw err;
        throw new UpstreamAuthError('login_failed', `signing in to server '${this.serverId}' failed: ${describeAuthError(err)}`);
      }
      if (outcome === 'AUTHORIZED') return 'authorized';
      const attempt = this.provider.attempt;
      if (!attempt.state || !attempt.codeVerifier || !attempt.authorizationUrl) throw new Error('the sign-in could not be prepared');
      this.flow?.reject(new Error('a newer sign-in replaced this one'));
      started = createLoginFlow(
        {
          serverId: this.serverId,
          state: attempt.state,
          codeVerifier: attempt.codeVerifier,
          authorizationUrl: attempt.authorizationUrl.href,
          scope: options.scope,
          discovery: attempt.discovery ?? this.provider.discovery,
        },
        this.deps.flowTtlMs,
      );
      this.flow = started;
      return started;
    });
    if (started) this.deps.loginStarted(this, started, options.reason);
    return result;
  }

  private refresh(): Promise<void> {
    const refreshNow = async (): Promise<void> => {
      const record = await this.record();
      if (!record?.tokens.refresh_token || !expiresSoon(record)) return; // refreshed meanwhile
      try {
        await this.runAuth({ interactive: false }, {});
      } catch (err) {
        if (!(err instanceof InteractionNeeded)) this.deps.logger.warn(`server '${this.serverId}': could not refresh the access token: ${describeAuthError(err)}`);
      }
    };
    const lock = this.deps.refreshLock;
    this.refreshing ??= this.exclusive(async () => {
      if (!lock) return refreshNow();
      try {
        await lock.run(async () => {
          // Another process sharing the store (a replica) may have refreshed while this one
          // waited: read the store again, and use its token rather than spend the refresh token
          // a second time (a rotating authorization server refuses that, and the tokens are lost).
          this.loaded = false;
          await refreshNow();
        });
      } catch (err) {
        // The lock was not to be had: keep the token there is; the next request tries again.
        this.deps.logger.warn(`server '${this.serverId}': did not refresh the access token: ${(err as Error).message}`);
      }
    }).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async runAuth(attempt: PatchbayOAuthProvider['attempt'], options: Omit<Parameters<typeof auth>[1], 'serverUrl' | 'fetchFn'>, flow?: LoginFlow): Promise<AuthResult> {
    const once = (): Promise<AuthResult> => {
      this.provider.attempt = { ...attempt };
      if (flow) this.provider.discovery = flow.discovery;
      return auth(this.provider, { serverUrl: this.serverUrl, fetchFn: this.deps.fetch, ...options, ...(this.lenientIssuer ? { skipIssuerMetadataValidation: true } : {}) });
    };
    try {
      return await once();
    } catch (err) {
      if (this.lenientIssuer || !isSameOriginLegacyIssuer(err, this.serverUrl)) throw err;
      // 2025-03-26 servers (no protected resource metadata) serve the authorization server's
      // metadata from their own origin, often naming an issuer under a path of it. Found at the
      // server's own origin, it is the server's own word either way.
      this.deps.logger.info(`server '${this.serverId}': its authorization server metadata names issuer ${(err as IssuerMismatchError).received ?? '?'} on the same origin; accepting it`);
      this.lenientIssuer = true;
      return once();
    }
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lock.then(task, task);
    this.lock = run.catch(() => undefined);
    return run;
  }
}
