/** OAuth logins per remote server: state, issuer, scopes, expiry; sign in and sign out. */
import { useCallback, useEffect, useState } from 'react';
import type { OAuthServerStatus } from '../../../shared/api/oauth-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { useServices } from '../../app/services.js';

const STATE_TEXT: Record<OAuthServerStatus['state'], string> = {
  off: 'OAuth off',
  signed_out: 'Signed out',
  pending: 'Waiting for the browser…',
  signed_in: 'Signed in',
  expired: 'Expired',
};

export function OAuthSection() {
  const { bridge } = useServices();
  const [list, setList] = useState<OAuthServerStatus[]>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<{ server: string; url: string }>();
  const load = useCallback(async () => {
    const r = await bridge.call('oauth.status', {});
    if (r.ok) {
      setList(r.value);
      setError(undefined);
    } else setError(r.message);
  }, [bridge]);
  useEffect(() => {
    void load();
    // Sign-ins finish in another tab: refresh when the engine says one came back or is needed.
    return bridge.subscribe((e) => {
      if (e.channel === 'oauth.loginCompleted') setPending(undefined);
      if (e.channel === 'oauth.loginCompleted' || e.channel === 'oauth.loginNeeded' || e.channel === 'config.changed') void load();
    });
  }, [bridge, load]);

  const act = async (server: string, action: 'oauth.signIn' | 'oauth.signOut'): Promise<void> => {
    const r = action === 'oauth.signIn' ? await bridge.call('oauth.signIn', { server }) : await bridge.call('oauth.signOut', { server });
    if (!r.ok) return setError(r.message);
    // The engine has already opened the page in the browser; the link is the fallback when it could not.
    if (action === 'oauth.signIn' && 'authorizationUrl' in r.value) setPending({ server, url: r.value.authorizationUrl });
    await load();
  };

  return (
    <section aria-labelledby="oauth-title" className="panel" data-testid="oauth-section">
      <h2 id="oauth-title">OAuth logins</h2>
      <p className="muted">Remote servers that use OAuth are signed in once here; every client and session of that server shares the login. Tokens are refreshed before they expire when the server allows it.</p>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {pending && (
        <p role="status" data-testid="oauth-pending">
          Sign-in for <strong>{pending.server}</strong> opened in your browser. No tab appeared?{' '}
          <a href={pending.url} target="_blank" rel="noopener noreferrer">Open the sign-in page</a>.
        </p>
      )}
      {list && list.length === 0 && <p className="muted" data-testid="oauth-empty">No remote servers yet. Add one under Servers (Remote); if it asks for OAuth, its sign-in appears here.</p>}
      {list && list.length > 0 && (
        <table className="table" data-testid="oauth-table">
          <caption className="visually-hidden">OAuth sign-in per remote server</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col">Issuer</th>
              <th scope="col">Scopes</th>
              <th scope="col">Expires</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.server}>
                <th scope="row">{s.server}</th>
                <td>
                  {STATE_TEXT[s.state]}
                  {s.needsLogin && s.state !== 'signed_in' ? <span className="error-text"> · needs sign-in</span> : null}
                </td>
                <td className="mono small">{s.issuer ?? '—'}</td>
                <td className="mono small">{s.scope ?? '—'}</td>
                <td>{s.expiresAt ? formatDateTime(s.expiresAt) : '—'}</td>
                <td className="row-actions">
                  {s.state !== 'off' && s.state !== 'signed_in' && (
                    <button type="button" className="button button-primary" onClick={() => void act(s.server, 'oauth.signIn')} aria-label={`Sign in to ${s.server}`}>Sign in</button>
                  )}
                  {s.state === 'pending' && s.authorizationUrl && <a className="button" href={s.authorizationUrl} target="_blank" rel="noopener noreferrer">Open sign-in page</a>}
                  {(s.state === 'signed_in' || s.state === 'expired') && (
                    <button type="button" className="button" onClick={() => void act(s.server, 'oauth.signOut')} aria-label={`Sign out of ${s.server}`}>Sign out</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
