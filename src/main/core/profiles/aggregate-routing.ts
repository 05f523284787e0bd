/**
 * Where one client request of an aggregated session goes: answered here (ping, the lists),
 * refused (an unknown or held-back tool), sent to every member (log level), or forwarded to the
 * member that owns it under its original name — a tool also by its member's own name, when only
 * one member has a tool so named (an MCP App's calls: docs/profiles.md). Resources keep their URIs: a read goes to the
 * member that lists the URI (the first in profile order when two do), else to the first whose
 * template matches, else — a URI nobody listed, such as one a tool returned — to the only
 * member with resources, or to each in turn until one has it. A `ui://` URI two members claim is
 * exposed in a unique form (ui-uris.ts) and read under the member's own.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import type { AggregateLists } from './aggregate-lists.js';
import { hasCapability, type MemberSource } from './member-source.js';
import { isMetaTool, type OnDemandView } from './on-demand.js';
import { templateMatcher, type UriEntry } from './profile-merge.js';

export type Route =
  | { kind: 'answer'; result: unknown; json?: string }
  /** `unknown`: the name is not in the merged list the aggregate has (a fresher list might have it). */
  | { kind: 'error'; code: number; message: string; data?: Record<string, unknown>; unknown?: 'tools' | 'prompts' }
  | { kind: 'forward'; server: string; message: JsonRpcMessage; raw?: string | undefined }
  | { kind: 'fanout'; capability: string };

export interface RoutingContext<M extends MemberSource = MemberSource> {
  lists: AggregateLists;
  /** The enabled members, in profile order. */
  members(): M[];
  /** Whether the member's rules expose a resource URI. */
  allowsResource(server: string, uri: string): boolean;
  /** The command that approves a held tool, for the error that refuses it. */
  holdHint(server: string, tool: string): string;
  /** A request of the aggregate's own to one member. */
  request(link: M, method: string, params: Record<string, unknown> | undefined): Promise<unknown>;
  setLogLevel(level: string): void;
  /** This client's on-demand view when it gets on-demand tools (on-demand.ts); else undefined. */
  onDemand?(): OnDemandView | undefined;
}

const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;
const LISTS: Record<string, ['tools' | 'prompts' | 'resources' | 'templates', string]> = {
  'tools/list': ['tools', 'tools'],
  'prompts/list': ['prompts', 'prompts'],
  'resources/list': ['resources', 'resources'],
  'resources/templates/list': ['templates', 'resourceTemplates'],
};
const matchers = new Map<string, RegExp>();

export async function routeRequest<M extends MemberSource>(message: JsonRpcRequest, raw: string | undefined, ctx: RoutingContext<M>): Promise<Route> {
  const params = message.params ?? {};
  const list = LISTS[message.method];
  const onDemand = ctx.onDemand?.();
  if (list) {
    if (onDemand && list[0] === 'tools') return { kind: 'answer', result: { tools: onDemand.list((await ctx.lists.get('tools')).data) } };
    // One page, the whole merged list: its JSON is kept ready, so no cursor is ever needed.
    const merged = await ctx.lists.get(list[0]);
    return { kind: 'answer', result: { [list[1]]: merged.data.exposed }, json: merged.json };
  }
  switch (message.method) {
    case 'ping':
      return { kind: 'answer', result: {} };
    case 'tools/call':
      if (onDemand && isMetaTool(params.name)) return routeMeta(message, onDemand, ctx);
      return routeNamed(message, raw, ctx, 'tools');
    case 'prompts/get':
      return routeNamed(message, raw, ctx, 'prompts');
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return routeUri(message, raw, ctx, String(params.uri ?? ''));
    case 'completion/complete':
      return routeCompletion(message, raw, ctx);
    case 'logging/setLevel':
      ctx.setLogLevel(String(params.level ?? ''));
      return { kind: 'fanout', capability: 'logging' };
    default: {
      // A profile of one server is transparent: what it speaks beyond the above still reaches it.
      const members = ctx.members();
      if (members.length === 1) return { kind: 'forward', server: members[0]!.server, message, raw };
      return { kind: 'error', code: ErrorCode.MethodNotFound, message: `Method not found: ${message.method} (this endpoint combines several servers and cannot tell which one it is for)` };
    }
  }
}

async function routeNamed(message: JsonRpcRequest, raw: string | undefined, ctx: RoutingContext, kind: 'tools' | 'prompts'): Promise<Route> {
  const params = message.params ?? {};
  const name = params.name;
  const what = kind === 'tools' ? 'tool' : 'prompt';
  if (typeof name !== 'string') return { kind: 'error', code: INVALID_PARAMS, message: `Invalid params: ${what} name missing` };
  const merged = ctx.lists.cached(kind) ?? (await ctx.lists.get(kind));
  let entry = merged.data.byName.get(name);
  if (!entry && kind === 'tools') {
    // Not a name of the profile's list: a member's own name (as an MCP App calls its server's
    // tools), when exactly one member's allowed tool has it.
    const own = (merged.data.byOwnName?.get(name) ?? []).filter((e) => e.enabled);
    if (own.length > 1) {
      const names = own.map((e) => e.exposed).join(', ');
      return { kind: 'error', code: INVALID_PARAMS, message: `Tool ${name} is offered by ${own.length} servers of this profile (${own.map((e) => e.server).join(', ')}): call it by its name in the profile (${names})`, data: { candidates: own.map((e) => e.exposed) } };
    }
    entry = own[0];
  }
  if (!entry || !entry.enabled) return { kind: 'error', code: INVALID_PARAMS, message: `Unknown ${what}: ${name}`, ...(entry ? {} : { unknown: kind }) };
  if ('held' in entry && entry.held) {
    return {
      kind: 'error',
      code: INVALID_PARAMS,
      message:
        'status' in entry && entry.status === 'pending'
          ? `Tool ${name} is held back: server '${entry.server}' was just installed or updated and its tools wait for approval. Review them and approve them in Patchbay (${ctx.holdHint(entry.server, entry.item.name)}).`
          : `Tool ${name} is held back: server '${entry.server}' changed its definition since it was approved. Review the change and approve it in Patchbay (${ctx.holdHint(entry.server, entry.item.name)}).`,
      data: { server: entry.server, tool: entry.item.name, held: true },
    };
  }
  const original = entry.item.name;
  if (original === name) return { kind: 'forward', server: entry.server, message, raw };
  return { kind: 'forward', server: entry.server, message: { ...message, params: { ...params, name: original } } };
}

