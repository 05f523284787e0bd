/**
 * Which exchanges the audit trail keeps, and as what: a client's request to a server or a profile
 * (not the hub's own requests, not a server's requests to the client, not a profile's legs to its
 * members — the client's call to the profile is the one that counts — and not `ping`), named by
 * who made it, where, what and how it ended. Never its arguments or its result.
 */
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import type { AuditEvent } from './audit-log.js';

export function auditEventOf(x: ObservedExchange): AuditEvent | undefined {
  if (x.requester !== 'client' || x.session.debug || x.session.profile !== undefined || x.request.method === 'ping') return undefined;
  const event: AuditEvent = {
    t: new Date(x.startedAt).toISOString(),
    kind: 'call',
    client: clientOf(x),
    server: x.session.serverId,
    method: x.request.method,
    outcome: x.status === 'ok' ? 'ok' : x.status === 'error' ? `error:${x.error?.kind ?? 'unknown'}` : x.status,
    ms: Math.round(x.durationMs * 10) / 10,
  };
  if (x.request.target !== undefined) event.target = x.request.target;
  return event;
}

/** `token:<label>` for a client token, `ui` for the Patchbay UI's playground, else `hub-token:<the client's name>`. */
function clientOf(x: ObservedExchange): string {
  if (x.session.principal !== undefined) return `token:${x.session.principal}`;
  if (x.session.clientTransport === 'playground') return 'ui';
  return `hub-token:${x.client?.name ?? 'unknown client'}`;
}
