/**
 * The members of one aggregate, in both eras (a legacy session's MemberLinks, the modern
 * aggregate's ModernMembers): one per enabled member of the profile, kept in step with the
 * profile's resolution. A member that leaves the profile, or whose server's runtime was replaced
 * by a config reload, is dropped (its aggregate decides what that means for requests in flight)
 * and, when still wanted, made anew; its retry timer goes with it.
 */
import type { ServerPort } from '../hub/server-port.js';
import { MemberRetries } from './member-retries.js';
import type { ResolvedMember } from './profile-config.js';

/** What the set needs of a member: its server, and the runtime its current connection came from. */
export interface SetMember {
  readonly server: string;
  readonly port: ServerPort | undefined;
}

export interface MemberSetHooks<M> {
  /** The runtime of a server now. */
  port(server: string): ServerPort | undefined;
  /** A new member; `index` differs per member of the set, for ids that must not collide. */
  create(server: string, index: number): M;
  /** It left the profile, or its runtime was replaced: it is no longer the set's. */
  dropped(member: M): void;
  /** It joined (also as the replacement of one dropped). */
  added(member: M): void;
}

export class MemberSet<M extends SetMember> {
  private readonly byServer = new Map<string, M>();
  private resolved: readonly ResolvedMember[] = [];
  private nextIndex = 0;
  private readonly retries = new MemberRetries();

  constructor(private readonly hooks: MemberSetHooks<M>) {}

  /** The profile's members with their rules, in profile order (disabled and unknown ones too). */
  get rules(): readonly ResolvedMember[] {
    return this.resolved;
  }

  /** Follows the profile's resolution: members are added, dropped or made anew. */
  sync(members: readonly ResolvedMember[]): void {
    this.resolved = members;
    const wanted = new Set(members.filter((m) => m.state === 'enabled').map((m) => m.server));
    for (const [server, member] of this.byServer) {
      if (wanted.has(server) && (member.port === undefined || member.port === this.hooks.port(server))) continue;
      this.byServer.delete(server);
      this.retries.cancel(server);
      this.hooks.dropped(member);
    }
    for (const server of wanted) {
      if (this.byServer.has(server)) continue;
      const member = this.hooks.create(server, this.nextIndex++);
      this.byServer.set(server, member);
      this.hooks.added(member);
    }
  }

  get(server: string): M | undefined {
    return this.byServer.get(server);
  }

  /** Still the set's own (not dropped since). */
  holds(member: M): boolean {
    return this.byServer.get(member.server) === member;
  }

  values(): IterableIterator<M> {
    return this.byServer.values();
  }

  /** The rules of a member (for the resources it may expose). */
  rule(server: string): ResolvedMember | undefined {
    return this.resolved.find((m) => m.server === server);
  }

  /** The enabled members' rules, in profile order. */
  enabledRules(): ResolvedMember[] {
    return this.resolved.filter((m) => m.state === 'enabled' && this.byServer.has(m.server));
  }

  /** The enabled members, in profile order. */
  enabled(): M[] {
    return this.enabledRules().map((m) => this.byServer.get(m.server)!);
  }

  /** Tries `member` again at `at` (epoch ms), once; `retry` decides then whether it is still wanted. */
  retry(member: M, at: number, retry: () => void): void {
    this.retries.schedule(member.server, at, () => {
      if (this.holds(member)) retry();
    });
  }

  /** The aggregate closed: no more retries. */
  close(): void {
    this.retries.clear();
  }
}
