/**
 * Modern-era requests to a remote server: one POST per request (2026-07-28 basic/transports/
 * streamable-http), the client's validated `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` /
 * `Mcp-Param-*` headers forwarded, the configured headers (API keys) and the OAuth bearer added,
 * the body sent as the client wrote it. The answer is a JSON body or an SSE stream of the call's
 * notifications and then its response; an HTTP error with a JSON-RPC error body is passed on with
 * its status. Closing the stream (aborting the POST) is how a modern client cancels, and how the
 * hub does.
 *
 * Its own HTTP client, not the SDK's transport: the hub forwards the request as it came (raw
 * text, the client's own headers) and relays the status of a modern error; the SDK's transport
 * would rebuild the request and turn such errors into exceptions.
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import { ErrorCode } from '../../../shared/protocol.js';
import type { Logger } from '../log/logger.js';
import { performance } from 'node:perf_hooks';
import { arrival } from '../protocol/arrival.js';
import { exceedsDepth, stringifyOrUndefined } from '../protocol/json-depth.js';
import { classify, errorResponse, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { lazyAnswer } from '../protocol/lazy-answer.js';
import { withoutInvalidHeaderTools } from '../protocol/modern.js';
import { SseParser } from '../protocol/sse-parser.js';
import { TextChunks } from '../protocol/text-chunks.js';
import { exchangeOf, maskedHeaders } from './remote-exchange.js';
import { displayUrl, rpcErrorFor } from './remote-errors.js';
import type { RemoteFetch, RemoteResponse } from './remote-fetch.js';
import type { RemoteAuth } from './remote-upstream.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from './modern-upstream.js';

export interface ModernRemoteOptions {
  serverId: string;
  url: string;
  /** Sent on every request (secrets already resolved). */
  headers: Record<string, string>;
  fetch: RemoteFetch;
  auth?: RemoteAuth;
  logger: Logger;
}

/**
 * The headers a client's request brings that go on to the server (and the W3C trace context the
 * hub adds under telemetry, hub/tracing.ts); anything else is the hub's business.
 */
const FORWARDED = /^(mcp-protocol-version|mcp-method|mcp-name|mcp-param-.+|traceparent|tracestate|baggage)$/i;

export class ModernRemoteChannel implements ModernUpstream {
  private readonly url: URL;
  private readonly calls = new Set<AbortController>();
  /** What an exchange record masks (remote-exchange.ts), built once. */
  private readonly masked: ReadonlySet<string>;

  constructor(private readonly opts: ModernRemoteOptions) {
    this.url = new URL(opts.url);
    this.masked = maskedHeaders(Object.keys(opts.headers));
  }

  call(request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
    const abort = new AbortController();
    this.calls.add(abort);
    let done = false;
    const finish = (): void => {
      done = true;
      this.calls.delete(abort);
    };
    const answer: ModernCallHandlers = {
      notification: (m, raw) => {
        if (!done) handlers.notification(m, raw);
      },
      response: (m, raw, info) => {
        if (done) return;
        finish();
        handlers.response(m, raw, info);
      },
      ended: () => {
        if (done) return;
        finish();
        handlers.ended?.();
      },
      ...(handlers.event ? { event: handlers.event } : {}),
    };
    void this.run(request, answer, abort.signal).catch((err: unknown) => {
      if (abort.signal.aborted) return finish();
      const { code, message, data } = rpcErrorFor(err, this.opts.serverId, request.message.method, this.url);
      const error = errorResponse(request.message.id, code, message, { server: this.opts.serverId, ...data });
      answer.response(error, JSON.stringify(error), { local: true });
    });
    return {
      cancel: () => {
        finish();
        abort.abort();
      },
    };
  }

  async close(): Promise<void> {
    for (const abort of this.calls) abort.abort();
    this.calls.clear();
  }

