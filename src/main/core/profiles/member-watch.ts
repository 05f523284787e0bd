/**
 * One member's traffic as the observers see it (hub/observer.ts), in both eras: a session of its
 * own that the hub lends the aggregate (`HubReach.watchMember`: client transport `profile`, nested
 * under the client's 2025 session when there is one), on which the aggregate reports what a
 * session reports of its upstream leg — what the member was sent (`toServer`), what it sent
 * (`fromServer`), its upstream's health (opened, failed, first answer, closed by itself), its
 * events, and the end. So the inspector shows each member's side of a profile's traffic under the
 * member's own names, and the member's status (servers/server-status.ts) learns from it.
 *
 * Per-message calls are made on the SessionWatch itself (`observed.watch.toServer?.(…)`): a method
 * nobody implements costs an optional call, nothing more.
 */
import type { HubNote, SessionWatch } from '../hub/observer.js';
import type { UpstreamClosed, UpstreamEvent } from '../upstream/upstream.js';

/**
 * The note on what an aggregate asks a member on its own account — its lists, a fan-out such as
 * `logging/setLevel`, `server/discover`, a read tried on each member, a member's ping answered,
 * a listen stream of its own: the hub's messages, not the client's, so observers neither take
 * them for the client's nor count them as its calls.
 */
export const OWN_NOTE: HubNote = 'aggregate';

/** A member's watch, with the upstream health a session keeps beside its own (session.ts). */
export class MemberObserved {
  /** The current upstream sent something since it opened, or since it last failed. */
  private answered = false;
  private over = false;

  constructor(readonly watch: SessionWatch) {}

  get ended(): boolean {
    return this.over;
  }

  /** A new upstream connection is in use (the first, or one that replaced a dead one). */
  opened(): void {
    this.answered = false;
    this.watch.upstreamOpened?.();
  }

  /** The member sent something: its first message since it opened (or failed) says it is healthy. */
  answer(): void {
    if (this.answered) return;
    this.answered = true;
    this.watch.upstreamAnswered?.();
  }

  /** Its upstream could not be had at all (a spawn failure, a missing secret, a refused initialize). */
  failed(message: string): void {
    this.watch.upstreamFailed?.(message);
  }

  /** It stopped answering by itself (its child died; the hub answered for it), having answered before or not. */
  closed(info: UpstreamClosed): void {
    this.watch.upstreamClosed?.(info, this.answered);
    this.answered = false;
  }

  /**
   * What its upstream reports besides messages. A remote that re-initialized a lost upstream
   * session on its own link is told as a session tells it: the replayed messages, then a new
   * upstream.
   */
  event(event: UpstreamEvent): void {
    const watch = this.watch;
    if (event.type !== 'reinitialize') watch.upstreamEvent?.(event);
    else if (event.step === 'sent') watch.toServer?.(event.message, undefined, 'replay-initialize');
    else if (event.step === 'answered') watch.fromServer?.(event.message, event.raw);
    else this.opened();
  }

  /** The member's session ends (once): the aggregate closed, or dropped the member. */
  end(state: 'closed' | 'failed', failure: string | undefined): void {
    if (this.over) return;
    this.over = true;
    this.watch.ended?.(state, failure);
  }
}

/** The observers' view of a member, taken from what the hub lent (undefined: nobody listens). */
export function observe(watch: SessionWatch | undefined): MemberObserved | undefined {
  return watch === undefined ? undefined : new MemberObserved(watch);
}
