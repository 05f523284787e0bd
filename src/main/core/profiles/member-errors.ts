/**
 * How both aggregates word a member's trouble: every sentence names the server (`server 'beta' …`),
 * so a client of a profile of ten servers knows which one failed, and the error's `data.server`
 * says it to a program. One place for the words, so the two eras never drift apart.
 */
import { ErrorCode } from '../../../shared/protocol.js';

/** A sentence about a member that names it (`server 'beta': …` unless it already does). */
export function naming(server: string, message: string): string {
  return message.startsWith(`server '${server}'`) ? message : `server '${server}': ${message}`;
}

/** The member has no runtime now: it is not in the config, or it is disabled. */
export function notConfigured(server: string): string {
  return `server '${server}' is not configured (or it is disabled)`;
}

/** The member is down and no reason is known yet. */
export function notConnected(server: string): string {
  return `server '${server}' is not connected`;
}

/** A request routed to a member that left the profile meanwhile. */
export function notInProfile(server: string): string {
  return `server '${server}' is not part of this profile now`;
}

/** A JSON-RPC error a member answered one of the aggregate's own requests with. */
export class MemberError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'MemberError';
  }
}

/** The MemberError for a member's error answer to the aggregate's own `method`. */
export function memberRefused(server: string, method: string, error: { code: number; message: string }): MemberError {
  return new MemberError(`server '${server}' answered ${method} with error ${error.code}: ${error.message}`, error.code);
}

/** The error a client gets for a request its member cannot take (down, with `error` saying why). */
export function unavailable(member: { readonly server: string; readonly error: string | undefined }): { code: number; message: string; data: Record<string, unknown> } {
  const why = member.error ?? notConnected(member.server);
  return { code: ErrorCode.InternalError, message: why.startsWith(`server '${member.server}'`) ? why : `server '${member.server}' is unavailable: ${why}`, data: { server: member.server } };
}