/** A meta-tool of on-demand tools: answered here, or the found tool's call routed as a direct one. */
async function routeMeta(message: JsonRpcRequest, view: OnDemandView, ctx: RoutingContext): Promise<Route> {
  const params = message.params ?? {};
  const args = typeof params.arguments === 'object' && params.arguments !== null ? (params.arguments as Record<string, unknown>) : {};
  const step = view.step(String(params.name), args, (await ctx.lists.get('tools')).data);
  if (step.kind === 'result') return { kind: 'answer', result: step.result };
  // The client's own `_meta` (progress token, trace context) goes with the call.
  return routeNamed({ ...message, params: { ...params, name: step.name, arguments: step.arguments } }, undefined, ctx, 'tools');
}

/**
 * The member a URI is subscribed at: the one that lists it or whose template matches, else the
 * first member with resources whose rules allow it. Undefined when no member may have it.
 */
export async function uriOwner<M extends MemberSource>(uri: string, ctx: RoutingContext<M>): Promise<string | undefined> {
  return (await ownerOf(uri, ctx, false))?.server ?? candidatesFor(uri, ctx)[0]?.server;
}

function candidatesFor<M extends MemberSource>(uri: string, ctx: RoutingContext<M>): M[] {
  return ctx.members().filter((l) => hasResources(l) && ctx.allowsResource(l.server, uri));
}

async function routeUri<M extends MemberSource>(message: JsonRpcRequest, raw: string | undefined, ctx: RoutingContext<M>, uri: string): Promise<Route> {
  const owner = await ownerOf(uri, ctx, false);
  if (owner?.original) return { kind: 'forward', server: owner.server, message: { ...message, params: { ...message.params, uri: owner.original } } };
  if (owner) return { kind: 'forward', server: owner.server, message, raw };
  const candidates = candidatesFor(uri, ctx);
  if (candidates.length === 1) return { kind: 'forward', server: candidates[0]!.server, message, raw };
  if (candidates.length === 0) return { kind: 'error', code: RESOURCE_NOT_FOUND, message: `Resource not found: ${uri}`, data: { uri } };
  if (message.method !== 'resources/read') return { kind: 'forward', server: candidates[0]!.server, message, raw };
  // Reads have no side effects: ask each member in turn.
  let last = '';
  for (const link of candidates) {
    try {
      return { kind: 'answer', result: await ctx.request(link, message.method, message.params) };
    } catch (err) {
      last = (err as Error).message;
    }
  }
  return { kind: 'error', code: RESOURCE_NOT_FOUND, message: `Resource not found: ${uri} (no server of this profile has it; last: ${last})`, data: { uri } };
}

/**
 * The member that lists `uri` (or, with `asTemplate`, the template string itself), or whose
 * template matches it; `original`: the member's own URI when the profile exposes another.
 */
async function ownerOf(uri: string, ctx: RoutingContext, asTemplate: boolean): Promise<{ server: string; original?: string } | undefined> {
  const [resources, templates] = await Promise.all([ctx.lists.get('resources'), ctx.lists.get('templates')]);
  const exact = (asTemplate ? templates : resources).data.byName.get(uri) ?? resources.data.byName.get(uri);
  if (exact) return exact.original === undefined ? { server: exact.server } : { server: exact.server, original: exact.original };
  const listedButDenied = resources.data.entries.some((e: UriEntry) => e.key === uri && !e.enabled);
  if (listedButDenied) return undefined;
  for (const entry of templates.data.byName.values()) {
    let re = matchers.get(entry.key);
    if (!re) matchers.set(entry.key, (re = templateMatcher(entry.key)));
    if (re.test(uri) && ctx.allowsResource(entry.server, uri)) return { server: entry.server };
  }
  return undefined;
}

async function routeCompletion(message: JsonRpcRequest, raw: string | undefined, ctx: RoutingContext): Promise<Route> {
  const params = message.params ?? {};
  const ref = (params.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const merged = await ctx.lists.get('prompts');
    const entry = merged.data.byName.get(ref.name);
    if (!entry || !entry.enabled) return { kind: 'error', code: INVALID_PARAMS, message: `Unknown prompt: ${ref.name}` };
    if (entry.item.name === ref.name) return { kind: 'forward', server: entry.server, message, raw };
    return { kind: 'forward', server: entry.server, message: { ...message, params: { ...params, ref: { ...ref, name: entry.item.name } } } };
  }
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const server = (await ownerOf(ref.uri, ctx, true))?.server;
    if (server) return { kind: 'forward', server, message, raw };
    return { kind: 'error', code: INVALID_PARAMS, message: `Unknown resource template: ${ref.uri}` };
  }
  return { kind: 'error', code: INVALID_PARAMS, message: 'Invalid params: ref must be a ref/prompt with a name or a ref/resource with a uri' };
}

function hasResources(link: MemberSource): boolean {
  return hasCapability(link, 'resources') || !link.isUp;
}
