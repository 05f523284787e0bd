/**
 * Replicas sharing a data dir share the OAuth tokens of a remote server (issue 23): the secret
 * store is one file. Two engines on one data dir, against the OAuth fixture, which rotates refresh
 * tokens (each is accepted once, as OAuth 2.1 asks of public clients): when the access token nears
 * its expiry both want to refresh at the same moment, and the refresh lock in the data dir
 * (core/fs/file-lock.ts) lets one refresh while the other waits, reads the store again and
 * uses the new token. Without it the second refresh spends a refresh token already spent, the
 * authorization server refuses it, and the tokens are dropped for both.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { followRedirectsOpener } from '../../src/main/core/oauth/openers.js';
import { REFRESH_LOCK_FILE } from '../../src/main/core/oauth/oauth-service.js';
import '../helpers/cleanup.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { OAUTH_SERVER, REMOTE_HTTP_SERVER, startFixture } from '../remote/remote-harness.js';

interface AsEvent {
  type: string;
  grant?: string;
}

describe('OAuth tokens shared by replicas on one data dir', () => {
  it('two engines refresh a rotating token once between them, and both go on with the new one', async () => {
    const as = await startFixture(OAUTH_SERVER, ['--client-id', 'pb-replicas', '--client-secret', 'pb-replicas-secret', '--token-ttl', '2']);
    const rs = await startFixture(REMOTE_HTTP_SERVER, ['--oauth-issuer', as.url]);
    const dataDir = await tempDir('patchbay-oauth-replicas-');
    // A pre-registered client: a dynamic registration is stored per redirect URI, i.e. per port,
    // and these two listen on two ports (replicas in containers share one: docs/deploy.md).
    const servers = { secure: { url: rs.url, oauth: { clientId: 'pb-replicas', clientSecret: '${secret:PB_CLIENT_SECRET}' } } };
    const a = await startHub({ servers, dataDir, secrets: { PB_CLIENT_SECRET: 'pb-replicas-secret' }, tickMs: 100, engine: { openUrl: followRedirectsOpener() } });
    const clientA = await connect(a, 'secure');
    expect(await clientA.tool('echo', { text: 'a signs in' })).toBe('a signs in');
    const signedIn = Date.now();
    // The second replica never opens a browser: it has the first one's tokens from the store.
    const b = await startHub({ servers, dataDir, tickMs: 100, engine: { openUrl: () => Promise.reject(new Error('replica b must not need a sign-in')), oauthLoginWaitMs: 3000 } });
    const clientB = await connect(b, 'secure');
    expect(await clientB.tool('echo', { text: 'b uses it' })).toBe('b uses it');

    let since = signedIn;
    for (let round = 1; round <= 2; round++) {
      // Refreshed once less than half of the 2 s lifetime is left: both engines want it now.
      await waitFor(() => Date.now() - since > 1150, 'the token to near its expiry', 5000);
      since = Date.now();
      const answers = await Promise.all([clientA.tool('echo', { text: `a${round}` }), clientB.tool('echo', { text: `b${round}` })]);
      expect(answers).toEqual([`a${round}`, `b${round}`]);
      const log = await as.debug<AsEvent[]>('/_debug/log');
      expect(log.filter((e) => e.type === 'authorize')).toHaveLength(1);
      expect(log.filter((e) => e.type === 'token').map((e) => e.grant)).toEqual(['authorization_code', ...Array<string>(round).fill('refresh_token')]);
    }
    // The lock is released after each refresh.
    expect(existsSync(path.join(dataDir, REFRESH_LOCK_FILE))).toBe(false);
  }, 30_000);
});
