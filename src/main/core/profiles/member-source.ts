/**
 * One member of an aggregate as the shared stages see it (the lists, aggregate-lists.ts, and the
 * routing, aggregate-routing.ts), whichever era the aggregate speaks to it: a legacy session
 * (member-link.ts) or modern requests (modern-member.ts).
 */

/** Where a member stands: never asked, being (re)connected, answering, or down until its backoff passes. */
export type LinkState = 'idle' | 'connecting' | 'up' | 'down';

/** What a member said of itself: its `initialize` answer, or the same parts of its `server/discover` one. */
export interface MemberInit {
  protocolVersion?: string;
  capabilities: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
  instructions?: string;
}

export interface MemberSource {
  readonly server: string;
  /** What the member said of itself: its `initialize` answer, or its `server/discover` one. */
  readonly init: MemberInit | undefined;
  /** Reachable now (a member that is down is listed from what it last said). */
  readonly isUp: boolean;
  /** A (re)connection in progress: resolves true when the member is up. */
  readonly pending: Promise<boolean> | undefined;
  /**
   * A request of the aggregate's own (a list, a read tried on each member in turn). Resolves with
   * the result; rejects with a MemberError for the member's JSON-RPC error, else with an Error
   * whose message names the server.
   */
  request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown>;
}

/** Whether a member declared a capability (`tools`, `prompts`, `resources`, …). */
export function hasCapability(member: MemberSource, capability: string): boolean {
  return member.init?.capabilities[capability] !== undefined;
}
