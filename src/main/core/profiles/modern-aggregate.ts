/**
 * A profile's aggregated endpoint in the modern era (2026-07-28): a ModernUpstream the hub hands
 * a modern client's requests to, as it does a server's own. It reaches each member in the
 * member's best era through what the hub lends (`hub.modernFor`, modern-member.ts) — a modern
 * server directly, a legacy one through the hub's bridge — and shares with the legacy aggregate
 * (aggregate-upstream.ts) everything that makes a profile a profile: the merged lists under safe
 * names with the member rules, shadowing, pins and held tools (aggregate-lists.ts,
 * profile-merge.ts), the routing by exposed name and URI (aggregate-routing.ts), the honest
 * merge of what the members say of themselves (aggregate-initialize.ts), and the members' upkeep
 * (member-set.ts, member-retries.ts, member-deadlines.ts, member-errors.ts, member-watch.ts).
 *
 * - `server/discover` is answered here from the members' own discover answers.
 * - The lists are answered here, merged, with `resultType` and the most conservative of the
 *   members' cache hints; a member's list is kept for the `ttlMs` it gave, and until it says it
 *   changed.
 * - Calls, prompt gets, reads and completions go to the owning member under its original name,
 *   with the client's id, `_meta` envelope and headers; its notifications and answer come back as
 *   they are. An `input_required` answer passes through untouched (its keys and `requestState`
 *   are the member's own), and the client's retry names the same tool, so it reaches the same
 *   member.
 * - `subscriptions/listen` is fanned out to the members (modern-listen.ts).
 * - Methods the era removed get -32601, as from a modern server.
 *
 * One aggregate serves every modern client of the profile (the era has no sessions); the hub's
 * credentials are the one authorization context behind it, so the merged lists are shared.
 */
