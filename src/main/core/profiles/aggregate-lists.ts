/**
 * The lists of one aggregated session: each member's tools, prompts, resources and templates
 * (fetched once, all pages, refetched after the member's list_changed), and the merged answers,
 * kept as ready JSON so a repeated `tools/list` costs a string concatenation. Anything that can
 * change a merged list (a member's change, a member coming up, a toggle, an approval) goes
 * through `refresh`, which tells the client `notifications/…/list_changed` only when the list it
 * already has is really different.
 */
import type { Logger } from '../log/logger.js';
import { ErrorCode } from '../../../shared/protocol.js';
import { MemberError, type MemberLink } from './member-link.js';
import type { ResolvedMember, ResolvedProfile } from './profile-config.js';
import { mergePrompts, mergeTools, mergeUris, type MemberLists, type Merged, type NamedDefinition, type NamedEntry, type ToolEntry, type UriEntry } from './profile-merge.js';
import type { ListKind, ServerCatalog } from './server-catalog.js';
import type { ToolDefinition } from './tool-digest.js';
import type { ToolPins } from './tool-pins.js';

const METHODS: Record<ListKind, { method: string; field: string; capability: string }> = {
  tools: { method: 'tools/list', field: 'tools', capability: 'tools' },
  prompts: { method: 'prompts/list', field: 'prompts', capability: 'prompts' },
  resources: { method: 'resources/list', field: 'resources', capability: 'resources' },
  templates: { method: 'resources/templates/list', field: 'resourceTemplates', capability: 'resources' },
};
const MAX_PAGES = 100;

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

export interface ListsHost {
  profile(): ResolvedProfile;
  /** Enabled members in profile order, with their links. */
  members(): Array<{ member: ResolvedMember; link: MemberLink }>;
  catalog: ServerCatalog;
  pins: ToolPins | undefined;
  requestTimeoutMs: number;
  logger: Logger;
  /** The merged list of `kind` changed from what the client had. */
  changed(kind: ListKind): void;
}

export class AggregateLists {
  /** server → kind → items fetched in this session. */
  private readonly fetched = new Map<string, Partial<Record<ListKind, unknown[]>>>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Bumped when a member's list is forgotten, so a fetch that was in flight then is not kept. */
  private readonly epochs = new Map<string, number>();
  private readonly merged: { [K in ListKind]?: MergedLists[K] } = {};
  private generation = 0;

  constructor(private readonly host: ListsHost) {}

  /** The merged list, from cache when nothing changed. */
  async get<K extends ListKind>(kind: K): Promise<MergedLists[K]> {
    const cached = this.merged[kind];
    if (cached) return cached as MergedLists[K];
    const generation = this.generation;
    await Promise.all(this.host.members().map(({ member, link }) => this.load(member, link, kind)));
    const built = this.build(kind);
    // A change while loading: build again from what is there now rather than cache a stale answer.
    if (generation === this.generation) this.merged[kind] = built;
    return built;
  }

  /** The merged list if it is cached (the fast path of a call's routing). */
  cached<K extends ListKind>(kind: K): MergedLists[K] | undefined {
    return this.merged[kind] as MergedLists[K] | undefined;
  }

  /** A member said its list changed (or it came up, or went away): forget what it said. */
  forgetMember(server: string, kinds: readonly ListKind[] = ['tools', 'prompts', 'resources', 'templates']): void {
    const lists = this.fetched.get(server);
    for (const kind of kinds) {
      if (lists) delete lists[kind];
      const key = `${server}\u0000${kind}`;
      this.loading.delete(key);
      this.epochs.set(key, (this.epochs.get(key) ?? 0) + 1);
    }
  }

  /**
   * Rebuilds the merged lists of `kinds` and tells the client about those it has seen and that
   * now differ. Kinds the client never listed are only dropped from the cache.
   */
  async refresh(kinds: readonly ListKind[]): Promise<void> {
    this.generation++;
    const before = new Map<ListKind, string>();
    for (const kind of kinds) {
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

  private load(member: ResolvedMember, link: MemberLink, kind: ListKind): Promise<void> {
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

  private async fetch(server: string, link: MemberLink, kind: ListKind): Promise<void> {
    const key = `${server}\u0000${kind}`;
    const epoch = this.epochs.get(key) ?? 0;
    if (link.pending) await link.pending;
    // A member that is down is listed from what it last said (its calls fail with its error).
    if (!link.isUp) return;
    const spec = METHODS[kind];
    const items: unknown[] = [];
    if (link.init?.capabilities[spec.capability] !== undefined) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        let result: Record<string, unknown>;
        try {
          result = ((await link.request(spec.method, cursor ? { cursor } : undefined, this.host.requestTimeoutMs)) ?? {}) as Record<string, unknown>;
        } catch (err) {
          // A server may declare resources without templates: "method not found" is an empty list.
          if (err instanceof MemberError && err.code === ErrorCode.MethodNotFound) break;
          this.host.logger.warn((err as Error).message);
          return;
        }
        const pageItems = result[spec.field];
        if (Array.isArray(pageItems)) items.push(...(pageItems as unknown[]).filter(valid(kind)));
        cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (!cursor) break;
      }
    }
    if ((this.epochs.get(key) ?? 0) !== epoch) return;
    let lists = this.fetched.get(server);
    if (!lists) this.fetched.set(server, (lists = {}));
    lists[kind] = items;
    this.host.catalog.list(server, kind, items);
  }

  private source(server: string, kind: ListKind, link: MemberLink): unknown[] | undefined {
    return this.fetched.get(server)?.[kind] ?? (link.isUp ? undefined : this.host.catalog.get(server)?.[kind]);
  }

  private build<K extends ListKind>(kind: K): MergedLists[K] {
    const profile = this.host.profile();
    const lists: MemberLists[] = this.host.members().map(({ member, link }) => ({ member, [kind]: this.source(member.server, kind, link) }));
    const field = METHODS[kind].field;
    let data: Merged<unknown>;
    if (kind === 'tools') data = mergeTools(profile, lists as Array<MemberLists & { tools?: ToolDefinition[] }>, this.host.pins);
    else if (kind === 'prompts') data = mergePrompts(profile, lists);
    else data = mergeUris(lists, kind as 'resources' | 'templates');
    return { data, json: `{${JSON.stringify(field)}:${JSON.stringify(data.exposed)}}` } as MergedLists[K];
  }
}

/** Items without the field the merge keys on are dropped (a server bug must not break the list). */
function valid(kind: ListKind): (item: unknown) => boolean {
  const field = kind === 'resources' ? 'uri' : kind === 'templates' ? 'uriTemplate' : 'name';
  return (item) => typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>)[field] === 'string';
}
