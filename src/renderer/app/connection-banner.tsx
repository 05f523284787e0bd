/** Says when the engine cannot be reached or the login ended, and what to do about it. */
import { useAppState } from './services.js';

export function ConnectionBanner() {
  const connection = useAppState((s) => s.connection);
  const problems = useAppState((s) => s.configProblems);
  return (
    <div aria-live="polite" className="banner-slot">
      {connection.state === 'logged-out' && (
        <div className="banner banner-error" role="alert" data-testid="logged-out">
          Your login has ended (the hub restarted or the token was rotated).{' '}
          <a href="/ui/login">Log in again</a> with the link <code>patchbay serve</code> prints, or with the hub token.
        </div>
      )}
      {connection.state === 'reconnecting' && <div className="banner banner-warn">{connection.reason}</div>}
      {problems.length > 0 && (
        <div className="banner banner-error" role="alert">
          The config file has problems, so the hub keeps using the last good version. Fix them in the file:
          <ul>
            {problems.map((p) => (
              <li key={p.path + p.message}>
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
