/**
 * Settings → Client tokens (issue 17): the token each exported HTTP client holds, when it was
 * last used, and Revoke. Values are never shown: an export writes a token into the client's
 * config file and nowhere else, and the engine keeps only its hash.
 */
import { useEffect, useState } from 'react';
import type { ClientToken } from '../../../shared/api/settings-contract.js';
import { loadClientTokens, revokeClientToken } from '../../app/commands.js';
import { useAppState, useServices } from '../../app/services.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime, relativeTime } from '../../components/format.js';

export function ClientTokensPanel() {
  const services = useServices();
  const tokens = useAppState((s) => s.clientTokens);
  const [showRevoked, setShowRevoked] = useState(false);
  useEffect(() => void loadClientTokens(services), [services]);
  const shown = tokens?.filter((t) => showRevoked || t.revoked === undefined) ?? [];
  const revokedCount = tokens?.filter((t) => t.revoked !== undefined).length ?? 0;
  return (
    <section className="panel" aria-labelledby="client-tokens-title" data-testid="client-tokens-panel">
      <h2 id="client-tokens-title">Client tokens</h2>
      <p className="muted">
        Each client that Patchbay exports to over HTTP gets a token of its own, written into that client's config file only. Revoke one if its file may have leaked: only that client is cut off (it gets 401 until you export it again from Clients); the others and this UI keep working.
      </p>
      {tokens !== undefined && tokens.length === 0 && <p className="muted" data-testid="client-tokens-empty">No client tokens yet: export an HTTP client (Clients → Export) to create one.</p>}
      {shown.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="client-tokens-table">
            <caption className="visually-hidden">Client tokens</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Config file</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col"><span className="visually-hidden">State and actions</span></th>
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => (
                <TokenRow key={t.id} token={t} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revokedCount > 0 && (
        <label className="check">
          <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} /> Show revoked tokens ({revokedCount})
        </label>
      )}
    </section>
  );
}

function TokenRow({ token }: { token: ClientToken }) {
  const services = useServices();
  const [error, setError] = useState<string>();
  const revoke = async (): Promise<void> => {
    try {
      await revokeClientToken(services, token.id);
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <tr data-testid="client-token-row" data-token-id={token.id}>
      <th scope="row">
        {token.label} <span className="muted small">{token.id}</span>
      </th>
      <td>
        <code className="small">{token.file}</code>
      </td>
      <td title={token.created}>{formatDateTime(token.created)}</td>
      <td title={token.lastUsed ?? 'never'}>{token.lastUsed ? relativeTime(token.lastUsed) : 'never'}</td>
      <td>
        {token.revoked ? (
          <span className="chip" data-testid="client-token-revoked" title={token.revoked}>
            revoked {formatDateTime(token.revoked)}
          </span>
        ) : (
          <ConfirmButton label="Revoke" confirmLabel="Revoke now" onConfirm={revoke} testId="revoke-client-token" accessibleName={`Revoke the token of ${token.label}`} />
        )}
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </td>
    </tr>
  );
}
