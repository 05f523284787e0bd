/**
 * One modern client's calls through its legacy session (legacy-bridge.ts), and the Multi
 * Round-Trip Requests translation (2026-07-28 basic/patterns/mrtr):
 *
 * 1. A modern request becomes a request of the legacy session with the hub's own id (the call can
 *    outlive the client's request: its retries have new ids), read through an in-process stream.
 * 2. When the server asks the client something while handling it (sampling, elicitation,
 *    roots/list), the modern request is answered with `input_required`: the server's requests as
 *    `inputRequests` and a `requestState` the hub mints. The legacy call stays open, parked.
 * 3. The client's retry carries `inputResponses` and that `requestState`: its answers go to the
 *    server as responses to the requests it is waiting on, and the retry is answered with whatever
 *    the call produces next — its result, or another `input_required` round.
 *
 * A retry whose `requestState` the hub did not issue (or issued for another request) is refused;
 * a parked call whose client does not come back within `inputWaitMs` has its server requests
 * refused and is cancelled.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode, META } from '../../../shared/protocol.js';
import { errorResponse, isNotification, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { replaceTopLevelId } from '../protocol/json-splice.js';
import { logMessageWanted, metaOf } from '../protocol/modern.js';
import type { ModernCall, ModernCallHandlers } from '../upstream/modern-upstream.js';
import type { Session } from '../hub/session.js';
import type { StreamSink } from '../hub/stream-sink.js';

/** Methods that may answer `input_required` (mrtr "Supported Requests"). */
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** Server requests arriving this close together are asked for in one round. */
const GATHER_MS = 20;

type Obj = Record<string, unknown>;

interface Call {
  hubId: string;
  method: string;
  /** Who hears the call now: the first request, then each retry; undefined while parked. */
  handlers: ModernCallHandlers | undefined;
  clientId: JsonRpcId;
  /** Server requests asked for in the current round, by input key. */
  asked: Map<string, { id: JsonRpcId; method: string; params: unknown }>;
  /** Server requests gathered for the next round, not yet sent to the client. */
  gathering: Array<{ id: JsonRpcId; method: string; params: unknown }>;
  gatherTimer: NodeJS.Timeout | undefined;
  state: string | undefined;
  parkTimer: NodeJS.Timeout | undefined;
  detach: (() => void) | undefined;
  /** The log level the client's request (or its latest retry) asked for in `_meta`; none: no log messages. */
  logLevel: unknown;
  /** Observers' view of the server's side (the latest request's; kept while parked). */
  wire: ModernCallHandlers['wire'];
  /**
   * The progress token of the client's request (or its latest retry); undefined: it asked for
   * none. The server sees the call's own id instead: modern clients that share the bridge's
   * session may all use the same token, and one must never get another's progress.
   */
  progressToken: unknown;
}

/** Keys of `_meta` that belong to the modern envelope, not to the legacy request. */
const ENVELOPE_KEYS = new Set<string>([META.protocolVersion, META.clientInfo, META.clientCapabilities, META.logLevel]);

export class BridgeCalls {
  private nextId = 1;
  private nextKey = 1;
  private readonly calls = new Map<string, Call>();
  private readonly byState = new Map<string, Call>();
  /** Notifications no call owns (list changes, resource updates): for the listen streams. */
  unsolicited: ((message: JsonRpcNotification, raw: string) => void) | undefined;

  constructor(
    private readonly session: Session,
    private readonly serverId: string,
    private readonly inputWaitMs: number,
  ) {}

  /** Calls in progress or waiting for the client's retry. */
  get active(): number {
    return this.calls.size;
  }

  start(message: JsonRpcRequest, handlers: ModernCallHandlers): ModernCall {
    const params = (message.params ?? {}) as Obj;
    if (params.requestState !== undefined || params.inputResponses !== undefined) return this.retry(message, params, handlers);
    const hubId = `pbb-${this.nextId++}`;
    const progressToken = metaOf(params)?.progressToken;
    const call: Call = { hubId, method: message.method, handlers, clientId: message.id, asked: new Map(), gathering: [], gatherTimer: undefined, state: undefined, parkTimer: undefined, detach: undefined, logLevel: metaOf(params)?.[META.logLevel], wire: handlers.wire, progressToken };
    this.calls.set(hubId, call);
    const sink = this.sink(call);
    const stream = this.session.openRequestStream(sink.sink, {});
    call.detach = sink.detach;
    const legacy: JsonRpcRequest = { jsonrpc: '2.0', id: hubId, method: message.method, params: legacyParams(params, progressToken === undefined ? undefined : hubId) };
    call.wire?.(true, legacy, undefined);
    void this.session.forward([legacy], [undefined], stream);
    return { cancel: (reason) => this.cancel(call, reason) };
  }

