/**
 * A legacy client's session served by a modern-era server (PROTOCOL Q9): an UpstreamConnection
 * that speaks the 2025 era to the session in front of it and 2026-07-28 to the server behind it.
 *
 * - `initialize` is answered from the server's `server/discover` (its capabilities, identity and
 *   instructions), at the legacy revision the client asked for; `notifications/initialized` and
 *   `ping` go no further, and `logging/setLevel` becomes the log level every later request carries;
 * - every other request gets the modern `_meta` envelope (version, the client's info and
 *   capabilities from its initialize) and the modern headers, and goes through the modern channel;
 * - an `input_required` answer becomes the server→client requests the legacy client knows
 *   (elicitation/create, sampling/createMessage, roots/list) on the client's stream; once the
 *   client answered them all, the request is sent again with `inputResponses` and the echoed
 *   `requestState` — as many rounds as the server asks for;
 * - `resources/subscribe` / `unsubscribe` become one `subscriptions/listen` stream (with the list
 *   changes the server offers), re-opened when the set of resources changes; its notifications
 *   reach the client untagged, as the legacy era sends them;
 * - modern-only result fields (`resultType`, cache hints) are taken off for the legacy client.
 */
import { ErrorCode, META, MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { stringifyOrUndefined } from '../protocol/json-depth.js';
import { errorResponse, isNotification, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { modernRequestHeaders, ToolHeaderDeclarations } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers, ModernUpstream } from '../upstream/modern-upstream.js';
import type { UpstreamConnection } from '../upstream/upstream.js';

type Obj = Record<string, unknown>;
const MODERN: string = MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;
const LATEST_LEGACY: string = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1]!;

/** A request of the legacy client in flight upstream, across its input rounds. */
interface Flight {
  request: JsonRpcRequest;
  call: ModernCall | undefined;
  /** The server→client requests of the current round: hub id → input key, and the answers so far. */
  asked: Map<string, string>;
  answers: Obj;
  requestState: string | undefined;
}

