/**
 * A Streamable HTTP link's requests, POSTed by the hub itself (issue 27): the hub's client for
 * remote servers should add no more per call than its stdio path does. The SDK's client
 * transport goes through fetch (a Request, Headers and web streams per call), rebuilds the
 * headers, combines abort signals, pipes the answer through two more web streams (text decoder,
 * event-source parser) and validates every message with zod; the hub then serialized each
 * message again to forward it. Measured: about 1 ms of the hub's CPU per call more than its
 * stdio path. Here a request costs one POST by undici's request API on a kept-alive dispatcher
 * (remote-fetch.ts: the same proxy rules; `fetch` when the connection's fetch offers nothing
 * else), with the client's own text as the body, headers from one object per link, the answer
 * read from the body as it arrives (protocol/sse-parser.ts), each message parsed once and
 * forwarded with the server's own text (a server request in the middle of a call, its progress,
 * then its answer, each as soon as its event is complete).
 *
 * Only the plain case is handled here; everything else stays the SDK transport's, unchanged:
 * `initialize` (which sets the session id), notifications and responses (the standalone GET opens
 * after `notifications/initialized`), requests carrying a 2026-07-28 envelope, a POST answered
 * 401, 403 or a redirect (sent again through the transport, which refreshes the token, raises
 * insufficient scope, follows same-origin redirects: the server took none of these), and a
 * response stream that ends unanswered after an event id (resumed by the transport with
 * Last-Event-ID, as it resumes its own streams). Other HTTP errors are thrown as the transport
 * throws them (an `SdkHttpError` with the status and the body), so remote-upstream.ts decides the
 * same way (fall back, re-initialize, the server's own error).
 */
import { performance } from 'node:perf_hooks';
import { arrival } from '../protocol/arrival.js';
import { STATUS_CODES } from 'node:http';
import {
  PROTOCOL_VERSION_META_KEY,
  SdkErrorCode,
  SdkHttpError,
  type JSONRPCMessage,
  type StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { Logger } from '../log/logger.js';
import { exceedsDepth } from '../protocol/json-depth.js';
import { classify, isRequest, type JsonRpcMessage } from '../protocol/json-rpc.js';
import { lazyAnswer } from '../protocol/lazy-answer.js';
import { SseParser } from '../protocol/sse-parser.js';
import { TextChunks } from '../protocol/text-chunks.js';
import type { RemoteFetch, RemoteRequestInit, RemoteResponse } from './remote-fetch.js';

/**
 * A POST on undici's dispatcher (remote-request.ts), as the connection offers it: `ids`, the
 * JSON-RPC ids the body carries, for the exchange record it reports.
 */
export type LinkRequest = (url: URL, init: RemoteRequestInit, ids?: Array<string | number>) => Promise<RemoteResponse>;

export interface PostOptions {
  url: URL;
  headers: Record<string, string>;
  fetch: RemoteFetch;
  /** POSTs on undici's dispatcher when given (no WHATWG objects per call); else by `fetch`. */
  request?: LinkRequest;
  /** The bearer token of the server's OAuth, when it has one. */
  token?: () => Promise<string | undefined>;
  logger: Logger;
}

export interface PostSendOptions {
  signal?: AbortSignal;
  onStreamEnd?: () => void;
  /** The message's text as the client wrote it: sent as it is. */
  raw?: string;
}

/** What the link gives a message: the parsed value and, when it can be forwarded as is, the server's text. */
export type PostReceiver = (message: JsonRpcMessage, raw: string | undefined) => void;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The transport's own resumption of a response stream (Last-Event-ID, its backoff, the server's `retry:`). */
interface Resumable {
  _scheduleReconnection?: (options: { resumptionToken: string; replayMessageId?: unknown; requestSignal?: AbortSignal; onRequestStreamEnd?: () => void }, attempt: number) => void;
}

/** Sent again through the SDK transport (see `forTransport`). */
class ViaTransport extends Error {}

