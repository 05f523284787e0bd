/**
 * A small MCP client over raw HTTP: initialize + notifications/initialized, then requests whose
 * stream (or JSON body) is read to the end, with the session id and version on every request.
 */
import { initializeRequest, isResponse, LATEST, toolText, type JsonRpcId, type JsonRpcMessage } from './json-rpc.js';
import { del, get, messagesOfResponse, post, type PostOptions } from './mcp-http.js';
import type { SseItem } from './sse.js';
import type { TestHub } from './test-hub.js';

export interface CallOutcome {
  /** The response to the request. */
  response: JsonRpcMessage;
  /** Every JSON-RPC message of the POST's stream, in order (the response included). */
  messages: JsonRpcMessage[];
  items: SseItem[];
  http: Response;
}

export class TestClient {
  sessionId: string | undefined;
  /** The version the server answered initialize with. */
  protocolVersion: string | undefined;
  initializeResponse: Response | undefined;
  initializeResult: Record<string, unknown> | undefined;
  private nextId = 1;

  constructor(
    readonly hub: TestHub,
    readonly serverId: string,
  ) {}

  /** initialize + notifications/initialized; returns the session id. */
  async connect(opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<string | undefined> {
    const res = await post(this.hub, this.serverId, initializeRequest(0, opts.protocolVersion ?? LATEST, opts.capabilities ?? {}));
    this.initializeResponse = res;
    const { messages } = await messagesOfResponse(res);
    const answer = messages.find((m) => m.id === 0);
    if (res.status !== 200 || !answer || !answer.result) {
      throw new Error(`initialize failed: HTTP ${res.status} ${JSON.stringify(messages).slice(0, 500)}`);
    }
    this.initializeResult = answer.result as Record<string, unknown>;
    this.protocolVersion = String(this.initializeResult.protocolVersion);
    this.sessionId = res.headers.get('mcp-session-id') ?? undefined;
    const note = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (note.status !== 202) throw new Error(`notifications/initialized: expected 202, got ${note.status} ${await note.text()}`);
    await note.body?.cancel();
    return this.sessionId;
  }

  /** Headers the session sends on every request. */
  options(extra: PostOptions = {}): PostOptions {
    const o: PostOptions = { ...extra };
    if (this.sessionId !== undefined && o.sessionId === undefined) o.sessionId = this.sessionId;
    if (this.protocolVersion !== undefined && o.protocolVersion === undefined && this.protocolVersion >= '2025-06-18') {
      o.protocolVersion = this.protocolVersion;
    }
    return o;
  }

  post(body: unknown, extra: PostOptions = {}): Promise<Response> {
    return post(this.hub, this.serverId, body, this.options(extra));
  }

  get(extra: PostOptions & { lastEventId?: string } = {}): Promise<Response> {
    return get(this.hub, this.serverId, { ...this.options(extra), ...(extra.lastEventId !== undefined ? { lastEventId: extra.lastEventId } : {}) });
  }

  delete(extra: PostOptions = {}): Promise<Response> {
    return del(this.hub, this.serverId, this.options(extra));
  }

  newId(): number {
    return this.nextId++;
  }

  /** Sends one request and reads its stream (or JSON body) to the end. */
  async request(method: string, params: Record<string, unknown> = {}, id: JsonRpcId = this.newId(), timeoutMs = 15_000): Promise<CallOutcome> {
    const res = await this.post({ jsonrpc: '2.0', id, method, params });
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${await res.text()}`);
    const { messages, items } = await messagesOfResponse(res, timeoutMs);
    const response = messages.find((m) => isResponse(m) && m.id === id);
    if (!response) throw new Error(`${method}: no response with id ${JSON.stringify(id)} in ${JSON.stringify(messages).slice(0, 500)}`);
    return { response, messages, items, http: res };
  }

  async callTool(name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>, timeoutMs = 15_000): Promise<CallOutcome> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (meta) params._meta = meta;
    return this.request('tools/call', params, this.newId(), timeoutMs);
  }

  /** The text a tool returned. */
  async tool(name: string, args: Record<string, unknown> = {}): Promise<string> {
    return toolText((await this.callTool(name, args)).response);
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<Response> {
    const body: JsonRpcMessage = { jsonrpc: '2.0', method };
    if (params) body.params = params;
    const res = await this.post(body);
    await res.body?.cancel();
    return res;
  }
}

/** Starts a client and connects it (initialize + notifications/initialized). */
export async function connect(hub: TestHub, serverId: string, opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<TestClient> {
  const client = new TestClient(hub, serverId);
  await client.connect(opts);
  return client;
}

/** initialize + notifications/initialized over raw HTTP; returns the session id (undefined for stateless servers). */
export async function initSession(hub: TestHub, serverId: string, opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<string | undefined> {
  return new TestClient(hub, serverId).connect(opts);
}

/** The pid a fixture child reports through its `whoami` tool. */
export async function childPid(client: TestClient): Promise<number> {
  return Number(await client.tool('whoami'));
}
