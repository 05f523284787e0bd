/**
 * The lists of one aggregate: each member's tools, prompts, resources and templates (fetched
 * once, all pages, refetched after the member's list_changed), and the merged answers, kept as
 * ready JSON so a repeated `tools/list` costs a string concatenation. Anything that can change a
 * merged list (a member's change, a member coming up, a toggle, an approval) goes through
 * `refresh`, which tells the client `notifications/…/list_changed` only when the list it already
 * has is really different.
 *
 * Both eras share it: a legacy session's members are invalidated by the list_changed they send
 * the session unasked; in the modern era (`hints`) each member list is also kept only for the
 * `ttlMs` the member gave it (server/utilities/caching), and the merged answer carries the most
 * conservative hints of its members'.
 */
import type { Logger } from '../log/logger.js';
import { ErrorCode } from '../../../shared/protocol.js';
import { MemberError } from './member-errors.js';
import { hasCapability, type MemberSource } from './member-source.js';
import type { ResolvedMember, ResolvedProfile } from './profile-config.js';
import { mergePrompts, mergeTools, mergeUris, type MemberLists, type Merged, type NamedDefinition, type NamedEntry, type ToolEntry, type UriEntry } from './profile-merge.js';
import type { ListKind, ServerCatalog } from './server-catalog.js';
import type { ToolDefinition } from './tool-digest.js';
import type { ToolPins } from './tool-pins.js';
import { hasUiUris, uiRenames, type UiRenames } from './ui-uris.js';

export const LIST_METHODS: Record<ListKind, { method: string; field: string; capability: string }> = {
  tools: { method: 'tools/list', field: 'tools', capability: 'tools' },
  prompts: { method: 'prompts/list', field: 'prompts', capability: 'prompts' },
  resources: { method: 'resources/list', field: 'resources', capability: 'resources' },
  templates: { method: 'resources/templates/list', field: 'resourceTemplates', capability: 'resources' },
};
export const ALL_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'templates'];
const MAX_PAGES = 100;
/** A fetch that a member's newer change made stale is made again, at most this many times. */
const MAX_REFETCHES = 5;

export interface MergedList<E> {
  data: Merged<E>;
  /** The result object as JSON (`{"tools":[…]}`). */
  json: string;
}

interface MergedLists {
  tools: MergedList<ToolEntry>;
  prompts: MergedList<NamedEntry<NamedDefinition>>;
  resources: MergedList<UriEntry>;
  templates: MergedList<UriEntry>;
}

export type CacheScope = 'public' | 'private';

/** Cache hints of a result (2026-07-28 server/utilities/caching). */
export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

interface FetchedList {
  items: unknown[];
  /** When the member's list stops being fresh (Infinity: until the member says it changed). */
  expiresAt: number;
  scope: CacheScope;
}

export interface ListsHost {
  profile(): ResolvedProfile;
  /** Enabled members in profile order, with their connections. */
  members(): Array<{ member: ResolvedMember; link: MemberSource }>;
  catalog: ServerCatalog;
  pins: ToolPins | undefined;
  /** Deadline of a list request to one member: its own `requestTimeoutMs`, else the profile's. */
  timeoutFor(server: string): number;
  logger: Logger;
  /** The merged list of `kind` changed from what the client had. */
  changed(kind: ListKind): void;
  /** Modern era: keep each member list's cache hints and let lists expire by them. */
  hints?: boolean;
  /** What the client the members answer declared (a server may list more to a client with sampling, elicitation and roots). */
  clientCapabilities?(): unknown;
}

export class AggregateLists {
  /** server → kind → the list fetched in this aggregate. */
  private readonly fetched = new Map<string, Partial<Record<ListKind, FetchedList>>>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Bumped when a member's list is forgotten, so a fetch that was in flight then is made again. */
  private readonly epochs = new Map<string, number>();
  private readonly merged: { [K in ListKind]?: MergedLists[K] } = {};
  private generation = 0;
  /**
   * How what this aggregate hears goes into the catalog: `fill` for the inventory's probe, which
   * only fills what is missing (server-catalog.ts; pins too, pinsFor).
   */
  catalogMode: 'heard' | 'fill' = 'heard';

  constructor(private readonly host: ListsHost) {}

  /** The merged list, from cache when nothing changed. */
  async get<K extends ListKind>(kind: K): Promise<MergedLists[K]> {
    const cached = this.merged[kind];
    if (cached) return cached as MergedLists[K];
    const generation = this.generation;
    await Promise.all(this.host.members().map(({ member, link }) => this.load(member, link, kind)));
    const linked = this.uiLinked(kind);
    // MCP Apps: which `ui://` URIs two members claim needs both the tools and the resources
    // (ui-uris.ts); fetched only when this list names one, so a profile without apps asks nothing more.
    if (linked) await Promise.all(this.host.members().map(({ member, link }) => this.load(member, link, linked)));
    const built = this.build(kind);
    // A change while loading: build again from what is there now rather than cache a stale answer.
    if (generation === this.generation) this.merged[kind] = built;
    return built;
  }