export class RemotePost {
  /** Headers every POST carries (the configured ones, content type and accept), built once. */
  private readonly base: Record<string, string>;
  /** POSTs in flight: aborted when the link closes, as the transport aborts its own. */
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly opts: PostOptions,
    private readonly transport: StreamableHTTPClientTransport,
    private readonly receive: PostReceiver,
  ) {
    const base: Record<string, string> = {};
    let accept: string | undefined;
    for (const [name, value] of Object.entries(opts.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'accept') accept = value;
      else if (lower !== 'content-type') base[lower] = value;
    }
    const types = [...(accept?.split(',').map((s) => s.trim().toLowerCase()) ?? []), 'application/json', 'text/event-stream'];
    base['content-type'] = 'application/json';
    base.accept = [...new Set(types)].join(', ');
    this.base = base;
  }

  /** Whether this message is POSTed here (a request of the plain case) rather than by the transport. */
  static handles(message: JsonRpcMessage): boolean {
    if (!('method' in message) || !('id' in message) || message.method === 'initialize') return false;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    return meta === undefined || typeof meta !== 'object' || meta === null || !(PROTOCOL_VERSION_META_KEY in meta);
  }

  /** Resolves once the server took the POST (its answer then arrives through `receive`); throws as the transport would. */
  async send(message: JsonRpcMessage, options: PostSendOptions): Promise<void> {
    try {
      await this.post(message, options);
    } catch (err) {
      if (!(err instanceof ViaTransport)) throw err;
      await this.transport.send(message as JSONRPCMessage, {
        ...(options.signal ? { requestSignal: options.signal } : {}),
        ...(options.onStreamEnd ? { onRequestStreamEnd: options.onStreamEnd } : {}),
      });
    }
  }

  /** The link closed: POSTs in flight are aborted. */
  close(): void {
    this.closed = true;
    for (const abort of this.inFlight) abort.abort();
    this.inFlight.clear();
  }

  private async post(message: JsonRpcMessage, options: PostSendOptions): Promise<void> {
    const headers = { ...this.base };
    const token = await this.opts.token?.();
    if (token) headers.authorization = `Bearer ${token}`;
    const session = this.transport.sessionId;
    if (session) headers['mcp-session-id'] = session;
    const version = this.transport.protocolVersion;
    if (version) headers['mcp-protocol-version'] = version;
    const abort = new AbortController();
    const requestSignal = options.signal;
    const onAbort = (): void => abort.abort(requestSignal?.reason);
    if (requestSignal?.aborted || this.closed) abort.abort(requestSignal?.reason);
    else requestSignal?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.add(abort);
    const done = (): void => {
      this.inFlight.delete(abort);
      requestSignal?.removeEventListener('abort', onAbort);
    };
    const init = { method: 'POST', headers, body: options.raw ?? JSON.stringify(message), signal: abort.signal };
    let res: PostAnswer;
    try {
      res = this.opts.request
        ? fromRequest(await this.opts.request(this.opts.url, init, isRequest(message) ? [message.id] : undefined))
        : fromFetch(await this.opts.fetch(this.opts.url, { ...init, redirect: 'manual' }));
    } catch (err) {
      done();
      throw err;
    }
    // The response's first byte (its status line and headers): a JSON answer's "first byte" mark.
    const headersAt = performance.now();
    if (res.status < 200 || res.status > 299) {
      done();
      if (this.forTransport(res)) {
        await res.discard();
        throw new ViaTransport();
      }
      const text = await res.text().catch(() => null);
      throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text ?? res.statusText}`, { status: res.status, statusText: res.statusText, text });
    }
    if (res.status === 202) {
      done();
      await res.discard();
      return;
    }
    const type = (res.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'text/event-stream') {
      // Not awaited: the POST is taken; its messages are forwarded as they arrive.
      void this.readStream(message, res, options, abort.signal).finally(done);
      return;
    }
    try {
      if (type !== 'application/json') {
        await res.discard();
        throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Unexpected content type: ${type || 'none'}`, { status: res.status, statusText: res.statusText, text: null });
      }
      const text = await res.text();
      const value = lazyAnswer(text) ?? (JSON.parse(text) as unknown);
      arrival.at = headersAt;
      if (Array.isArray(value)) for (const item of value) this.deliver(item, undefined);
      else this.deliver(value, text);
    } finally {
      arrival.at = -1;
      done();
    }
  }

  /**
   * A refusal the transport acts on (the server took nothing): a 401 with OAuth (refresh, then
   * again), a 403 insufficient_scope (step-up), a redirect (followed within the origin).
   */
  private forTransport(res: PostAnswer): boolean {
    if (REDIRECTS.has(res.status) || res.opaqueRedirect) return true;
    if (res.status === 401) return this.opts.token !== undefined;
    return res.status === 403 && /insufficient_scope/i.test(res.header('www-authenticate') ?? '');
  }

  private async readStream(message: JsonRpcMessage, res: PostAnswer, options: PostSendOptions, signal: AbortSignal): Promise<void> {
    let answered = false;
    const parser = new SseParser((event) => {
      if (event.event !== 'message' || event.data === '') return;
      let value: unknown;
      try {
        // A large answer is routed on a skim, its result parsed on first read (lazy-answer.ts).
        value = lazyAnswer(event.data) ?? JSON.parse(event.data);
      } catch {
        this.opts.logger.debug('transport: skipped an SSE event that is not JSON');
        return;
      }
      if (classify(value) === 'response') answered = true;
      this.deliver(value, event.data);
    });
    const decoder = new TextChunks();
    try {
      await res.read((chunk) => {
        // An event's "first byte" mark: the chunk that carried it (protocol/arrival.ts).
        arrival.at = performance.now();
        try {
          parser.push(decoder.decode(chunk));
        } finally {
          arrival.at = -1;
        }
      });
    } catch (err) {
      if (signal.aborted) return;
      this.opts.logger.debug(`transport: SSE stream disconnected: ${(err as Error).message}`);
    }
    if (signal.aborted) return;
    const lastEventId = parser.lastEventId;
    const resume = (this.transport as unknown as Resumable)._scheduleReconnection;
    if (!answered && lastEventId !== undefined && typeof resume === 'function') {
      // Resumed the way the transport resumes its own streams (P12).
      resume.call(this.transport, {
        resumptionToken: lastEventId,
        ...('id' in message ? { replayMessageId: message.id } : {}),
        ...(options.signal ? { requestSignal: options.signal } : {}),
        ...(options.onStreamEnd ? { onRequestStreamEnd: options.onStreamEnd } : {}),
      }, 0);
      return;
    }
    options.onStreamEnd?.();
  }

  /** One message of the server's: checked to be JSON-RPC, forwarded with its own text where that can be. */
  private deliver(value: unknown, raw: string | undefined): void {
    if (!classify(value)) {
      this.opts.logger.debug('transport: skipped a message that is not JSON-RPC');
      return;
    }
    // The text goes on as one SSE `data:` line and to observers as is: not when it spans lines
    // (pretty-printed JSON) or nests too deep to walk (json-depth.ts); then it is serialized again.
    const forwardable = raw !== undefined && !raw.includes('\n') && !raw.includes('\r') && !exceedsDepth(value, raw.length);
    this.receive(value as JsonRpcMessage, forwardable ? raw : undefined);
  }
}

