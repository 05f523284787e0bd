/**
 * OAuth 2.1 for remote servers, owned by the engine (issue 3, part 3; P34–P40), against the small
 * authorization server and the SDK server of the test tree. The browser step is an opener that
 * follows the authorization server's redirect with an HTTP client, back to the hub's callback.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api/contract.js';
import type { OAuthServerStatus } from '../../src/shared/api/oauth-contract.js';
import { setLogSink, type LogRecord } from '../../src/main/core/log/logger.js';
import { followRedirectsOpener, type OpenUrl } from '../../src/main/core/oauth/openers.js';
import { onCleanup } from '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { initializeRequest, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { headerOf, OAUTH_SERVER, REMOTE_HTTP_SERVER, startFixture, startRemoteHub, type Fixture, type RecordedRequest } from './remote-harness.js';

interface AsEvent {
  type: 'authorize' | 'token' | 'register';
  clientId?: string;
  scope?: string;
  resource?: string;
  state?: boolean;
  codeChallengeMethod?: string;
  grant?: string;
  authMethod?: string;
}

interface Setup {
  as: Fixture;
  rs: Fixture;
  hub: TestHub;
  events: ApiEvent[];
  asLog(): Promise<AsEvent[]>;
  status(): Promise<OAuthServerStatus>;
}

async function setup(o: { asArgs?: string[]; rsArgs?: string[]; server?: Record<string, unknown>; secrets?: Record<string, string>; openUrl?: OpenUrl; loginWaitMs?: number } = {}): Promise<Setup> {
  const as = await startFixture(OAUTH_SERVER, o.asArgs ?? []);
  const rs = await startFixture(REMOTE_HTTP_SERVER, ['--oauth-issuer', as.url, ...(o.rsArgs ?? [])]);
  const hub = await startRemoteHub({
    servers: { secure: { url: rs.url, ...(o.server ?? {}) } },
    ...(o.secrets ? { secrets: o.secrets } : {}),
    engine: { openUrl: o.openUrl ?? followRedirectsOpener(), ...(o.loginWaitMs !== undefined ? { oauthLoginWaitMs: o.loginWaitMs } : {}) },
  });
  const events: ApiEvent[] = [];
  const sub = hub.engine.api.subscribe((e) => events.push(e));
  onCleanup(() => sub.unsubscribe());
  return {
    as,
    rs,
    hub,
    events,
    asLog: () => as.debug<AsEvent[]>('/_debug/log'),
    status: async () => {
      const r = await apiCall<OAuthServerStatus[]>(hub, 'oauth.status', { server: 'secure' });
      expect(r.ok).toBe(true);
      return r.value![0]!;
    },
  };
}

async function initialize(hub: TestHub): Promise<JsonRpcMessage> {
  const res = await post(hub, 'secure', initializeRequest());
  return (await messagesOfResponse(res, 20_000)).messages[0]!;
}

describe('OAuth for remote servers', () => {
  it('signs in on the first 401 (discovery, DCR, PKCE S256, state, resource) and the request goes on', async () => {
    const logs: LogRecord[] = [];
    setLogSink((r) => logs.push(r));
    onCleanup(() => setLogSink(undefined));
    const s = await setup();
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'authorized' })).toBe('authorized');

    const log = await s.asLog();
    expect(log.map((e) => e.type)).toEqual(['register', 'authorize', 'token']);
    const authorize = log[1]!;
    expect(authorize).toMatchObject({ state: true, codeChallengeMethod: 'S256', resource: s.rs.url });
    expect(log[2]).toMatchObject({ grant: 'authorization_code', resource: s.rs.url });

    // The upstream saw the OAuth token, never the hub token (P27).
    const seen = await s.rs.debug<RecordedRequest[]>('/_debug/requests');
    const authorized = seen.filter((r) => headerOf(r, 'authorization'));
    expect(authorized.length).toBeGreaterThan(0);
    for (const r of authorized) expect(headerOf(r, 'authorization')).not.toContain(s.hub.token!);

    expect(await s.status()).toMatchObject({ server: 'secure', state: 'signed_in', issuer: s.as.url, needsLogin: false });
    expect(s.events.map((e) => e.channel)).toEqual(expect.arrayContaining(['oauth.loginNeeded', 'oauth.loginCompleted']));
    expect(s.events.find((e) => e.channel === 'oauth.loginCompleted')?.payload).toMatchObject({ server: 'secure', ok: true });

    // Tokens live in the secret store (P40), keyed per server URL / issuer, never in the logs.
    const secrets = JSON.parse(await readFile(path.join(s.hub.dataDir, 'secrets.json'), 'utf8')) as { secrets: Record<string, string> };
    const names = Object.keys(secrets.secrets);
    expect(names.some((n) => n.startsWith('oauth.tokens.'))).toBe(true);
    expect(names.some((n) => n.startsWith('oauth.client.'))).toBe(true);
    const tokenRecord = JSON.parse(secrets.secrets[names.find((n) => n.startsWith('oauth.tokens.'))!]!) as { tokens: { access_token: string }; issuer: string };
    expect(tokenRecord.issuer).toBe(s.as.url);
    const logText = JSON.stringify(logs);
    expect(logText).not.toContain(tokenRecord.tokens.access_token);
  });

  it('one login is shared by every session of a server', async () => {
    const s = await setup();
    const clients = await Promise.all([connect(s.hub, 'secure'), connect(s.hub, 'secure'), connect(s.hub, 'secure')]);
    const later = await connect(s.hub, 'secure');
    for (const c of [...clients, later]) expect(await c.tool('echo', { text: 'x' })).toBe('x');
    const log = await s.asLog();
    expect(log.filter((e) => e.type === 'authorize')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'token')).toHaveLength(1);
  });

  it('a server that needs a login nobody completes answers with a clear JSON-RPC error; signing in later makes it work', async () => {
    const opened: string[] = [];
    const s = await setup({ openUrl: (url) => void opened.push(url), loginWaitMs: 800 });
    const answer = await initialize(s.hub);
    expect(answer.error?.code).toBe(-32001);
    expect(answer.error?.message).toMatch(/server 'secure' needs you to sign in/);
    const data = answer.error?.data as { authorizationUrl?: string; cause?: string };
    expect(data.cause).toBe('login_required');
    expect(opened).toEqual([data.authorizationUrl]);
    expect(await s.status()).toMatchObject({ state: 'pending', needsLogin: true, authorizationUrl: data.authorizationUrl });

    // A second attempt joins the pending sign-in: no second browser window.
    expect((await initialize(s.hub)).error?.data).toMatchObject({ cause: 'login_required' });
    expect(opened).toHaveLength(1);

    // The person finishes signing in (here: an HTTP client follows the page's redirects).
    await followRedirectsOpener()(data.authorizationUrl!, { serverId: 'secure' });
    expect(await s.status()).toMatchObject({ state: 'signed_in', needsLogin: false });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'later' })).toBe('later');
  });

  it('uses a pre-registered client from the config (secret by reference), before DCR, with client_secret_basic', async () => {
    const s = await setup({
      asArgs: ['--no-dcr', '--client-id', 'patchbay-pre', '--client-secret', 'pre-secret-value-42'],
      server: { oauth: { clientId: 'patchbay-pre', clientSecret: '${secret:PRE_SECRET}' } },
      secrets: { PRE_SECRET: 'pre-secret-value-42' },
    });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'pre' })).toBe('pre');
    const log = await s.asLog();
    expect(log.some((e) => e.type === 'register')).toBe(false);
    expect(log.find((e) => e.type === 'token')).toMatchObject({ clientId: 'patchbay-pre', authMethod: 'client_secret_basic' });
  });

  it('uses a Client ID Metadata Document URL when the authorization server supports them', async () => {
    const cimd = 'https://patchbay.example/oauth/client-metadata.json';
    const s = await setup({ asArgs: ['--cimd'], server: { oauth: { clientMetadataUrl: cimd } } });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'cimd' })).toBe('cimd');
    const log = await s.asLog();
    expect(log.some((e) => e.type === 'register')).toBe(false);
    expect(log.find((e) => e.type === 'authorize')?.clientId).toBe(cimd);
  });

  it('refreshes the access token before it expires, without another sign-in', async () => {
    const s = await setup({ asArgs: ['--token-ttl', '2'] });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'first' })).toBe('first');
    const obtained = Date.now();
    // Refreshed once less than half of the 2 s lifetime is left.
    await waitFor(() => Date.now() - obtained > 1100, 'the token to near its expiry', 5000);
    expect(await client.tool('echo', { text: 'second' })).toBe('second');
    const log = await s.asLog();
    expect(log.filter((e) => e.type === 'authorize')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'token').map((e) => e.grant)).toEqual(['authorization_code', 'refresh_token']);
  });

  it('steps up on 403 insufficient_scope with the wider scope, once (P37)', async () => {
    const s = await setup({ rsArgs: ['--read-scope', 'mcp:read', '--write-scope', 'mcp:write'] });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'read' })).toBe('read');
    expect(await client.tool('write_note', { text: 'w' })).toBe('noted: w');
    const authorizations = (await s.asLog()).filter((e) => e.type === 'authorize');
    expect(authorizations.map((e) => e.scope)).toEqual(['mcp:read', 'mcp:read mcp:write']);
  });

  it('gives up with a clear error when a step-up cannot get the scope (retry cap)', async () => {
    const s = await setup({ asArgs: ['--grant-cap', 'mcp:read'], rsArgs: ['--read-scope', 'mcp:read', '--write-scope', 'mcp:write'] });
    const client = await connect(s.hub, 'secure');
    const first = await client.callTool('write_note', { text: 'w' });
    expect(first.response.error?.message).toMatch(/server 'secure' refused 'tools\/call': insufficient scope/);
    const second = await client.callTool('write_note', { text: 'w' });
    expect(second.response.error?.code).toBe(-32001);
    const authorizations = (await s.asLog()).filter((e) => e.type === 'authorize');
    expect(authorizations.length).toBeLessThanOrEqual(3);
  });

  it('refuses an authorization response from another issuer (iss check, P36)', async () => {
    const s = await setup({ asArgs: ['--iss-param', '--wrong-iss'] });
    const answer = await initialize(s.hub);
    expect(answer.error?.data).toMatchObject({ cause: 'login_failed' });
    expect(answer.error?.message).toMatch(/mix-up/);
    expect(answer.error?.message).not.toContain('evil.example');
    expect((await s.asLog()).some((e) => e.type === 'token')).toBe(false);
    expect(await s.status()).toMatchObject({ state: 'signed_out' });
  });

  it('refuses an authorization server that does not advertise PKCE S256 (P36)', async () => {
    const s = await setup({ asArgs: ['--no-pkce-metadata'] });
    const answer = await initialize(s.hub);
    expect(answer.error?.message).toMatch(/does not advertise PKCE S256/);
    expect((await s.asLog()).some((e) => e.type === 'authorize')).toBe(false);
  });

  it('leaves out the resource parameter when the config opts out (P39)', async () => {
    const s = await setup({ server: { oauth: { resource: false } } });
    const client = await connect(s.hub, 'secure');
    expect(await client.tool('echo', { text: 'no resource' })).toBe('no resource');
    const log = await s.asLog();
    expect(log.find((e) => e.type === 'authorize')?.resource).toBeUndefined();
    expect(log.find((e) => e.type === 'token')?.resource).toBeUndefined();
  });

  it('sign-in, status and sign-out through the API', async () => {
    const s = await setup();
    expect(await s.status()).toMatchObject({ state: 'signed_out', needsLogin: false });
    const signIn = await apiCall<{ authorizationUrl: string }>(s.hub, 'oauth.signIn', { server: 'secure' });
    expect(signIn.ok).toBe(true);
    expect(signIn.value!.authorizationUrl).toContain(`${s.as.url}/authorize`);
    await waitFor(async () => (await s.status()).state === 'signed_in', 'the sign-in to complete');

    const out = await apiCall<{ signedOut: boolean }>(s.hub, 'oauth.signOut', { server: 'secure' });
    expect(out.value).toEqual({ server: 'secure', signedOut: true });
    expect(await s.status()).toMatchObject({ state: 'signed_out' });
    const secrets = JSON.parse(await readFile(path.join(s.hub.dataDir, 'secrets.json'), 'utf8')) as { secrets: Record<string, string> };
    expect(Object.keys(secrets.secrets).some((n) => n.startsWith('oauth.tokens.'))).toBe(false);

    const stdio = await apiCall(s.hub, 'oauth.signIn', { server: 'nope' });
    expect(stdio).toMatchObject({ ok: false, code: 'unknown_server' });
  });

  it('the callback refuses an unknown state, and a denied sign-in is reported', async () => {
    const s = await setup({ asArgs: ['--deny'], loginWaitMs: 5000 });
    const bad = await fetch(`${s.hub.url}/oauth/callback?code=x&state=forged`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await bad.text()).toMatch(/unknown or has expired/);
    const answer = await initialize(s.hub);
    expect(answer.error?.data).toMatchObject({ cause: 'login_failed' });
    expect(answer.error?.message).toMatch(/did not grant access \(access_denied\)/);
  });
});
