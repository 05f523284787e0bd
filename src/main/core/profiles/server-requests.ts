/**
 * Requests members send the client (sampling, elicitation, roots) in one aggregated session.
 * Two members may both use id 1, so each gets an id of the aggregate's own
 * (`patchbay-<member>-<n>`), and the client's answer goes back to the member that asked with
 * the member's own id.
 */
import { idKey, type JsonRpcId } from '../protocol/json-rpc.js';
import type { MemberLink } from './member-link.js';

export class ServerRequests {
  private readonly byKey = new Map<string, { link: MemberLink; id: JsonRpcId }>();
  private seq = 0;

  /** The id the client sees for a member's request. */
  rename(link: MemberLink, id: JsonRpcId): string {
    const renamed = `patchbay-${link.index}-${++this.seq}`;
    this.byKey.set(idKey(renamed), { link, id });
    return renamed;
  }

  /** Who asked what the client answers (once), with the member's own id. */
  answered(id: JsonRpcId | null | undefined): { link: MemberLink; id: JsonRpcId } | undefined {
    const key = idKey(id ?? '');
    const origin = this.byKey.get(key);
    this.byKey.delete(key);
    return origin;
  }

  /** The member cancelled its own request: the id the client knows it by, if it is still open. */
  cancelled(link: MemberLink, id: unknown): string | undefined {
    for (const [key, origin] of this.byKey) {
      if (origin.link !== link || origin.id !== id) continue;
      this.byKey.delete(key);
      return key.slice(2);
    }
    return undefined;
  }

  /** A member went away: its requests will never be answered to it. */
  forget(link: MemberLink): void {
    for (const [key, origin] of [...this.byKey]) if (origin.link === link) this.byKey.delete(key);
  }
}
