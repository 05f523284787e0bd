import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, scrubText } from '../log/logger.js';
import { FileSecretStore } from '../secrets/file-secret-store.js';
import { maskInLogs, OAuthTokenStore, type TokenRecord } from './token-store.js';

let dir: string;
let secrets: FileSecretStore;
let store: OAuthTokenStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pb-token-store-'));
  secrets = await FileSecretStore.open(path.join(dir, 'secrets.json'));
  store = new OAuthTokenStore(secrets, createLogger('test'));
});
afterEach(async () => {
  await secrets.close();
  await rm(dir, { recursive: true, force: true });
});

const record = (serverUrl: string): TokenRecord => ({
  v: 1,
  serverUrl,
  issuer: 'https://auth.example',
  tokens: { access_token: 'access-token-value-1234', token_type: 'Bearer', refresh_token: 'refresh-token-value-5678', scope: 'a b' },
  obtainedAt: 1000,
  expiresAt: 2000,
});

describe('OAuthTokenStore', () => {
  it('round-trips tokens per server URL under an oauth.tokens.* secret name', async () => {
    await store.saveTokens(record('https://mcp.example/mcp'));
    expect(await store.loadTokens('https://mcp.example/mcp')).toEqual(record('https://mcp.example/mcp'));
    expect(await store.loadTokens('https://other.example/mcp')).toBeUndefined();
    const names = await secrets.list();
    expect(names).toEqual([OAuthTokenStore.tokenName('https://mcp.example/mcp')]);
    expect(names[0]).toMatch(/^oauth\.tokens\.[0-9a-f]{24}$/);
    expect(await store.deleteTokens('https://mcp.example/mcp')).toBe(true);
    expect(await store.loadTokens('https://mcp.example/mcp')).toBeUndefined();
  });

  it('keys client registrations by issuer and redirect URI', async () => {
    const client = { v: 1 as const, issuer: 'https://auth.example', redirectUri: 'http://127.0.0.1:1/oauth/callback', client: { client_id: 'abc', client_secret: 'client-secret-9999' } };
    await store.saveClient(client);
    expect(await store.loadClient('https://auth.example', 'http://127.0.0.1:1/oauth/callback')).toEqual(client);
    expect(await store.loadClient('https://auth.example', 'http://127.0.0.1:2/oauth/callback')).toBeUndefined();
    expect(await store.loadClient('https://other.example', 'http://127.0.0.1:1/oauth/callback')).toBeUndefined();
  });

  it('ignores values that are not OAuth data (never throws on a corrupt entry)', async () => {
    await secrets.set(OAuthTokenStore.tokenName('https://mcp.example/mcp'), 'not json');
    expect(await store.loadTokens('https://mcp.example/mcp')).toBeUndefined();
    await secrets.set(OAuthTokenStore.tokenName('https://mcp.example/mcp'), JSON.stringify({ v: 1, serverUrl: 'https://mcp.example/mcp' }));
    expect(await store.loadTokens('https://mcp.example/mcp')).toBeUndefined();
  });

  it('masks tokens and client secrets in log lines once seen', async () => {
    await store.saveTokens(record('https://mcp.example/mcp'));
    expect(scrubText('sent access-token-value-1234 and refresh-token-value-5678')).toBe('sent [oauth-credential] and [oauth-credential]');
    maskInLogs('short');
    expect(scrubText('short')).toBe('short');
  });

  it('reads a store written by another process', async () => {
    await writeFile(path.join(dir, 'secrets.json'), JSON.stringify({ version: 1, secrets: { [OAuthTokenStore.tokenName('u')]: JSON.stringify(record('u')) } }), { mode: 0o600 });
    expect((await store.loadTokens('u'))?.tokens.access_token).toBe('access-token-value-1234');
  });
});