  /** A retry of a call answered `input_required` (mrtr "Client Requirements"). */
  private retry(message: JsonRpcRequest, params: Obj, handlers: ModernCallHandlers): ModernCall {
    const none: ModernCall = { cancel: () => undefined };
    const state = params.requestState;
    const call = typeof state === 'string' ? this.byState.get(state) : undefined;
    if (!call || call.method !== message.method) {
      const answer = errorResponse(message.id, ErrorCode.InvalidParams, `Invalid params: requestState is not one patchbay issued for this ${message.method}, or it expired (retry the original request without inputResponses)`);
      handlers.response(answer, JSON.stringify(answer), { local: true, answered: 'bridge' });
      return none;
    }
    this.byState.delete(state as string);
    clearTimeout(call.parkTimer);
    call.state = undefined;
    call.handlers = handlers;
    call.wire = handlers.wire;
    call.clientId = message.id;
    call.logLevel = metaOf(params)?.[META.logLevel];
    // Progress from here on goes to the retry, under the token it asked with (none: no progress).
    call.progressToken = metaOf(params)?.progressToken;
    const responses = (params.inputResponses ?? {}) as Obj;
    const unanswered = new Map<string, { id: JsonRpcId; method: string; params: unknown }>();
    for (const [key, asked] of call.asked) {
      if (key in responses) {
        const answer = { jsonrpc: '2.0', id: asked.id, result: responses[key] } as JsonRpcMessage;
        call.wire?.(true, answer, undefined);
        void this.session.forward([answer], [undefined], undefined);
      } else unanswered.set(key, asked);
    }
    call.asked = new Map();
    // Requests the client left unanswered are asked for again (mrtr "Error Handling").
    if (unanswered.size > 0) {
      call.gathering.push(...unanswered.values());
      this.askSoon(call);
    }
    return { cancel: (reason) => this.cancel(call, reason) };
  }

  /** The in-process stream the legacy session writes the call's messages to. */
  private sink(call: Call): { sink: StreamSink; detach(): void } {
    let closeListener: (() => void) | undefined;
    const sink: StreamSink = {
      resumable: false,
      open: () => undefined,
      prime: () => undefined,
      keepAlive: () => undefined,
      message: (_eventId, json, parsed) => this.fromSession(call, json, parsed),
      end: () => undefined,
      onClose: (listener) => {
        closeListener = listener;
      },
    };
    return { sink, detach: () => closeListener?.() };
  }

  /** `parsed`: the session's own parse of `json`, when it had one (a replay has not). */
  private fromSession(call: Call, json: string, parsed: JsonRpcMessage | undefined): void {
    let message: JsonRpcMessage;
    try {
      message = parsed ?? (JSON.parse(json) as JsonRpcMessage);
    } catch {
      return;
    }
    if (!('method' in message)) {
      if (message.id !== call.hubId) return;
      call.wire?.(false, message, json);
      this.finish(call);
      const restored: JsonRpcResponse = { ...message, id: call.clientId };
      call.handlers?.response(restored, replaceTopLevelId(json, JSON.stringify(call.clientId)) ?? JSON.stringify(restored), { local: false });
      return;
    }
    if (isRequest(message)) {
      if (message.method !== 'ping') call.wire?.(false, message, json);
      return this.serverRequest(call, message);
    }
    if (isNotification(message)) {
      if (message.method === 'notifications/progress') {
        // Only this call's own progress, under the client's token. Anything else reached this
        // call's stream because the session routes what it cannot place to the oldest open
        // request (another call's late progress, after that call was cancelled): dropped.
        const p = message.params as Obj | undefined;
        if (p?.progressToken !== call.hubId || call.progressToken === undefined) return;
        const restored: JsonRpcNotification = { ...message, params: { ...p, progressToken: call.progressToken } as JsonRpcNotification['params'] };
        call.handlers?.notification(restored, JSON.stringify(restored));
        return;
      }
      // The legacy session's level is shared by its calls (logging/setLevel); each modern request
      // gets only what its own `_meta` logLevel asked for, and nothing when it asked for none.
      if (message.method === 'notifications/message') {
        if (logMessageWanted(call.logLevel, (message.params as Obj | undefined)?.level)) call.handlers?.notification(message, json);
        return;
      }
      this.unsolicited?.(message, json);
    }
  }

