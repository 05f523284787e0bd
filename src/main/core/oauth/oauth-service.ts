/**
 * The engine's OAuth client for remote servers (P34–P40): one `ServerAuth` per configured server,
 * shared by all of its sessions; the sign-ins in progress, found again by `state` when the
 * browser comes back to `/oauth/callback`; and the calls the UI and the CLI use (status, sign
 * in, sign out). Opening the browser is injected (`OpenUrl`): Electron's shell.openExternal in
 * the desktop app, the platform opener in the headless shell and the relay, an HTTP client that
 * follows the redirect in tests.
 */
import path from 'node:path';
import { hasHeader } from './headers.js';
import type { RemoteServerConfig, ServerConfig } from '../../../shared/config-schema.js';
import { isStdioServer } from '../../../shared/config-schema.js';
import type { OAuthServerStatus } from '../../../shared/api/oauth-contract.js';
import { resolveSecretRefs } from '../config/secret-refs.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { RemoteFetch } from '../upstream/remote-fetch.js';
import type { RemoteAuth } from '../upstream/remote-upstream.js';
import type { LoginFlow } from './login-flow.js';
import type { OpenUrl } from './openers.js';
import { fileLock, type CrossProcessLock } from '../fs/file-lock.js';
import { ServerAuth } from './server-auth.js';
import { OAuthTokenStore } from './token-store.js';

/** In the data dir: held by whichever process sharing it refreshes a token (fs/file-lock.ts). */
export const REFRESH_LOCK_FILE = 'oauth-refresh.lock';

export type OAuthEvent =
  | { channel: 'oauth.loginNeeded'; payload: { server: string; authorizationUrl: string; reason: string } }
  | { channel: 'oauth.loginCompleted'; payload: { server: string; ok: boolean; message?: string; issuer?: string } };

export interface OAuthServiceOptions {
  secrets: SecretStore;
  fetch: RemoteFetch;
  openUrl: OpenUrl;
  /** `http://127.0.0.1:<hub port>/oauth/callback`; read when needed (the port is known late). */
  redirectUrl(): string;
  /** The configured servers now. */
  servers(): Record<string, ServerConfig>;
  emit(event: OAuthEvent): void;
  logger: Logger;
  /** How long a request that hit a 401 waits for the browser sign-in (default 2 minutes). */
  loginWaitMs?: number;
  /** How long a sign-in's callback is accepted (default 10 minutes). */
  flowTtlMs?: number;
  clientName?: string;
  /**
   * The data dir the secret store is in: refreshes take a lock file there, since every process
   * sharing it (replicas, a relay's engine) shares the tokens (fs/file-lock.ts). None: no lock.
   */
  lockDir?: string;
}

export type CallbackOutcome = { ok: true; serverId: string } | { ok: false; status: number; serverId?: string; message: string };

/** OAuth is the engine's unless the config turns it off or brings its own Authorization header. */
export function oauthEnabled(server: RemoteServerConfig): boolean {
  return server.oauth !== false && !hasHeader(server.headers, 'authorization');
}

export class OAuthService {
  private readonly store: OAuthTokenStore;
  private readonly auths = new Map<string, { key: string; auth: ServerAuth }>();
  private readonly flows = new Map<string, { flow: LoginFlow; auth: ServerAuth }>();

  private readonly refreshLock: CrossProcessLock | undefined;

  constructor(private readonly options: OAuthServiceOptions) {
    this.store = new OAuthTokenStore(options.secrets, options.logger);
    this.refreshLock = options.lockDir === undefined ? undefined : fileLock(path.join(options.lockDir, REFRESH_LOCK_FILE), { busy: 'another Patchbay process sharing this data dir is refreshing an OAuth token (it takes seconds)' });
  }

  /** The auth a remote connection of `serverId` uses, or undefined when OAuth is off for it. */
  remoteAuth(serverId: string, server: RemoteServerConfig): RemoteAuth | undefined {
    return this.serverAuth(serverId, server)?.remote();
  }

  serverAuth(serverId: string, server: RemoteServerConfig): ServerAuth | undefined {
    if (!oauthEnabled(server)) return undefined;
    const key = JSON.stringify([server.url, server.oauth ?? null]);
    const existing = this.auths.get(serverId);
    if (existing?.key === key) return existing.auth;
    existing?.auth.close();
    const oauth = server.oauth === false ? undefined : server.oauth;
    const auth = new ServerAuth(serverId, server.url, oauth, {
      store: this.store,
      fetch: this.options.fetch,
      redirectUrl: () => this.options.redirectUrl(),
      resolveSecret: (value, field) => resolveSecretRefs(value, this.options.secrets, { serverId, field }),
      logger: this.options.logger.child(serverId),
      clientName: this.options.clientName ?? 'Patchbay',
      loginWaitMs: this.options.loginWaitMs ?? 120_000,
      flowTtlMs: this.options.flowTtlMs ?? 10 * 60_000,
      loginStarted: (a, flow, reason) => this.loginStarted(a, flow, reason),
      loginFinished: (a, _flow, outcome) => this.options.emit({ channel: 'oauth.loginCompleted', payload: { server: a.serverId, ...outcome } }),
      ...(this.refreshLock ? { refreshLock: this.refreshLock } : {}),
    });
    this.auths.set(serverId, { key, auth });
    return auth;
  }