/** A POST's answer, from fetch or from undici's dispatcher: what this file reads of it. */
interface PostAnswer {
  status: number;
  statusText: string;
  /** fetch with `redirect: 'manual'` may hide a redirect's status (a browser-like runtime). */
  opaqueRedirect: boolean;
  header(name: string): string | undefined;
  text(): Promise<string>;
  /** Hands each body chunk to `onChunk` as it arrives; settles at the body's end. */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  /** Reads no more of it (the connection goes back to the pool when it can). */
  discard(): Promise<void>;
}

function fromFetch(res: Response): PostAnswer {
  return {
    status: res.status,
    statusText: res.statusText,
    opaqueRedirect: res.type === 'opaqueredirect',
    header: (name) => res.headers.get(name) ?? undefined,
    text: () => res.text(),
    read: async (onChunk) => {
      if (!res.body) return;
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          onChunk(value);
        }
      } finally {
        reader.releaseLock();
      }
    },
    discard: async () => {
      await res.body?.cancel().catch(() => undefined);
    },
  };
}

function fromRequest(res: RemoteResponse): PostAnswer {
  return {
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    opaqueRedirect: false,
    header: (name) => res.header(name),
    text: () => res.text(),
    read: (onChunk) => res.read(onChunk),
    discard: () => res.dump(),
  };
}