  private serverRequest(call: Call, request: JsonRpcRequest): void {
    if (request.method === 'ping') {
      void this.session.forward([{ jsonrpc: '2.0', id: request.id, result: {} } as JsonRpcMessage], [undefined], undefined);
      return;
    }
    if (!MRTR_METHODS.has(call.method)) {
      const refusal = errorResponse(request.id, ErrorCode.MethodNotFound, `patchbay: the client speaks protocol revision 2026-07-28, which cannot answer '${request.method}' during '${call.method}'`);
      call.wire?.(true, refusal, undefined);
      void this.session.forward([refusal], [undefined], undefined);
      return;
    }
    call.gathering.push({ id: request.id, method: request.method, params: request.params });
    this.askSoon(call);
  }

  /** Sends the gathered server requests to the client as one `input_required` round, shortly. */
  private askSoon(call: Call): void {
    if (call.gatherTimer !== undefined || !call.handlers) return;
    call.gatherTimer = setTimeout(() => {
      call.gatherTimer = undefined;
      const handlers = call.handlers;
      if (!handlers || call.gathering.length === 0) return;
      const inputRequests: Obj = {};
      for (const asked of call.gathering.splice(0)) {
        const key = `input-${this.nextKey++}`;
        call.asked.set(key, asked);
        inputRequests[key] = { method: asked.method, params: asked.params ?? {} };
      }
      const state = randomBytes(18).toString('base64url');
      call.state = state;
      this.byState.set(state, call);
      call.handlers = undefined;
      call.parkTimer = setTimeout(() => this.abandon(call), this.inputWaitMs);
      call.parkTimer.unref();
      const answer: JsonRpcResponse = { jsonrpc: '2.0', id: call.clientId, result: { resultType: 'input_required', inputRequests, requestState: state } };
      handlers.response(answer, JSON.stringify(answer), { local: false });
    }, GATHER_MS);
    call.gatherTimer.unref();
  }

  /** The client never came back with its answers: refuse the server's requests, cancel the call. */
  private abandon(call: Call): void {
    if (call.state) this.byState.delete(call.state);
    for (const asked of call.asked.values()) {
      void this.session.forward([errorResponse(asked.id, ErrorCode.InternalError, 'patchbay: the client did not answer in time')], [undefined], undefined);
    }
    this.cancel(call, 'the client did not retry with the requested input');
  }

  private cancel(call: Call, reason: string): void {
    if (!this.calls.has(call.hubId)) return;
    if (call.handlers === undefined && call.state !== undefined) {
      // Parked: the client's request is over; its retry may still come. Only `abandon` ends it.
      if (reason !== 'the client did not retry with the requested input') return;
    }
    this.finish(call);
    void this.session.forward([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call.hubId, reason } }], [undefined], undefined);
  }

  private finish(call: Call): void {
    this.calls.delete(call.hubId);
    clearTimeout(call.gatherTimer);
    clearTimeout(call.parkTimer);
    if (call.state) this.byState.delete(call.state);
    call.detach?.();
  }
}

/** A modern request's params as a legacy one: without the modern envelope, MRTR fields left out. */
/** The legacy request's params: no modern envelope, and the call's own progress token (`progressToken`) in place of the client's. */
function legacyParams(params: Obj, progressToken: string | undefined): Obj {
  const { _meta, inputResponses: _i, requestState: _r, ...rest } = params;
  if (_meta === undefined || typeof _meta !== 'object' || _meta === null) return rest;
  const meta: Obj = {};
  for (const [k, v] of Object.entries(_meta as Obj)) if (!ENVELOPE_KEYS.has(k)) meta[k] = v;
  if (progressToken !== undefined) meta.progressToken = progressToken;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}