  /**
   * The merged list for a client's list request in the modern era: the members whose list of
   * `kind` outlived its `ttlMs` are asked again first (and a client that listens hears of it if
   * the merged list changed).
   */
  async current<K extends ListKind>(kind: K): Promise<MergedLists[K]> {
    const stale = this.staleMembers(kind);
    if (stale.length > 0) await this.refresh([kind], stale);
    return this.get(kind);
  }

  /** The merged list if it is cached (the fast path of a call's routing). */
  cached<K extends ListKind>(kind: K): MergedLists[K] | undefined {
    return this.merged[kind] as MergedLists[K] | undefined;
  }

  /** A member said its list changed (or it came up, or went away): forget what it said. */
  forgetMember(server: string, kinds: readonly ListKind[] = ALL_KINDS): void {
    const lists = this.fetched.get(server);
    for (const kind of kinds) {
      if (lists) delete lists[kind];
      const key = `${server}\u0000${kind}`;
      this.loading.delete(key);
      this.epochs.set(key, (this.epochs.get(key) ?? 0) + 1);
    }
  }

  /**
   * Rebuilds the merged lists of `kinds` — after forgetting what the members in `forget` said of
   * them — and tells the client about those it has seen and that now differ. Kinds the client
   * never listed are only dropped from the cache.
   */
  async refresh(kinds: readonly ListKind[], forget: readonly string[] = []): Promise<void> {
    for (const server of forget) this.forgetMember(server, kinds);
    this.generation++;
    const before = new Map<ListKind, string>();
    // A change of resources can rename a `ui://` URI the tools name, and the other way round.
    const rebuild = kinds.includes('tools') || kinds.includes('resources') ? [...new Set([...kinds, 'tools' as const, 'resources' as const])] : kinds;
    for (const kind of rebuild) {
      const old = this.merged[kind];
      if (old) before.set(kind, old.json);
      delete this.merged[kind];
    }
    for (const [kind, json] of before) {
      try {
        const now = await this.get(kind);
        if (now.json !== json) this.host.changed(kind);
      } catch (err) {
        this.host.logger.warn(`could not rebuild the ${kind} list: ${(err as Error).message}`);
        this.host.changed(kind);
      }
    }
  }

  /**
   * The cache hints of the merged list of `kind`: the most conservative of its members' — the
   * shortest freshness left, `private` if any member's is (or if no member's list is known).
   */
  hints(kind: ListKind): CacheHints {
    const now = Date.now();
    let ttl = Infinity;
    let scope: CacheScope = 'public';
    let any = false;
    for (const { member, link } of this.host.members()) {
      const list = this.fetched.get(member.server)?.[kind];
      if (list) {
        any = true;
        ttl = Math.min(ttl, Math.max(0, list.expiresAt - now));
        if (list.scope === 'private') scope = 'private';
      } else if (!link.isUp || hasCapability(link, LIST_METHODS[kind].capability)) {
        // Listed from what it last said, or not listed at all: nothing to promise about it.
        any = true;
        ttl = 0;
        scope = 'private';
      }
    }
    if (!any) return { ttlMs: 0, cacheScope: 'private' };
    return { ttlMs: Number.isFinite(ttl) ? Math.floor(ttl) : 0, cacheScope: scope };
  }

  /** Members whose fetched list of `kind` is no longer fresh. */
  private staleMembers(kind: ListKind): string[] {
    if (!this.host.hints) return [];
    const now = Date.now();
    const out: string[] = [];
    for (const { member } of this.host.members()) {
      const list = this.fetched.get(member.server)?.[kind];
      if (list && list.expiresAt <= now) out.push(member.server);
    }
    return out;
  }

  private load(member: ResolvedMember, link: MemberSource, kind: ListKind): Promise<void> {
    const key = `${member.server}\u0000${kind}`;
    if (this.fetched.get(member.server)?.[kind]) return Promise.resolve();
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.fetch(member.server, link, kind).finally(() => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
      });
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async fetch(server: string, link: MemberSource, kind: ListKind): Promise<void> {
    const key = `${server}\u0000${kind}`;
    if (link.pending) await link.pending;
    for (let attempt = 0; attempt < MAX_REFETCHES; attempt++) {
      const epoch = this.epochs.get(key) ?? 0;
      // A member that is down is listed from what it last said (its calls fail with its error).
      if (!link.isUp) return;
      const list = await this.fetchOnce(server, link, kind);
      if (!list) return;
      // The member said its list changed while this one was on its way: ask again.
      if ((this.epochs.get(key) ?? 0) !== epoch) continue;
      let lists = this.fetched.get(server);
      if (!lists) this.fetched.set(server, (lists = {}));
      lists[kind] = list;
      this.host.catalog.list(server, kind, list.items, this.host.clientCapabilities?.(), this.catalogMode);
      return;
    }
  }

