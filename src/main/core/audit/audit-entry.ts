/**
 * Which exchanges the audit trail keeps, and as what: a client's request to a server or a profile
 * (not the hub's own requests, not a server's requests to the client, not a profile's legs to its
 * members — the client's call to the profile is the one that counts — not the legacy session the
 * era bridge holds for a 2026-07-28 client (its requests are the client's, already recorded: a
 * second line, and an `initialize` the client never sent, would be wrong), and not `ping`), named
 * by who made it, where, what and how it ended. Never its arguments or its result.
 */
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import type { ClientIdentity } from '../upstream/upstream.js';
import type { AuditEvent } from './audit-log.js';

export function auditEventOf(x: ObservedExchange): AuditEvent | undefined {
  const s = x.session;
  if (x.requester !== 'client' || s.debug || s.profile !== undefined || s.clientTransport === 'bridge' || x.request.method === 'ping') return undefined;
  const client = clientOf(x);
  const event: AuditEvent = {
    t: new Date(x.startedAt).toISOString(),
    kind: 'call',
    client,
    server: x.session.serverId,
    method: x.request.method,
    outcome: x.status === 'ok' ? 'ok' : x.status === 'error' ? `error:${x.error?.kind ?? 'unknown'}` : x.status,
    ms: Math.round(x.durationMs * 10) / 10,
  };
  // The client's own name, where `client` does not say it already (the playground's is always the same).
  if (x.client?.name !== undefined && client !== 'ui' && !client.startsWith('hub-token:')) event.name = x.client.name;
  if (x.request.target !== undefined) event.target = x.request.target;
  return event;
}

/**
 * By the credential first (a client token's label), then by how the client came: `relay` for
 * `patchbay relay` (it says so in its User-Agent; `relay/token:<label>` when it held a client
 * token), `ui` for the Patchbay UI's playground, else `hub-token:<the client's name>`.
 */
function clientOf(x: ObservedExchange): string {
  const { principal, via, clientTransport } = x.session;
  return auditClientName({ transport: clientTransport, ...(principal !== undefined ? { principal } : {}), ...(via !== undefined ? { via } : {}), ...(x.client?.name !== undefined ? { name: x.client.name } : {}) });
}

/** The audit trail's name for a client (see clientOf): call lines and policy lines name it alike. */
export function auditClientName(who: ClientIdentity): string {
  if (who.via === 'relay') return who.principal !== undefined ? `relay/token:${who.principal}` : 'relay';
  if (who.principal !== undefined) return `token:${who.principal}`;
  if (who.transport === 'playground') return 'ui';
  return `hub-token:${who.name ?? 'unknown client'}`;
}
