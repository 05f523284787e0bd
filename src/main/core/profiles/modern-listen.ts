/**
 * One client's `subscriptions/listen` stream on a profile (2026-07-28 basic/patterns/
 * subscriptions), fanned out to the members: the client gets one acknowledgment first (the part
 * of its filter the profile honours), then only what it asked for, every notification tagged with
 * its own subscription id. Each member that can deliver part of it gets a listen of its own:
 * the list changes it declares (a member's change only reaches the client when the profile's
 * merged list really changes: the aggregate rebuilds and compares, aggregate-lists.ts), and the
 * resource subscriptions whose URIs it owns. A member's listen that ends (the member died, or
 * ended it) is opened again with backoff while the client's stream is open; closing the client's
 * stream ends them all.
 */
import { META } from '../../../shared/protocol.js';
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../protocol/json-rpc.js';
import { modernRequestHeaders } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers } from '../upstream/modern-upstream.js';
import type { DeclaredLists } from './aggregate-initialize.js';
import { backoffDelay } from './member-retries.js';
import { OWN_NOTE } from './member-watch.js';
import { envelopeVersionOf, type ModernMember } from './modern-member.js';
import type { ListKind } from './server-catalog.js';

/** The `notifications` filter of a `subscriptions/listen` request. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface ProfileListenHost {
  /** The enabled members now, in profile order. */
  members(): ModernMember[];
  /** A member says its list of these kinds changed. */
  memberChanged(server: string, kinds: ListKind[]): void;
}

type Obj = Record<string, unknown>;

const LIST_CHANGED: Record<string, ListKind[]> = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'templates'],
};
const NOTIFICATION: Record<ListKind, { method: string; filter: keyof ListenFilter }> = {
  tools: { method: 'notifications/tools/list_changed', filter: 'toolsListChanged' },
  prompts: { method: 'notifications/prompts/list_changed', filter: 'promptsListChanged' },
  resources: { method: 'notifications/resources/list_changed', filter: 'resourcesListChanged' },
  templates: { method: 'notifications/resources/list_changed', filter: 'resourcesListChanged' },
};

interface MemberListen {
  member: ModernMember;
  call: ModernCall | undefined;
  timer: NodeJS.Timeout | undefined;
  failures: number;
  /** Opened again after it ended: what the member lists may have changed meanwhile. */
  again: boolean;
}

let nextListenId = 1;

/** What the profile honours of a client's listen filter, and the subscribed URIs each member owns. */
export interface ListenTerms {
  honored: ListenFilter;
  /** Member → the subscribed URIs it owns. */
  owners: Map<string, string[]>;
}

/**
 * The part of a client's filter the profile can honour: list changes of the kinds its members
 * declare (tools always: a toggle changes that list whatever the members say), and the resource
 * subscriptions whose owner (`owner`: the member that serves the URI) can subscribe.
 */
export async function listenTerms(asked: ListenFilter, declared: DeclaredLists, owner: (uri: string) => Promise<ModernMember | undefined>): Promise<ListenTerms> {
  const honored: ListenFilter = {};
  if (asked.toolsListChanged === true) honored.toolsListChanged = true;
  if (asked.promptsListChanged === true && declared.prompts) honored.promptsListChanged = true;
  if (asked.resourcesListChanged === true && declared.resources) honored.resourcesListChanged = true;
  const owners = new Map<string, string[]>();
  if (Array.isArray(asked.resourceSubscriptions)) {
    const subscribed: string[] = [];
    for (const uri of asked.resourceSubscriptions) {
      if (typeof uri !== 'string') continue;
      const member = await owner(uri);
      const resources = member?.init?.capabilities.resources as { subscribe?: unknown } | undefined;
      if (!member || resources?.subscribe !== true) continue;
      subscribed.push(uri);
      owners.set(member.server, [...(owners.get(member.server) ?? []), uri]);
    }
    if (subscribed.length > 0) honored.resourceSubscriptions = subscribed;
  }
  return { honored, owners };
}

export class ProfileListen {
  private readonly links = new Map<string, MemberListen>();
  private closed = false;

  constructor(
    /** The client's `subscriptions/listen` request. */
    private readonly request: JsonRpcRequest,
    /** What the profile agreed to honour. */
    readonly honored: ListenFilter,
    /** Member → the subscribed URIs it owns. */
    private readonly owners: ReadonlyMap<string, readonly string[]>,
    private readonly handlers: ModernCallHandlers,
    private readonly host: ProfileListenHost,
  ) {}

  get id(): JsonRpcId {
    return this.request.id;
  }

