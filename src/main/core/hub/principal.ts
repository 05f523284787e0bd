/**
 * Which client token a request was authenticated with (issue 17's per-client tokens): the hub's
 * guard notes it on the request, and the doors read it when they open a session (or a modern
 * client's group) so observers can name the client by its token, not only by its clientInfo.
 * Keyed weakly by the request object: nothing to clean up, nothing shared between hubs.
 */
import { RELAY_USER_AGENT } from '../../../shared/protocol.js';

const principals = new WeakMap<object, { label: string; client: string | undefined }>();

/** `client`: the client id the token was minted for (`cursor`); a profile's on-demand tools may differ per client. */
export function notePrincipal(req: object, label: string, client?: string): void {
  principals.set(req, { label, client });
}

/** The label of the client token the request carried; undefined for the hub token (or none). */
export function principalOf(req: object | undefined): string | undefined {
  return req === undefined ? undefined : principals.get(req)?.label;
}

/**
 * `relay` when `patchbay relay` sent the request (its User-Agent, RELAY_USER_AGENT): observers then
 * name the client by how it came (the audit trail's `relay`). Read from the request that opens a
 * session, like the principal.
 */
export function viaOf(req: { headers: Readonly<Record<string, string | string[] | undefined>> } | undefined): 'relay' | undefined {
  const agent = req?.headers['user-agent'];
  return typeof agent === 'string' && (agent === RELAY_USER_AGENT || agent.startsWith(`${RELAY_USER_AGENT}/`)) ? 'relay' : undefined;
}

/** The client id of the client token the request carried; undefined for the hub token (or none). */
export function principalClientOf(req: object | undefined): string | undefined {
  return req === undefined ? undefined : principals.get(req)?.client;
}
