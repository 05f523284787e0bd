/**
 * A profile's aggregated endpoint, as the upstream connection of one 2025 session: the session in
 * front of it speaks MCP to it exactly as to one server and never learns it is several. It opens
 * one connection per member (member-link.ts), answers `initialize` and the lists itself
 * (aggregate-initialize.ts, aggregate-lists.ts), and routes everything else to the member that
 * owns it (aggregate-routing.ts): calls and prompt gets by exposed name, reads and subscriptions
 * by URI, completions by reference; server→client requests with ids rewritten per member so they
 * never collide, and the client's answers back to their member (aggregate-inbound.ts). A member
 * that fails leaves the others working; its requests fail with its name, and it is re-opened with
 * backoff. A member whose config sets `requestTimeoutMs` has its requests cut at that deadline
 * (forwarded-requests.ts), whatever the profile's own is. Each member's traffic is observed as a
 * session of its own, nested under this one (member-watch.ts).
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { errorResponse, isNotification, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { withTimeout } from '../protocol/timeout.js';
import type { HubAnswer, UpstreamConnection } from '../upstream/upstream.js';
import { fromMember, type InboundTarget } from './aggregate-inbound.js';
import type { LegacyAggregateHost } from './aggregate-host.js';
import { mergedInitialize } from './aggregate-initialize.js';
import { ALL_KINDS, AggregateLists } from './aggregate-lists.js';
import { routeRequest, type Route, type RoutingContext } from './aggregate-routing.js';
import { ForwardedRequests } from './forwarded-requests.js';
import { notInProfile, unavailable } from './member-errors.js';
import { MemberLink, type MemberLinkOwner } from './member-link.js';
import { MemberSet } from './member-set.js';
import { onDemandFor, OnDemandView } from './on-demand.js';
import type { ResolvedMember, ResolvedProfile } from './profile-config.js';
import type { ListKind } from './server-catalog.js';
import { ServerRequests } from './server-requests.js';

const DEFAULT_STARTUP_MS = 60_000;
const LIST_CHANGED: Record<ListKind, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
  templates: 'notifications/resources/list_changed',
};

export class AggregateUpstream implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];
  /** The resolution this session works with (replaced on reconfigure). */
  profile: ResolvedProfile;
  readonly lists: AggregateLists;
  private readonly links: MemberSet<MemberLink>;
  private initRequest: JsonRpcRequest | undefined;
  private declared = { tools: false, prompts: false, resources: false };
  private readonly forwarded = new ForwardedRequests({
    expired: (link, answer, cancel) => {
      link?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancel }, undefined, 'timeout');
      this.reply(answer, true);
    },
  });
  private readonly serverRequests = new ServerRequests();
  private logLevel: string | undefined;
  private isClosed = false;
  /** This session's on-demand tools, made when first wanted (the tools it found join its list). */
  private onDemandView: OnDemandView | undefined;
  private readonly routing: RoutingContext<MemberLink>;
  private readonly inbound: InboundTarget;

  constructor(private readonly host: LegacyAggregateHost) {
    this.profile = host.profile();
    this.links = new MemberSet<MemberLink>({
      port: (server) => host.port(server),
      create: (server, index) => new MemberLink(server, index, this.linkOwner, host.logger.child(server)),
      dropped: (link) => {
        this.lists.forgetMember(link.server);
        this.failInFlight(link);
        void link.close();
      },
      added: (link) => {
        if (this.initRequest) void this.open(link);
      },
    });
    this.lists = new AggregateLists({
      profile: () => this.profile,
      members: () => this.links.enabledRules().map((member) => ({ member, link: this.links.get(member.server)! })),
      catalog: host.catalog,
      pins: host.pins,
      timeoutFor: (server) => this.timeoutFor(server),
      logger: host.logger,
      changed: (kind) => this.listChanged(kind),
      clientCapabilities: () => (this.initRequest?.params as { capabilities?: unknown } | undefined)?.capabilities,
    });
    this.routing = {
      lists: this.lists,
      members: () => this.links.enabled(),
      allowsResource: (server, uri) => this.links.rule(server)?.resources.allows(uri) ?? false,
      holdHint: (server, tool) => `patchbay profiles approve ${this.profile.name} ${server} ${tool}`,
      request: (link, method, params) => this.internal(link, method, params),
      setLogLevel: (level) => (this.logLevel = level),
      onDemand: () => this.onDemand(),
    };
    this.inbound = {
      forwarded: this.forwarded,
      serverRequests: this.serverRequests,
      deliver: (raw, local, message) => this.deliver(raw, local, message),
      memberChanged: (link, kinds) => void this.lists.refresh(kinds, [link.server]),
    };
    this.links.sync(this.profile.members);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The members' links, in profile order (for the inventory). */
  memberLinks(): Array<{ member: ResolvedMember; link: MemberLink | undefined }> {
    return this.links.rules.map((member) => ({ member, link: this.links.get(member.server) }));
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (this.isClosed) return;
    if (isRequest(message)) {
      if (!this.callNow(message, raw)) void this.request(message, raw);
    } else if (isNotification(message)) this.notification(message, raw);
    else this.clientAnswer(message);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.forwarded.clear();
    this.links.close();
    this.host.closed(this);
    await Promise.all([...this.links.values()].map((l) => l.close()));
  }

  /**
   * The profile or the servers changed: members are added, dropped or re-opened (a member whose
   * runtime was replaced), and every list is rebuilt; the client hears of those that differ.
   */
  reconfigure(): void {
    if (this.isClosed) return;
    const wasOnDemand = this.onDemand() !== undefined;
    this.profile = this.host.profile();
    this.links.sync(this.profile.members);
    void this.lists.refresh(ALL_KINDS);
    // On-demand tools turned on or off: the list is another one, whatever the members say.
    if (wasOnDemand !== (this.onDemand() !== undefined)) this.listChanged('tools');
  }

  /** A pin changed (a tool changed, or was approved): the tools list may differ. */
  pinsChanged(): void {
    if (!this.isClosed) void this.lists.refresh(['tools']);
  }

  // ─── client → members ───

  private async request(message: JsonRpcRequest, raw: string | undefined): Promise<void> {
    try {
      if (message.method === 'initialize') return await this.initialize(message);
      const route = await routeRequest(message, raw, this.routing);
      await this.follow(message, route);
    } catch (err) {
      this.reply(errorResponse(message.id, ErrorCode.InternalError, (err as Error).message), true);
    }
  }

  /**
   * The hot path, synchronously: a call to a tool of the cached list whose member is up goes
   * straight to it (no promise in between). Anything else — a list not fetched yet, a member
   * down, a held tool — takes the general route. False when it did not handle the message.
   */
  private callNow(message: JsonRpcRequest, raw: string | undefined): boolean {
    if (message.method !== 'tools/call') return false;
    const name = message.params?.name;
    const entry = typeof name === 'string' ? this.lists.cached('tools')?.data.byName.get(name) : undefined;
    const link = entry && entry.enabled && !entry.held ? this.links.get(entry.server) : undefined;
    if (!entry || !link?.isUp) return false;
    const original = entry.item.name;
    this.forwarded.start(message, link);
    return original === name ? link.send(message, raw) : link.send({ ...message, params: { ...message.params, name: original } });
  }

  private async follow(message: JsonRpcRequest, route: Route): Promise<void> {
    switch (route.kind) {
      case 'answer': {
        const answer: JsonRpcMessage = { jsonrpc: '2.0', id: message.id, result: route.result };
        const raw = route.json !== undefined ? `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${route.json}}` : JSON.stringify(answer);
        return this.deliver(raw, false, answer, true);
      }
      case 'error':
        return this.reply(errorResponse(message.id, route.code, route.message, route.data), false);
      case 'fanout':
        return this.fanOut(message, route.capability);
      case 'forward': {
        const link = this.links.get(route.server);
        if (!link || !(await this.ready(link))) return this.reply(errorResponse(message.id, ...errorArgs(link, route.server)), true);
        this.forwarded.start(message, link);
        if (!link.send(route.message, route.raw)) {
          this.forwarded.drop(message.id);
          this.reply(errorResponse(message.id, ...errorArgs(link, route.server)), true);
        }
        return;
      }
    }
  }

  private async internal(link: MemberLink, method: string, params: Record<string, unknown> | undefined): Promise<unknown> {
    if (!(await this.ready(link))) throw new Error(unavailable(link).message);
    return link.request(method, params, this.timeoutFor(link.server));
  }

  /** A member's own request timeout when its config sets one, else the profile's. */
  private timeoutFor(server: string): number {
    return this.links.get(server)?.port?.requestTimeoutMs ?? this.host.requestTimeoutMs;
  }

  /** `logging/setLevel` and the like: to every member that has the capability, answered once. */
  private async fanOut(message: JsonRpcRequest, capability: string): Promise<void> {
    const targets = [...this.links.values()].filter((l) => l.isUp && l.init?.capabilities[capability] !== undefined);
    await Promise.all(targets.map((l) => l.request(message.method, message.params, this.timeoutFor(l.server)).catch((err: Error) => this.host.logger.warn(err.message))));
    this.reply({ jsonrpc: '2.0', id: message.id, result: {} }, false);
  }

  private notification(message: JsonRpcMessage & { method: string; params?: Record<string, unknown> }, raw: string | undefined): void {
    if (message.method === 'notifications/initialized') return; // each member got its own
    if (message.method === 'notifications/cancelled') {
      const requestId = message.params?.requestId;
      if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
      this.forwarded.cancelled(requestId)?.send(message, raw);
      return;
    }
    for (const link of this.links.values()) link.send(message, raw);
  }

  /** The client answers a server→client request: back to its member, with the member's own id. */
  private clientAnswer(message: JsonRpcMessage & { id?: JsonRpcId | null }): void {
    const origin = this.serverRequests.answered(message.id);
    origin?.link.send({ ...message, id: origin.id } as JsonRpcMessage);
  }

  // ─── initialize and members ───

  private async initialize(request: JsonRpcRequest): Promise<void> {
    this.initRequest = request;
    const links = this.links.enabled();
    await withTimeout(Promise.all(links.map((l) => this.open(l))), this.host.initWaitMs, () => undefined);
    const answers = links.map((l) => ({ server: l.server, init: l.init ?? this.host.catalog.get(l.server)?.init }));
    const merged = mergedInitialize(this.profile, request.params?.protocolVersion, answers, this.host.version);
    this.declared = merged.declared;
    this.reply({ jsonrpc: '2.0', id: request.id, result: merged.result }, false);
    // Warm the tools list so the client's first tools/list (or call) does not wait for it.
    void this.lists.get('tools').catch(() => undefined);
  }

  private open(link: MemberLink): Promise<boolean> {
    const port = this.host.port(link.server);
    const opened = link.connect(port, this.initRequest!, port?.startupTimeoutMs ?? DEFAULT_STARTUP_MS);
    void opened.then((up) => {
      if (!up) {
        this.host.catalog.fail(link.server, link.error ?? 'unavailable');
        this.scheduleRetry(link);
      }
    });
    return opened;
  }

  /** Up now, or after one attempt when its backoff allows; false when it stays down. */
  private async ready(link: MemberLink): Promise<boolean> {
    if (link.isUp) return true;
    if (link.pending) return link.pending;
    if (!this.initRequest || Date.now() < link.retryAt) return false;
    return this.open(link);
  }

  private scheduleRetry(link: MemberLink): void {
    if (this.isClosed) return;
    this.links.retry(link, link.retryAt, () => {
      if (!this.isClosed && !link.isUp && !link.pending) void this.open(link);
    });
  }

  private readonly linkOwner: MemberLinkOwner = {
    message: (link, message, raw, local) => fromMember(this.inbound, link, message, raw, local),
    lost: (link) => {
      this.failInFlight(link);
      this.scheduleRetry(link);
    },
    up: (link) => {
      this.host.catalog.init(link.server, link.init!);
      if (this.logLevel && link.init?.capabilities.logging !== undefined) {
        link.request('logging/setLevel', { level: this.logLevel }, this.timeoutFor(link.server)).catch(() => undefined);
      }
      // A member that comes (back) up may list something else than before.
      void this.lists.refresh(ALL_KINDS, [link.server]);
    },
    // The member's stderr reaches the session's own events too, named by the member.
    event: (link, event) => {
      if (event.type === 'stderr') this.onevent?.({ type: 'stderr', line: `[${link.server}] ${event.line}` });
      else if (event.type === 'http') this.onevent?.(event);
    },
    wantsEvents: () => this.onevent !== undefined,
    watch: (port) => this.host.reach?.watchMember(port, 'legacy'),
    tracer: () => this.host.reach?.tracer,
  };

  /** Requests a member will not answer now (it died, or left the profile) fail with its name. */
  private failInFlight(link: MemberLink): void {
    const { code, message, data } = unavailable(link);
    for (const id of this.forwarded.lostWith(link)) this.reply(errorResponse(id, code, message, data), true);
    this.serverRequests.forget(link);
  }

  // ─── to the client ───

  /** The session's on-demand view, when the profile (or its entry for this session's client) turns them on. */
  private onDemand(): OnDemandView | undefined {
    if (!onDemandFor(this.profile.onDemand, this.host.reach?.client)) return undefined;
    return (this.onDemandView ??= new OnDemandView(
      () => this.profile,
      () => this.listChanged('tools'),
    ));
  }

  private listChanged(kind: ListKind): void {
    const declared = kind === 'tools' ? this.declared.tools : kind === 'prompts' ? this.declared.prompts : this.declared.resources;
    if (declared && !this.isClosed) this.deliver(JSON.stringify({ jsonrpc: '2.0', method: LIST_CHANGED[kind] }), false);
  }

  private reply(message: JsonRpcMessage, local: boolean): void {
    this.deliver(JSON.stringify(message), local, message, true);
  }

  /**
   * To the session. `raw` is the message's JSON text; the parsed message is built when not given.
   * Text the aggregate wrote itself (JSON.stringify never writes a line break) is not scanned:
   * on a 500-tool list that scan would copy a quarter of a megabyte per answer.
   */
  private deliver(raw: string, local: boolean | HubAnswer, message?: JsonRpcMessage, ownText = false): void {
    if (this.isClosed) return;
    const json = ownText || !raw.includes('\n') ? raw : JSON.stringify(message ?? JSON.parse(raw));
    this.onmessage?.(message ?? (JSON.parse(json) as JsonRpcMessage), json, local);
  }
}

function errorArgs(link: MemberLink | undefined, server: string): [number, string, Record<string, unknown>] {
  if (!link) return [ErrorCode.InternalError, notInProfile(server), { server }];
  const { code, message, data } = unavailable(link);
  return [code, message, data];
}