  private async run(request: ModernCallRequest, handlers: ModernCallHandlers, signal: AbortSignal): Promise<void> {
    const body = request.raw ?? JSON.stringify(request.message);
    let res = await this.post(request, body, signal, handlers);
    if (res.status === 401 && this.opts.auth?.provider.onUnauthorized) {
      await res.discard();
      await this.opts.auth.provider.onUnauthorized({ response: res.headersOnly(), serverUrl: this.url, fetchFn: this.opts.fetch });
      res = await this.post(request, body, signal, handlers);
    }
    // P37: a 403 insufficient_scope steps up (the union of the scopes asked so far) and tries once
    // more; the auth service refuses a step-up that could only loop, and that refusal is the answer.
    if (res.status === 403 && this.opts.auth) {
      const challenge = extractWWWAuthenticateParams(res.headersOnly());
      if (challenge.error === 'insufficient_scope') {
        await res.discard();
        await this.opts.auth.stepUp({ ...(challenge.scope ? { scope: challenge.scope } : {}), ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}) });
        res = await this.post(request, body, signal, handlers);
      }
    }
    // The response's first byte (status line and headers): a JSON answer's "first byte" mark.
    const headersAt = performance.now();
    const type = (res.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'text/event-stream' && res.ok) return this.readStream(request, res, handlers, signal);
    const text = await res.text();
    const message = parseMessage(text);
    if (message && !('method' in message)) {
      // The server's own answer (an error with its status, 404 for an unknown method, …).
      const restored = this.restored(request, message);
      arrival.at = headersAt;
      try {
        return handlers.response(restored, textOf(restored, message, text), res.ok ? { local: false } : { local: false, status: res.status });
      } finally {
        arrival.at = -1;
      }
    }
    if (res.status === 401) throw Object.assign(new Error(`server '${this.opts.serverId}' answered 401`), { status: 401, code: 401 });
    const reason = res.ok ? `answered '${request.message.method}' with ${type || 'no content type'} and no JSON-RPC response` : `answered HTTP ${res.status}`;
    const error = errorResponse(request.message.id, ErrorCode.InternalError, `server '${this.opts.serverId}' ${reason} (${displayUrl(this.url)})`, { server: this.opts.serverId, cause: 'http', status: res.status });
    handlers.response(error, JSON.stringify(error), { local: true });
  }

  /**
   * The server's answer as the client gets it: under the client's id (the body went with the
   * client's own, so only a server that changed it needs it put back) and checked. The same
   * object when nothing changed, so its text can go on as the server wrote it.
   */
  private restored(request: ModernCallRequest, message: JsonRpcMessage): JsonRpcResponse {
    const response = message as JsonRpcResponse;
    return this.checked(request, response.id === request.message.id ? response : ({ ...response, id: request.message.id } as JsonRpcResponse));
  }

  /**
   * A `tools/list` answer without the tools whose `x-mcp-header` annotations are invalid: over
   * Streamable HTTP the hub is the client, and a client must exclude them (a stdio client behind
   * the relay could not judge headers it never sends).
   */
  private checked(request: ModernCallRequest, response: JsonRpcResponse): JsonRpcResponse {
    if (request.message.method !== 'tools/list' || !('result' in response)) return response;
    const { result, dropped } = withoutInvalidHeaderTools(response.result);
    for (const { name, reason } of dropped) this.opts.logger.warn(`server '${this.opts.serverId}': tool '${name}' left out of tools/list: ${reason}`);
    return dropped.length === 0 ? response : ({ ...response, result } as JsonRpcResponse);
  }

  /**
   * One POST: on the connection's dispatcher when its fetch offers it (remote-request.ts: no
   * Request, Headers or web streams per call, a few hundred µs of the hub's CPU), else by fetch.
   */
  private async post(request: ModernCallRequest, body: string, signal: AbortSignal, handlers: ModernCallHandlers): Promise<CallAnswer> {
    const headers: Record<string, string> = {
      ...this.opts.headers,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    for (const [name, value] of Object.entries(request.headers)) if (FORWARDED.test(name)) headers[name] = value;
    const token = await this.opts.auth?.provider.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    const init = { method: 'POST', headers, body, signal };
    let res: CallAnswer | undefined;
    try {
      const dispatch = this.opts.fetch.request;
      res = dispatch ? fromDispatch(await dispatch(this.url, init)) : fromFetch(await this.opts.fetch(this.url, init));
      return res;
    } finally {
      handlers.event?.({ type: 'http', exchange: exchangeOf(this.url, init, res && { status: res.status, headers: res.headers() }, this.masked, [request.message.id]) });
    }
  }

  private async readStream(request: ModernCallRequest, res: CallAnswer, handlers: ModernCallHandlers, signal: AbortSignal): Promise<void> {
    let answered = false;
    const parser = new SseParser((event) => {
      if (answered || event.event !== 'message' || event.data === '') return;
      const message = parseMessage(event.data);
      if (!message) return this.opts.logger.warn(`server '${this.opts.serverId}': skipped an SSE event that is not a JSON-RPC message`);
      if ('method' in message) {
        if (!('id' in message)) handlers.notification(message as JsonRpcNotification, event.data);
        return;
      }
      answered = true;
      const restored = this.restored(request, message);
      handlers.response(restored, textOf(restored, message, event.data), { local: false });
      // Nothing after the answer is wanted; a server that keeps the stream open after it is let go
      // on the next turn (one that ends it, as servers do, has ended it by then: its connection stays).
      setImmediate(() => res.cancel());
    });
    const decoder = new TextChunks();
    try {
      await res.read((chunk) => {
        if (answered) return;
        // An event's "first byte" mark: the chunk that carried it (protocol/arrival.ts).
        arrival.at = performance.now();
        try {
          parser.push(decoder.decode(chunk));
        } finally {
          arrival.at = -1;
        }
      });
    } catch (err) {
      if (!answered && !signal.aborted) throw err;
    }
    if (answered || signal.aborted) return;
    if (request.message.method === 'subscriptions/listen') return handlers.ended?.();
    const error = errorResponse(request.message.id, ErrorCode.InternalError, `server '${this.opts.serverId}' closed the response stream of '${request.message.method}' without answering it`, { server: this.opts.serverId, cause: 'stream_closed' });
    handlers.response(error, JSON.stringify(error), { local: true });
  }
}

