/**
 * One playground session: the hub's local session on a server (hub.openLocalSession) driven by a
 * person through the API. Each request gets a stream of its own (an in-process sink), so what the
 * server sends on it — the answer, progress, a sampling or elicitation request made while
 * handling it — is known to belong to that request. Server messages that belong to no request
 * arrive on the session's standalone stream.
 */
import { performance } from 'node:perf_hooks';
import type { PlaygroundOpened, PlaygroundOutcome, PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { APP_ORIGIN_META_KEY, FULL_CLIENT_CAPABILITIES, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { ApiError } from '../api/api-registry.js';
import type { Session } from '../hub/session.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import { LocalSink } from './local-sink.js';

/**
 * What the playground client supports: it shows the person every request a server may make, and
 * renders MCP Apps (so a server that offers its UI only to hosts that can show it does).
 */
const CLIENT_CAPABILITIES = FULL_CLIENT_CAPABILITIES;

export interface PlaygroundSessionEvents {
  serverMessage(payload: PlaygroundServerMessage): void;
}

type Finish = (outcome: PlaygroundOutcome) => void;

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export class PlaygroundSession {
  lastUsed = Date.now();
  private nextId = 1;
  /** Requests waiting for their answer, by id. */
  private readonly waiting = new Map<JsonRpcId, Finish>();
  private readonly standalone: LocalSink;

  constructor(
    readonly id: string,
    readonly serverId: string,
    private readonly session: Session,
    private readonly events: PlaygroundSessionEvents,
  ) {
    this.standalone = new LocalSink((m) => this.fromServer(m, undefined));
  }

  get live(): boolean {
    return this.session.state === 'live';
  }

  get pending(): number {
    return this.waiting.size;
  }

  /** Initializes the session as a client with sampling, elicitation and roots, then opens its standalone stream. */
  async initialize(version: string, inspectorSession: string | undefined): Promise<PlaygroundOpened> {
    const latest = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1]!;
    const init = await this.session.initialize(
      {
        jsonrpc: '2.0',
        id: 'patchbay-playground-init',
        method: 'initialize',
        params: { protocolVersion: latest, capabilities: CLIENT_CAPABILITIES, clientInfo: { name: 'patchbay-playground', title: 'Patchbay playground', version } },
      },
      undefined,
    );
    const message = init.message as { result?: Record<string, unknown>; error?: { message?: string } };
    if (!init.ok || !message.result) {
      throw new ApiError('playground_failed', `Server '${this.serverId}' did not start a session: ${message.error?.message ?? 'no result to initialize'}`);
    }
    await this.session.forward([{ jsonrpc: '2.0', method: 'notifications/initialized' }], [undefined], undefined);
    this.session.attachGetStream(this.standalone, {});
    const result = message.result;
    const opened: PlaygroundOpened = { session: this.id, server: this.serverId, capabilities: isObject(result.capabilities) ? result.capabilities : {} };
    if (inspectorSession !== undefined) opened.inspectorSession = inspectorSession;
    if (typeof result.protocolVersion === 'string') opened.protocolVersion = result.protocolVersion;
    const info = result.serverInfo as { name?: unknown; version?: unknown; title?: unknown } | undefined;
    if (info && typeof info.name === 'string') {
      opened.serverInfo = { name: info.name };
      if (typeof info.version === 'string') opened.serverInfo.version = info.version;
      if (typeof info.title === 'string') opened.serverInfo.title = info.title;
    }
    if (typeof result.instructions === 'string') opened.instructions = result.instructions;
    return opened;
  }

  /**
   * Sends one request on a stream of its own and resolves with its answer. A progress token is
   * added (unless the caller set one), so the server can report progress on this call.
   */
  request(method: string, params: Record<string, unknown> | undefined, timeoutMs: number, chosenId?: string, origin?: 'app'): Promise<PlaygroundOutcome> {
    this.lastUsed = Date.now();
    if (chosenId !== undefined && this.waiting.has(chosenId)) throw new ApiError('duplicate_id', `A request with id '${chosenId}' is still running in this playground session`);
    const id: JsonRpcId = chosenId ?? this.nextId++;
    const started = performance.now();
    if (!this.live) return Promise.resolve({ id, status: 'closed', latencyMs: 0, error: { code: -32000, message: 'The playground session has ended; open a new one' } });
    const meta = isObject(params?._meta) ? params._meta : {};
    // A call an MCP App made says so where the inspector reads it (the request as sent); servers ignore unknown `_meta` keys.
    const marked = origin === 'app' ? { ...meta, [APP_ORIGIN_META_KEY]: 'app' } : meta;
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { progressToken: `${this.id}-${id}`, ...marked } } };
    return new Promise<PlaygroundOutcome>((resolve) => {
      const finish: Finish = (outcome) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        this.lastUsed = Date.now();
        resolve(outcome);
      };
      this.waiting.set(id, finish);
      const latency = (): number => round(performance.now() - started);
      const timer = setTimeout(() => {
        // Tell the server, as a client would: it should stop working on it.
        void this.session.forward([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: `no answer within ${timeoutMs} ms (playground)` } }], [undefined], undefined);
        finish({ id, status: 'timeout', latencyMs: latency(), error: { code: -32001, message: `The server did not answer '${method}' within ${Math.round(timeoutMs / 1000)} s` } });
      }, timeoutMs);
      const sink = new LocalSink(
        (m) => {
          if (!('method' in m) && m.id === id) {
            if (m.error) finish({ id, status: 'error', error: m.error, latencyMs: latency() });
            else finish({ id, status: 'ok', result: m.result, latencyMs: latency() });
            return;
          }
          this.fromServer(m, id);
        },
        () => finish({ id, status: 'closed', latencyMs: latency(), error: { code: -32000, message: 'The session ended before the server answered' } }),
      );
      const stream = this.session.openRequestStream(sink, {});
      this.session.forward([request], [undefined], stream).catch((err: Error) => {
        finish({ id, status: 'error', latencyMs: latency(), error: { code: -32603, message: err.message } });
      });
    });
  }

  /** Answers a request the server sent (sampling, elicitation, roots/list). */
  async answer(id: JsonRpcId, result: Record<string, unknown> | undefined, error: { code: number; message: string } | undefined): Promise<void> {
    this.lastUsed = Date.now();
    if ((result === undefined) === (error === undefined)) throw new ApiError('invalid_answer', 'An answer carries either a result or an error');
    const message: JsonRpcMessage = error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result };
    await this.session.forward([message], [undefined], undefined);
  }

  async notify(method: string, params: Record<string, unknown> | undefined): Promise<void> {
    this.lastUsed = Date.now();
    await this.session.forward([params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }], [undefined], undefined);
  }

  async close(): Promise<void> {
    this.standalone.detach();
    await this.session.close();
  }

  /** A server request or notification: the UI is told, with the call it came with. */
  private fromServer(m: JsonRpcMessage, relatedRequestId: JsonRpcId | undefined): void {
    if (!('method' in m)) return;
    const payload: PlaygroundServerMessage = {
      session: this.id,
      kind: 'id' in m ? 'request' : 'notification',
      message: { jsonrpc: '2.0', method: m.method, ...('id' in m ? { id: m.id } : {}), ...(m.params ? { params: m.params } : {}) },
    };
    if (relatedRequestId !== undefined) payload.relatedRequestId = relatedRequestId;
    this.events.serverMessage(payload);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