import { ErrorCode, META, MODERN_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { errorResponse, type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { metaOf } from '../protocol/modern.js';
import { withTimeout } from '../protocol/timeout.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../upstream/modern-upstream.js';
import type { ModernAggregateHost } from './aggregate-host.js';
import { mergedCapabilities, mergedDiscover, mergedHints, NO_HINTS, type MemberAnswer } from './aggregate-initialize.js';
import { ALL_KINDS, AggregateLists, type MergedList } from './aggregate-lists.js';
import { routeRequest, uriOwner, type RoutingContext } from './aggregate-routing.js';
import { notConnected, notInProfile } from './member-errors.js';
import { MemberSet } from './member-set.js';
import { forwardedHeaders, ModernMember, type ModernMemberHost } from './modern-member.js';
import { onDemandFor, OnDemandView } from './on-demand.js';
import type { ToolEntry } from './profile-merge.js';
import { listenTerms, ProfileListen, type ListenFilter } from './modern-listen.js';
import type { ResolvedProfile } from './profile-config.js';
import type { ListKind } from './server-catalog.js';

type Obj = Record<string, unknown>;

/** Legacy methods the modern era removed: method-not-found, as from a modern server. */
const REMOVED = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
const LISTS: Record<string, [ListKind, string]> = {
  'tools/list': ['tools', 'tools'],
  'prompts/list': ['prompts', 'prompts'],
  'resources/list': ['resources', 'resources'],
  'resources/templates/list': ['templates', 'resourceTemplates'],
};
/** The legacy era's resource-not-found code; the modern era says Invalid params (changelog). */
const LEGACY_RESOURCE_NOT_FOUND = -32002;
/** A member that is down is tried again in the background while the profile was used this recently. */
const RETRY_WHILE_USED_MS = 5 * 60_000;

interface ActiveCall {
  request: JsonRpcRequest;
  handlers: ModernCallHandlers;
  inner: ModernCall | undefined;
  over: boolean;
}

export class ModernAggregate implements ModernUpstream {
  /** The resolution the aggregate works with (replaced on reconfigure). */
  profile: ResolvedProfile;
  readonly lists: AggregateLists;
  private readonly members: MemberSet<ModernMember>;
  private readonly routing: RoutingContext<ModernMember>;
  private onDemandView: OnDemandView | undefined;
  private readonly listens = new Set<ProfileListen>();
  private readonly active = new Set<ActiveCall>();
  /** Member list changes heard in this turn of the event loop, refreshed together. */
  private changes: Map<ListKind, Set<string>> | undefined;
  /** The envelope of the aggregate's own requests: the latest client's. */
  private envelope: Obj;
  private lastUsed = 0;
  private used = false;
  private closed = false;

  constructor(private readonly host: ModernAggregateHost) {
    this.profile = host.profile();
    this.envelope = {
      [META.protocolVersion]: MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1],
      [META.clientInfo]: { name: 'patchbay', version: host.version },
      [META.clientCapabilities]: {},
    };
    const memberHost: ModernMemberHost = {
      port: (server) => host.port(server),
      upstream: (port) => host.reach().modernFor(port),
      watch: (port) => host.reach().watchMember(port, 'modern'),
      tracer: () => host.reach().tracer,
      envelope: () => this.envelope,
      requestTimeoutMs: host.requestTimeoutMs,
      up: (member, cameUp) => {
        host.catalog.init(member.server, member.init!);
        // A member that comes (back) up may list something else than before.
        if (cameUp) void this.lists.refresh(ALL_KINDS, [member.server]);
      },
      down: (member) => {
        host.catalog.fail(member.server, member.error ?? 'unavailable');
        this.scheduleRetry(member);
      },
      logger: host.logger,
    };
    this.members = new MemberSet<ModernMember>({
      port: (server) => host.port(server),
      create: (server, index) => new ModernMember(server, index, memberHost),
      // Left the profile, or its runtime was replaced: calls in flight finish where they are.
      dropped: (member) => {
        this.lists.forgetMember(member.server);
        member.close();
      },
      added: (member) => {
        if (this.used) void member.open();
      },
    });
    this.lists = new AggregateLists({
      profile: () => this.profile,
      members: () => this.members.enabledRules().map((member) => ({ member, link: this.members.get(member.server)! })),
      catalog: host.catalog,
      pins: host.pins,
      timeoutFor: (server) => host.port(server)?.requestTimeoutMs ?? host.requestTimeoutMs,
      logger: host.logger,
      changed: (kind) => {
        for (const listen of this.listens) listen.listChanged(kind);
      },
      hints: true,
      clientCapabilities: () => this.envelope[META.clientCapabilities],
    });
    this.routing = {
      lists: this.lists,
      members: () => this.members.enabled(),
      allowsResource: (server, uri) => this.members.rule(server)?.resources.allows(uri) ?? false,
      holdHint: (server, tool) => `patchbay profiles approve ${this.profile.name} ${server} ${tool}`,
      request: async (member, method, params) => {
        if (!(await member.ready())) throw new Error(member.error ?? notConnected(member.server));
        return member.request(method, params, member.requestTimeoutMs ?? host.requestTimeoutMs);
      },
      setLogLevel: () => undefined,
    };
    this.members.sync(this.profile.members);
  }

  call(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
    const entry: ActiveCall = { request: request.message, handlers, inner: undefined, over: false };
    const settle = (): void => {
      entry.over = true;
      this.active.delete(entry);
    };
    const own: ModernCallHandlers = {
      notification: (m, raw) => {
        if (!entry.over) handlers.notification(m, raw);
      },
      response: (m, raw, info) => {
        if (entry.over) return;
        settle();
        handlers.response(m, raw, info);
      },
      ended: () => {
        if (entry.over) return;
        settle();
        handlers.ended?.();
      },
    };
    if (handlers.event) own.event = handlers.event;
    if (this.closed) {
      this.fail(own, request.message.id, ErrorCode.InternalError, `profile '${this.profile.name}' is closed`);
      return { cancel: () => undefined };
    }
    this.active.add(entry);
    this.remember(request.message);
    void this.dispatch(request, own, entry).catch((err: Error) => this.fail(own, request.message.id, ErrorCode.InternalError, err.message));
    return {
      cancel: (reason) => {
        if (entry.over) return;
        settle();
        entry.inner?.cancel(reason);
      },
    };
  }

  /** The profile or the servers changed: members follow, lists are rebuilt, listeners hear of changes. */
  reconfigure(): void {
    if (this.closed) return;
    this.profile = this.host.profile();
    this.members.sync(this.profile.members);
    for (const listen of this.listens) listen.sync();
    void this.lists.refresh(ALL_KINDS);
  }

  /** A pin changed (a tool changed, or was approved): the tools list may differ. */
  pinsChanged(): void {
    if (!this.closed) void this.lists.refresh(['tools']);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.members.close();
    for (const listen of this.listens) listen.close();
    this.listens.clear();
    for (const entry of [...this.active]) {
      entry.inner?.cancel(`profile '${this.profile.name}' was closed`);
      if (entry.request.method === 'subscriptions/listen') {
        // Subscriptions "Graceful Closure": the listen request's own, successful answer.
        this.answer(entry.handlers, entry.request.id, { resultType: 'complete', _meta: { [META.subscriptionId]: entry.request.id } });
      } else this.fail(entry.handlers, entry.request.id, ErrorCode.InternalError, `profile '${this.profile.name}' was closed`);
    }
    for (const member of this.members.values()) member.close();
    await Promise.resolve();
  }

  // ─── requests ───

  private async dispatch(request: ModernCallRequest, handlers: ModernCallHandlers, entry: ActiveCall): Promise<void> {
    const { message } = request;
    if (REMOVED.has(message.method)) {
      return this.fail(handlers, message.id, ErrorCode.MethodNotFound, `Method not found: ${message.method} does not exist in protocol revision 2026-07-28`);
    }
    if (message.method === 'server/discover') return this.discover(message, handlers);
    if (message.method === 'subscriptions/listen') return this.listen(message, handlers, entry);
    const list = LISTS[message.method];
    // On-demand tools as this request's client gets them (its client token's entry, else the profile's).
    const view = this.onDemand(request.client);
    if (list) return this.list(message, list[0], list[1], handlers, view);
    const routing = view === undefined ? this.routing : { ...this.routing, onDemand: () => view };

    let route = await routeRequest(message, request.raw, routing);
    if (route.kind === 'error' && route.unknown && this.lists.cached(route.unknown)) {
      // A name the merged list does not have: a member may have added it since (caching "MAY re-fetch").
      await this.lists.refresh([route.unknown], this.members.enabled().map((m) => m.server));
      route = await routeRequest(message, request.raw, routing);
    }
    if (entry.over) return;
    switch (route.kind) {
      case 'answer':
        // Every 2026-07-28 result says it is complete (a meta-tool's, ping's).
        return this.answer(handlers, message.id, { resultType: 'complete', ...(route.result as Record<string, unknown>) });
      case 'error': {
        const code = route.code === LEGACY_RESOURCE_NOT_FOUND ? ErrorCode.InvalidParams : route.code;
        return this.fail(handlers, message.id, code, route.message, route.data, false);
      }
      case 'fanout':
        return this.answer(handlers, message.id, { resultType: 'complete' });
      case 'forward': {
        const member = this.members.get(route.server);
        if (!member) return this.fail(handlers, message.id, ErrorCode.InternalError, notInProfile(route.server), { server: route.server });
        const forwarded = route.message as JsonRpcRequest;
        entry.inner = member.forward({ message: forwarded, raw: route.raw, headers: forwardedHeaders(request.headers, forwarded) }, handlers);
        return;
      }
    }
  }

  /**
   * On-demand tools for a request's client (`client`: its client token's client id): this era has
   * no session, so a found tool does not join a list; one view serves every request.
   */
  private onDemand(client?: string): OnDemandView | undefined {
    if (!onDemandFor(this.profile.onDemand, client)) return undefined;
    return (this.onDemandView ??= new OnDemandView(() => this.profile));
  }

  private async list(message: JsonRpcRequest, kind: ListKind, field: string, handlers: ModernCallHandlers, onDemand: OnDemandView | undefined): Promise<void> {
    const merged = await this.lists.current(kind);
    const hints = this.lists.hints(kind);
    const view = kind === 'tools' ? onDemand : undefined;
    if (view) {
      const result = { tools: view.list((merged as MergedList<ToolEntry>).data), resultType: 'complete', ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
      handlers.response({ jsonrpc: '2.0', id: message.id, result }, JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { local: false });
      return;
    }
    const result = { [field]: merged.data.exposed, resultType: 'complete', ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
    // The merged list's JSON is kept ready: the answer is a concatenation, not a serialization.
    const json = `${merged.json.slice(0, -1)},"resultType":"complete","ttlMs":${hints.ttlMs},"cacheScope":${JSON.stringify(hints.cacheScope)}}`;
    const raw = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${json}}`;
    handlers.response({ jsonrpc: '2.0', id: message.id, result }, raw, { local: false });
  }

  private async discover(message: JsonRpcRequest, handlers: ModernCallHandlers): Promise<void> {
    const members = this.members.enabled();
    // Members that are up say again what they are; those that are down, when their backoff allows.
    await withTimeout(Promise.all(members.map((m) => (m.isUp ? m.open() : m.ready()))), this.host.initWaitMs, () => undefined);
    // A member not heard from promises nothing.
    const hints = mergedHints(members.map((m) => (m.isUp ? m.discoverHints : NO_HINTS)));
    this.answer(handlers, message.id, mergedDiscover(this.profile, this.answers(members), this.host.version, hints));
  }

  private async listen(message: JsonRpcRequest, handlers: ModernCallHandlers, entry: ActiveCall): Promise<void> {
    const asked = ((message.params as { notifications?: unknown } | undefined)?.notifications ?? {}) as ListenFilter;
    const members = this.members.enabled();
    await withTimeout(Promise.all(members.map((m) => m.ready())), this.host.initWaitMs, () => undefined);
    if (entry.over) return;
    const { declared } = mergedCapabilities(this.answers(members));
    const { honored, owners } = await listenTerms(asked, declared, async (uri) => {
      const owner = await uriOwner(uri, this.routing).catch(() => undefined);
      return owner === undefined ? undefined : this.members.get(owner);
    });
    if (entry.over) return;
    const listen = new ProfileListen(message, honored, owners, handlers, {
      members: () => this.members.enabled(),
      memberChanged: (server, kinds) => this.memberChanged(server, kinds),
    });
    this.listens.add(listen);
    entry.inner = {
      cancel: () => {
        listen.close();
        this.listens.delete(listen);
      },
    };
    listen.start();
    // The lists whose changes the client hears of are built now: a change is a change from these.
    const kinds: ListKind[] = [];
    if (honored.toolsListChanged) kinds.push('tools');
    if (honored.promptsListChanged) kinds.push('prompts');
    if (honored.resourcesListChanged) kinds.push('resources', 'templates');
    for (const kind of kinds) void this.lists.get(kind).catch(() => undefined);
  }

  // ─── members ───

  private memberChanged(server: string, kinds: readonly ListKind[]): void {
    if (this.closed) return;
    // The same change reaches every open listen stream's own listen of the member: refreshed once.
    if (!this.changes) {
      this.changes = new Map();
      setImmediate(() => {
        const changes = this.changes!;
        this.changes = undefined;
        if (this.closed) return;
        for (const [kind, servers] of changes) void this.lists.refresh([kind], [...servers]);
      });
    }
    for (const kind of kinds) {
      const servers = this.changes.get(kind) ?? new Set<string>();
      servers.add(server);
      this.changes.set(kind, servers);
    }
  }

  /** A client request came: members never asked are asked now, those due for another try too. */
  private remember(message: JsonRpcRequest): void {
    this.used = true;
    this.lastUsed = Date.now();
    const meta = metaOf(message.params);
    if (meta && typeof meta[META.protocolVersion] === 'string') {
      const envelope: Obj = {};
      for (const key of [META.protocolVersion, META.clientInfo, META.clientCapabilities]) if (key in meta) envelope[key] = meta[key];
      this.envelope = envelope;
    }
    const now = Date.now();
    for (const member of this.members.enabled()) {
      if (member.pending) continue;
      if (member.state === 'idle' || (member.state === 'down' && now >= member.retryAt)) void member.open();
    }
  }

  private scheduleRetry(member: ModernMember): void {
    if (this.closed) return;
    this.members.retry(member, member.retryAt, () => {
      const wanted = this.listens.size > 0 || Date.now() - this.lastUsed < RETRY_WHILE_USED_MS;
      if (!this.closed && wanted && member.state === 'down' && !member.pending) void member.open();
    });
  }

  private answers(members: readonly ModernMember[]): MemberAnswer[] {
    return members.map((m) => ({ server: m.server, init: m.init ?? this.host.catalog.get(m.server)?.init }));
  }

  // ─── answers ───

  private answer(handlers: ModernCallHandlers, id: JsonRpcId, result: unknown): void {
    const message: JsonRpcResponse = { jsonrpc: '2.0', id, result };
    handlers.response(message, JSON.stringify(message), { local: false });
  }

  /** `local`: the hub answers because no member could (the default); false: the profile's own answer. */
  private fail(handlers: ModernCallHandlers, id: JsonRpcId, code: number, text: string, data?: unknown, local = true): void {
    const message = errorResponse(id, code, text, data);
    handlers.response(message, JSON.stringify(message), { local });
  }
}