export class ModernBridgeUpstream implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];
  private isClosed = false;
  private clientInfo: unknown = { name: 'legacy-client', version: '0' };
  private clientCapabilities: unknown = {};
  private logLevel: string | undefined;
  private serverCapabilities: Obj = {};
  private readonly flights = new Map<string, Flight>();
  private nextId = 1;
  private readonly tools = new ToolHeaderDeclarations();
  private subscriptions = new Set<string>();
  private listen: ModernCall | undefined;

  constructor(
    private readonly serverId: string,
    private readonly channel: ModernUpstream,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  send(message: JsonRpcMessage): void {
    if (this.isClosed) return;
    if (isRequest(message)) return this.request(message);
    if (isNotification(message)) {
      if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
        const flight = id === undefined ? undefined : this.flights.get(key(id));
        if (flight) {
          this.flights.delete(key(id!));
          flight.call?.cancel('the client cancelled the request');
        }
      }
      // notifications/initialized, roots/list_changed …: nothing the modern server takes.
      return;
    }
    this.clientAnswer(message as JsonRpcResponse);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.listen?.cancel('the session closed');
    for (const f of this.flights.values()) f.call?.cancel('the session closed');
    this.flights.clear();
  }

  private request(message: JsonRpcRequest): void {
    switch (message.method) {
      case 'initialize':
        return this.initialize(message);
      case 'ping':
        return this.reply({ jsonrpc: '2.0', id: message.id, result: {} });
      case 'logging/setLevel': {
        const level = (message.params as { level?: unknown } | undefined)?.level;
        if (typeof level === 'string') this.logLevel = level;
        return this.reply({ jsonrpc: '2.0', id: message.id, result: {} });
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = (message.params as { uri?: unknown } | undefined)?.uri;
        if (typeof uri === 'string') {
          if (message.method === 'resources/subscribe') this.subscriptions.add(uri);
          else this.subscriptions.delete(uri);
          this.reopenListen();
        }
        return this.reply({ jsonrpc: '2.0', id: message.id, result: {} });
      }
      default: {
        const flight: Flight = { request: message, call: undefined, asked: new Map(), answers: {}, requestState: undefined };
        this.flights.set(key(message.id), flight);
        this.dispatch(flight, undefined);
      }
    }
  }

  private initialize(message: JsonRpcRequest): void {
    const params = (message.params ?? {}) as Obj;
    this.clientInfo = params.clientInfo ?? this.clientInfo;
    this.clientCapabilities = params.capabilities ?? {};
    const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : LATEST_LEGACY;
    const version = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_LEGACY;
    const discover: JsonRpcRequest = { jsonrpc: '2.0', id: message.id, method: 'server/discover', params: { _meta: this.envelope() } };
    const headers = this.headers(discover);
    this.observe(message.id, true, discover, undefined, headers);
    this.channel.call(
      { message: discover, raw: undefined, headers },
      {
        ...this.events(),
        notification: () => undefined,
        response: (answer, raw, info) => {
          if (!info.local) this.observe(message.id, false, answer, raw, undefined);
          const result = (answer as JsonRpcResponse).result as Obj | undefined;
          if (!result) return this.reply(answer as JsonRpcResponse, info.local);
          this.serverCapabilities = (result.capabilities as Obj | undefined) ?? {};
          const init: Obj = {
            protocolVersion: version,
            capabilities: this.serverCapabilities,
            serverInfo: ((result._meta as Obj | undefined)?.[META.serverInfo] as Obj | undefined) ?? { name: this.serverId, version: 'unknown' },
          };
          if (typeof result.instructions === 'string') init.instructions = result.instructions;
          this.reply({ jsonrpc: '2.0', id: message.id, result: init });
          this.reopenListen();
        },
      },
    );
  }

  /** Sends (or re-sends, with the round's answers) a client request to the modern server. */
  private dispatch(flight: Flight, inputs: { inputResponses: Obj; requestState: string | undefined } | undefined): void {
    const original = flight.request;
    const params = { ...((original.params ?? {}) as Obj) };
    params._meta = { ...((params._meta as Obj | undefined) ?? {}), ...this.envelope() };
    if (inputs) {
      params.inputResponses = inputs.inputResponses;
      if (inputs.requestState !== undefined) params.requestState = inputs.requestState;
    }
    // A retry is a new request with a new id (mrtr client requirements); the client's id comes back.
    const outgoing: JsonRpcRequest = { jsonrpc: '2.0', id: inputs ? `pbr-${this.nextId++}` : original.id, method: original.method, params };
    const headers = this.headers(outgoing);
    this.observe(original.id, true, outgoing, undefined, headers);
    flight.call = this.channel.call(
      { message: outgoing, raw: undefined, headers },
      {
        ...this.events(),
        notification: (m, raw) => {
          if (this.flights.get(key(original.id)) === flight) this.deliver(m, raw);
        },
        response: (answer, raw, info) => {
          if (this.flights.get(key(original.id)) !== flight) return;
          if (!info.local) this.observe(original.id, false, answer, raw, undefined);
          const result = (answer as JsonRpcResponse).result as Obj | undefined;
          if (result?.resultType === 'input_required') return this.askClient(flight, result);
          this.flights.delete(key(original.id));
          if (original.method === 'tools/list' && result) this.tools.learn(result);
          this.reply(legacyAnswer({ ...(answer as JsonRpcResponse), id: original.id }), info.local);
        },
      },
    );
  }

  /** An `input_required` answer: its requests go to the legacy client as its own server requests. */
  private askClient(flight: Flight, result: Obj): void {
    const requests = (result.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
    flight.requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
    flight.asked = new Map();
    flight.answers = {};
    const entries = Object.entries(requests).filter(([, r]) => typeof r?.method === 'string');
    if (entries.length === 0) return this.dispatch(flight, { inputResponses: {}, requestState: flight.requestState });
    for (const [inputKey, r] of entries) {
      const hubId = `pbi-${this.nextId++}`;
      flight.asked.set(hubId, inputKey);
      const ask: JsonRpcRequest = { jsonrpc: '2.0', id: hubId, method: r.method as string, ...(r.params !== undefined ? { params: r.params as Obj } : {}) };
      this.deliver(ask, JSON.stringify(ask));
    }
  }

  /** The legacy client answered one of the server's requests. */
  private clientAnswer(answer: JsonRpcResponse): void {
    const hubId = typeof answer.id === 'string' ? answer.id : undefined;
    if (!hubId) return;
    for (const flight of this.flights.values()) {
      const inputKey = flight.asked.get(hubId);
      if (inputKey === undefined) continue;
      flight.asked.delete(hubId);
      // An error answer (the user declined, the client cannot sample) is passed as what it is.
      flight.answers[inputKey] = answer.result ?? { error: answer.error };
      if (flight.asked.size === 0) this.dispatch(flight, { inputResponses: flight.answers, requestState: flight.requestState });
      return;
    }
  }

  /** One `subscriptions/listen` stream for what a legacy client gets unasked: list changes, its subscriptions. */
  private reopenListen(): void {
    this.listen?.cancel('the subscriptions changed');
    this.listen = undefined;
    const cap = (name: string): Obj => ((this.serverCapabilities[name] as Obj | undefined) ?? {});
    const filter: Obj = {};
    if (cap('tools').listChanged) filter.toolsListChanged = true;
    if (cap('prompts').listChanged) filter.promptsListChanged = true;
    if (cap('resources').listChanged) filter.resourcesListChanged = true;
    if (this.subscriptions.size > 0) filter.resourceSubscriptions = [...this.subscriptions];
    if (Object.keys(filter).length === 0) return;
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: `pbl-${this.nextId++}`, method: 'subscriptions/listen', params: { _meta: this.envelope(), notifications: filter } };
    this.listen = this.channel.call(
      { message: request, raw: undefined, headers: this.headers(request) },
      {
        ...this.events(),
        notification: (m) => {
          if (m.method === 'notifications/subscriptions/acknowledged') return;
          const params = { ...((m.params ?? {}) as Obj) };
          const meta = { ...((params._meta as Obj | undefined) ?? {}) };
          delete meta[META.subscriptionId];
          if (Object.keys(meta).length > 0) params._meta = meta;
          else delete params._meta;
          const plain: JsonRpcNotification = { jsonrpc: '2.0', method: m.method, params };
          this.deliver(plain, JSON.stringify(plain));
        },
        response: () => undefined,
      },
    );
  }

  private envelope(): Obj {
    const meta: Obj = { [META.protocolVersion]: MODERN, [META.clientInfo]: this.clientInfo, [META.clientCapabilities]: this.clientCapabilities };
    if (this.logLevel !== undefined) meta[META.logLevel] = this.logLevel;
    return meta;
  }

  /** The modern headers for a request the hub sends (an HTTP upstream puts them on the POST). */
  private headers(request: JsonRpcRequest): Record<string, string> {
    return modernRequestHeaders(request, MODERN, this.tools);
  }

  /** What the channel reports while a call is in flight (stderr, HTTP), passed on to the session's observers when they listen. */
  private events(): Pick<ModernCallHandlers, 'event'> {
    return this.onevent ? { event: (e) => this.onevent?.(e) } : {};
  }

  /** The server's side of a client request, for observers (the inspector); nothing when none listens. */
  private observe(of: JsonRpcId, toServer: boolean, message: JsonRpcMessage, raw: string | undefined, headers: Record<string, string> | undefined): void {
    if (this.onevent) this.onevent({ type: 'bridged', of, toServer, message, raw, headers });
  }

  private deliver(message: JsonRpcMessage, raw: string): void {
    if (!this.isClosed) this.onmessage?.(message, raw, false);
  }

  private reply(message: JsonRpcResponse, local = false): void {
    if (this.isClosed) return;
    const raw = stringifyOrUndefined(message) ?? JSON.stringify(errorResponse(message.id, ErrorCode.InternalError, `server '${this.serverId}' sent an answer nested too deeply to forward`));
    this.onmessage?.(message, raw, local);
  }
}

function key(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** A modern answer as a legacy client reads it: no `resultType` or cache hints. */
function legacyAnswer(message: JsonRpcResponse): JsonRpcResponse {
  const result = message.result as Obj | undefined;
  if (!result || typeof result !== 'object' || (result.resultType === undefined && result.ttlMs === undefined && result.cacheScope === undefined)) return message;
  const { resultType: _t, ttlMs: _l, cacheScope: _s, ...rest } = result;
  return { ...message, result: rest };
}