  /** The acknowledgment, then the members' listens. */
  start(): void {
    this.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: this.honored } });
    this.sync();
  }

  /** The profile's merged list of `kind` changed from what the client had. */
  listChanged(kind: ListKind): void {
    const { method, filter } = NOTIFICATION[kind];
    if (this.honored[filter] === true) this.send({ jsonrpc: '2.0', method });
  }

  /** Members joined or left the profile, or a member's runtime was replaced: listens follow. */
  sync(): void {
    if (this.closed) return;
    const current = new Map(this.host.members().map((m) => [m.server, m]));
    for (const [server, link] of this.links) {
      if (current.get(server) === link.member) continue;
      this.stop(link);
      this.links.delete(server);
    }
    for (const member of current.values()) {
      if (this.links.has(member.server)) continue;
      const link: MemberListen = { member, call: undefined, timer: undefined, failures: 0, again: false };
      this.links.set(member.server, link);
      this.open(link);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const link of this.links.values()) this.stop(link);
    this.links.clear();
  }

  /** What one member is asked for: the part of the honoured filter it can deliver. */
  private memberFilter(member: ModernMember): ListenFilter {
    const caps = member.init?.capabilities;
    const can = (kind: string, flag: string): boolean => {
      if (caps === undefined) return true; // not heard from yet: its acknowledgment will say
      const cap = caps[kind];
      return typeof cap === 'object' && cap !== null && (cap as Obj)[flag] === true;
    };
    const out: ListenFilter = {};
    if (this.honored.toolsListChanged && can('tools', 'listChanged')) out.toolsListChanged = true;
    if (this.honored.promptsListChanged && can('prompts', 'listChanged')) out.promptsListChanged = true;
    if (this.honored.resourcesListChanged && can('resources', 'listChanged')) out.resourcesListChanged = true;
    const uris = this.owners.get(member.server);
    if (uris && uris.length > 0) out.resourceSubscriptions = [...uris];
    return out;
  }

  private open(link: MemberListen): void {
    if (this.closed) return;
    const filter = this.memberFilter(link.member);
    if (Object.keys(filter).length === 0) return;
    const meta = (this.request.params?._meta ?? {}) as Obj;
    const envelope: Obj = {};
    for (const key of [META.protocolVersion, META.clientInfo, META.clientCapabilities]) if (key in meta) envelope[key] = meta[key];
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: `patchbay-listen-${nextListenId++}`, method: 'subscriptions/listen', params: { _meta: envelope, notifications: filter } };
    const ended = (): void => this.ended(link);
    link.call = link.member.forward(
      { message, raw: undefined, headers: modernRequestHeaders(message, envelopeVersionOf(envelope)) },
      {
        notification: (m) => this.fromMember(link, m),
        response: (m, _raw, info) => {
          // The member itself refused to listen (it cannot): not asked again. Anything else — it
          // ended the stream, its child died, it was unreachable — is asked again after a backoff.
          if (m.error && !info.local) link.call = undefined;
          else ended();
        },
        ended,
      },
      // The member's listen is the profile's own (the client's is answered here): observers are told so.
      OWN_NOTE,
    );
  }

  private fromMember(link: MemberListen, message: JsonRpcNotification): void {
    if (this.closed || this.links.get(link.member.server) !== link) return;
    if (message.method === 'notifications/subscriptions/acknowledged') {
      link.failures = 0;
      if (link.again) this.host.memberChanged(link.member.server, ['tools', 'prompts', 'resources', 'templates']);
      return;
    }
    const kinds = LIST_CHANGED[message.method];
    if (kinds) return this.host.memberChanged(link.member.server, kinds);
    if (message.method === 'notifications/resources/updated') {
      const params = (message.params ?? {}) as Obj;
      if (!(this.owners.get(link.member.server) ?? []).includes(params.uri as string)) return;
      const meta = { ...((params._meta as Obj | undefined) ?? {}) };
      delete meta[META.subscriptionId];
      this.send({ jsonrpc: '2.0', method: message.method, params: { ...params, _meta: meta } });
    }
  }

  /** A member's listen ended while the client's is open: again, after a backoff. */
  private ended(link: MemberListen): void {
    link.call = undefined;
    if (this.closed || this.links.get(link.member.server) !== link) return;
    const wait = Math.max(link.member.retryAt - Date.now(), backoffDelay(link.failures));
    link.failures++;
    link.timer = setTimeout(() => {
      link.timer = undefined;
      if (this.closed || this.links.get(link.member.server) !== link) return;
      link.again = true;
      this.open(link);
    }, wait);
    link.timer.unref();
  }

  private stop(link: MemberListen): void {
    clearTimeout(link.timer);
    link.timer = undefined;
    const call = link.call;
    link.call = undefined;
    call?.cancel('the client closed its subscription');
  }

  /** To the client, tagged with its subscription id. */
  private send(message: JsonRpcNotification): void {
    if (this.closed) return;
    const params = (message.params ?? {}) as Obj;
    const tagged: JsonRpcNotification = { ...message, params: { ...params, _meta: { ...((params._meta as Obj | undefined) ?? {}), [META.subscriptionId]: this.request.id } } };
    this.handlers.notification(tagged, JSON.stringify(tagged));
  }
}