/**
 * The text an answer goes on with: the server's own when the hub changed nothing in it and it can
 * be one SSE `data:` line (no line breaks) whose depth the hub's walkers take; else written again.
 */
function textOf(restored: JsonRpcResponse, received: JsonRpcMessage, text: string): string {
  if (restored === received && !text.includes('\n') && !text.includes('\r') && !exceedsDepth(received, text.length)) return text;
  return stringifyOrUndefined(restored) ?? text;
}

function parseMessage(text: string): JsonRpcMessage | undefined {
  try {
    // A large answer is routed on a skim, its result parsed on first read (lazy-answer.ts).
    const value = (lazyAnswer(text) ?? JSON.parse(text)) as unknown;
    return classify(value) ? (value as JsonRpcMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** A call's HTTP answer, from the dispatcher (remote-request.ts) or from fetch: what this file reads of it. */
interface CallAnswer {
  status: number;
  ok: boolean;
  header(name: string): string | undefined;
  /** Every header, for the exchange record (built only when an observer listens). */
  headers(): Headers | Record<string, string | string[]>;
  text(): Promise<string>;
  /** Hands each body chunk to `onChunk` as it arrives; settles at the body's end. */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /** Cuts a body still arriving. */
  cancel(): void;
  /** Reads no more of it (a small rest is read away so the connection can serve again). */
  discard(): Promise<void>;
  /** Its status and headers as a fetch Response (what the SDK's auth helpers read); the body stays this answer's. */
  headersOnly(): Response;
}

function fromDispatch(res: RemoteResponse): CallAnswer {
  return {
    status: res.statusCode,
    ok: res.statusCode >= 200 && res.statusCode <= 299,
    header: (name) => res.header(name),
    headers: () => res.headers(),
    text: () => res.text(),
    read: (onChunk) => res.read(onChunk),
    cancel: () => res.cancel(),
    discard: () => res.dump(),
    headersOnly: () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers())) for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      return new Response(null, { status: res.statusCode, headers });
    },
  };
}

function fromFetch(res: Response): CallAnswer {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    status: res.status,
    ok: res.ok,
    header: (name) => res.headers.get(name) ?? undefined,
    headers: () => res.headers,
    text: () => res.text(),
    read: async (onChunk) => {
      if (!res.body) return;
      reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        onChunk(value);
      }
    },
    cancel: () => void (reader ?? res.body)?.cancel().catch(() => undefined),
    discard: async () => {
      await res.body?.cancel().catch(() => undefined);
    },
    headersOnly: () => res,
  };
}