  /** Finishes a sign-in from the redirect's query (`code`, `state`, `iss` or `error`). */
  async handleCallback(query: URLSearchParams): Promise<CallbackOutcome> {
    const state = query.get('state');
    const entry = state ? this.flows.get(state) : undefined;
    if (!entry || entry.flow.settled || entry.flow.expiresAt <= Date.now()) {
      return { ok: false, status: 400, message: 'This sign-in link is unknown or has expired. Start the sign-in again from Patchbay or from your MCP client.' };
    }
    const { flow, auth } = entry;
    const error = query.get('error');
    if (error) {
      // error_description comes from whoever sent the browser here: only the code is shown.
      const code = /^[\w.-]{1,64}$/.test(error) ? error : 'invalid_response';
      const message = `the authorization server did not grant access (${code})`;
      flow.reject(new Error(message));
      this.options.emit({ channel: 'oauth.loginCompleted', payload: { server: auth.serverId, ok: false, message } });
      return { ok: false, status: 400, serverId: auth.serverId, message: `Signing in to '${auth.serverId}' failed: ${message}.` };
    }
    const code = query.get('code');
    if (!code) return { ok: false, status: 400, serverId: auth.serverId, message: 'The sign-in response carries no authorization code.' };
    try {
      await auth.complete(flow, code, query.get('iss') ?? undefined);
      return { ok: true, serverId: auth.serverId };
    } catch (err) {
      return { ok: false, status: 400, serverId: auth.serverId, message: `Signing in to '${auth.serverId}' failed: ${(err as Error).message}` };
    }
  }

  async status(serverId?: string): Promise<OAuthServerStatus[]> {
    const servers = this.options.servers();
    const ids = serverId === undefined ? Object.keys(servers) : [serverId];
    const out: OAuthServerStatus[] = [];
    for (const id of ids) {
      const server = servers[id];
      if (!server || isStdioServer(server) || server.disabled) continue;
      const auth = this.serverAuth(id, server);
      out.push(auth ? await auth.status() : { server: id, state: 'off', needsLogin: false });
    }
    return out;
  }

  /** Starts (or resumes) the sign-in of a server and opens the browser; returns the URL. */
  async signIn(serverId: string): Promise<{ server: string; authorizationUrl: string }> {
    const auth = this.authOf(serverId);
    const pending = auth.flow && !auth.flow.settled && auth.flow.expiresAt > Date.now() ? auth.flow : undefined;
    const flow = pending ?? (await auth.signIn());
    if (pending) this.open(auth, pending);
    return { server: serverId, authorizationUrl: flow.authorizationUrl };
  }

  async signOut(serverId: string): Promise<{ server: string; signedOut: boolean }> {
    return { server: serverId, signedOut: await this.authOf(serverId).signOut() };
  }

  close(): void {
    for (const { auth } of this.auths.values()) auth.close();
    this.auths.clear();
  }

  private authOf(serverId: string): ServerAuth {
    const server = this.options.servers()[serverId];
    if (!server) throw new OAuthServiceError('unknown_server', `there is no server '${serverId}' in the config`);
    if (isStdioServer(server)) throw new OAuthServiceError('not_remote', `server '${serverId}' is a local (stdio) server; only remote servers sign in`);
    const auth = this.serverAuth(serverId, server);
    if (!auth) throw new OAuthServiceError('oauth_off', `OAuth is off for server '${serverId}' (its config sets oauth: false or an Authorization header)`);
    return auth;
  }

  private loginStarted(auth: ServerAuth, flow: LoginFlow, reason: string): void {
    this.flows.set(flow.state, { flow, auth });
    const forget = (): void => {
      if (this.flows.get(flow.state)?.flow === flow) this.flows.delete(flow.state);
    };
    void flow.done.then(forget, forget);
    // Expired flows leave the table even if nobody comes back.
    setTimeout(forget, Math.max(0, flow.expiresAt - Date.now())).unref();
    this.options.emit({ channel: 'oauth.loginNeeded', payload: { server: auth.serverId, authorizationUrl: flow.authorizationUrl, reason } });
    this.open(auth, flow);
  }

  private open(auth: ServerAuth, flow: LoginFlow): void {
    this.options.logger.info(`server '${auth.serverId}' needs a sign-in; opening the browser`);
    void Promise.resolve()
      .then(() => this.options.openUrl(flow.authorizationUrl, { serverId: auth.serverId }))
      .catch((err: Error) => this.options.logger.warn(`could not open the browser for server '${auth.serverId}': ${err.message}; open ${flow.authorizationUrl} yourself`));
  }
}

/** A call the UI made that cannot be served; `code` is stable, the message says what to do. */
export class OAuthServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthServiceError';
  }
}