  /** Every page of one member's list; undefined when it could not be had. */
  private async fetchOnce(server: string, link: MemberSource, kind: ListKind): Promise<FetchedList | undefined> {
    const spec = LIST_METHODS[kind];
    const items: unknown[] = [];
    let expiresAt = Infinity;
    let scope: CacheScope = this.host.hints ? 'public' : 'private';
    if (hasCapability(link, spec.capability)) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        let result: Record<string, unknown>;
        try {
          result = ((await link.request(spec.method, cursor ? { cursor } : undefined, this.host.timeoutFor(server))) ?? {}) as Record<string, unknown>;
        } catch (err) {
          // A server may declare resources without templates: "method not found" is an empty list.
          if (err instanceof MemberError && err.code === ErrorCode.MethodNotFound) break;
          this.host.logger.warn((err as Error).message);
          return undefined;
        }
        if (this.host.hints) {
          // Absent or negative: immediately stale (caching "Time-to-Live"); each page its own clock.
          const ttl = typeof result.ttlMs === 'number' && result.ttlMs > 0 ? result.ttlMs : 0;
          expiresAt = Math.min(expiresAt, Date.now() + ttl);
          if (result.cacheScope !== 'public') scope = 'private';
        }
        const pageItems = result[spec.field];
        if (Array.isArray(pageItems)) items.push(...(pageItems as unknown[]).filter(valid(kind)));
        cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (!cursor) break;
      }
    }
    return { items, expiresAt, scope };
  }

  private source(server: string, kind: ListKind, link: MemberSource): unknown[] | undefined {
    return this.fetched.get(server)?.[kind]?.items ?? (link.isUp ? undefined : this.host.catalog.get(server)?.[kind]);
  }

  /**
   * The inventory's probe (`fill`) records a tool never seen but moves no existing pin: a fresh
   * session's definition says nothing of what clients' sessions were shown (a member may have
   * changed a definition in theirs).
   */
  private pinsFor(): Pick<ToolPins, 'check'> | undefined {
    const pins = this.host.pins;
    if (!pins || this.catalogMode !== 'fill') return pins;
    return { check: (profile, server, tool, digest) => (pins.known(profile, server, tool.name) ? 'pinned' : pins.check(profile, server, tool, digest)) };
  }

  /** The other list a `ui://` rename of `kind` depends on, when `kind`'s lists name a `ui://` URI. */
  private uiLinked(kind: ListKind): ListKind | undefined {
    if (kind !== 'tools' && kind !== 'resources') return undefined;
    const named = this.host.members().some(({ member, link }) => hasUiUris(this.source(member.server, kind, link), kind));
    return named ? (kind === 'tools' ? 'resources' : 'tools') : undefined;
  }

  private uiRenames(): UiRenames | undefined {
    const members = this.host.members().map(({ member, link }) => ({
      server: member.server,
      tools: this.source(member.server, 'tools', link) as ToolDefinition[] | undefined,
      resources: this.source(member.server, 'resources', link) as Array<Record<string, unknown>> | undefined,
    }));
    const renames = uiRenames(members);
    return renames.size > 0 ? renames : undefined;
  }

  private build<K extends ListKind>(kind: K): MergedLists[K] {
    const profile = this.host.profile();
    const lists: MemberLists[] = this.host.members().map(({ member, link }) => ({ member, [kind]: this.source(member.server, kind, link) }));
    const field = LIST_METHODS[kind].field;
    let data: Merged<unknown>;
    const ui = kind === 'tools' || kind === 'resources' ? this.uiRenames() : undefined;
    if (kind === 'tools') data = mergeTools(profile, lists as Array<MemberLists & { tools?: ToolDefinition[] }>, this.pinsFor(), ui);
    else if (kind === 'prompts') data = mergePrompts(profile, lists);
    else data = mergeUris(lists, kind as 'resources' | 'templates', ui);
    return { data, json: `{${JSON.stringify(field)}:${JSON.stringify(data.exposed)}}` } as MergedLists[K];
  }
}

/** Items without the field the merge keys on are dropped (a server bug must not break the list). */
function valid(kind: ListKind): (item: unknown) => boolean {
  const field = kind === 'resources' ? 'uri' : kind === 'templates' ? 'uriTemplate' : 'name';
  return (item) => typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>)[field] === 'string';
}
