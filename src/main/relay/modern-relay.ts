/**
 * The relay's modern-era side (MCP 2026-07-28; PROTOCOL Q1–Q5, Q10, docs/relay.md). A stdio line
 * whose `_meta` names a modern revision is its own POST: no session id, the request headers the
 * era asks for (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-*` mirrors of the
 * tool's `x-mcp-header` parameters, learned from the `tools/list` answers that pass back through
 * here), answered in JSON or SSE. Requests run side by side: one slow `tools/call` holds nothing
 * up. A client's `notifications/cancelled` for one of them closes its response stream, which is
 * the HTTP side's cancellation; a `subscriptions/listen` stream stays open until then.
 *
 * A request never waits forever: a refusal, a stream that ends without the answer, a hub that
 * cannot be reached — each gives the client a JSON-RPC error with the request's id. A request is
 * sent again only when nothing at all came back (the hub was not there, or went away before it
 * answered), after the hub has been looked up again (or started).
 */
import { ErrorCode } from '../../shared/protocol.js';
import { errorResponse, idKey, modernRequestHeaders, SseParser, ToolHeaderDeclarations, type JsonRpcId, type Logger } from '../core/index.js';
import { discard, httpCall, HttpCallError, readText, type HubResponse } from './hub-http.js';
import { parseMessage } from './message-scan.js';
import type { ModernLine } from './outgoing.js';
import type { FlowControl } from './output-flow.js';
import type { EndpointSource, HubEndpoint } from './relay-session.js';
import { delay, deliverJsonText, isEventStream, pump, responseId, type MessageHandler } from './response-reader.js';

export interface ModernRelayOptions {
  endpoint: EndpointSource;
  /** Writes one JSON-RPC message (JSON text without newlines) to the stdio client. */
  deliver(json: string): void;
  logger: Logger;
  /** The client's side is full: response streams are not read until it drains. */
  flow?: FlowControl;
}

interface Call {
  readonly id: JsonRpcId;
  readonly key: string;
  readonly line: ModernLine;
  readonly raw: string;
  readonly listen: boolean;
  readonly abort: AbortController;
  /** The client cancelled it, or the relay is closing: nothing more is delivered for it. */
  stopped: boolean;
  /** The response being read, cut when the call is cancelled. */
  res: HubResponse | undefined;
  done: Promise<void>;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
/** Attempts per request: a restarting hub and a rotated token each cost one. */
const MAX_ATTEMPTS = 4;
/** Pages of `tools/list` read to refresh the `x-mcp-header` declarations after a HeaderMismatch. */
const MAX_TOOL_PAGES = 20;
/** Characters a header value may carry as is (RFC 9110 field values, ASCII only). */
const HEADER_SAFE = /^[\x20-\x7e\t]*$/;
/** An HTTP field name (RFC 9110 §5.1 `1*tchar`). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export class ModernRelay {
  private readonly calls = new Set<Call>();
  /** What the server's tools declare with `x-mcp-header` (from `tools/list` answers). */
  private readonly tools = new ToolHeaderDeclarations();
  private internalIds = 0;
  private closed = false;

  constructor(private readonly options: ModernRelayOptions) {}

  /** Sends one modern line; resolves once its answer is delivered, or it was cancelled. */
  send(line: ModernLine, raw: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (line.id === undefined) return this.notify(line, raw);
    const call: Call = {
      id: line.id,
      key: idKey(line.id),
      line,
      raw,
      listen: line.method === 'subscriptions/listen',
      abort: new AbortController(),
      stopped: false,
      res: undefined,
      done: Promise.resolve(),
    };
    this.calls.add(call);
    call.done = this.run(call)
      .catch((err: Error) => {
        // A bug, not a hub problem; still, the client gets an answer.
        this.options.logger.error(`relaying a modern request failed: ${err.stack ?? err.message}`);
        this.fail(call, ErrorCode.InternalError, `the relay failed: ${err.message}`);
      })
      .finally(() => this.calls.delete(call));
    return call.done;
  }

  /**
   * The client cancelled request `id` (`notifications/cancelled` on stdio): its POST is aborted,
   * and closing the response stream is the cancellation the hub acts on (2026-07-28
   * basic/patterns/cancellation). Nothing more is delivered for it. False when no such request
   * is in flight.
   */
  cancel(id: JsonRpcId, reason?: string): boolean {
    const key = idKey(id);
    let found = false;
    for (const call of this.calls) {
      if (call.key !== key) continue;
      found = true;
      this.options.logger.debug(`cancelling ${call.line.method} (id ${JSON.stringify(id)})${reason ? `: ${reason}` : ''}`);
      this.stop(call);
    }
    return found;
  }

  /** Waits until every request in flight is answered; open subscription streams are not waited for. */
  async settled(): Promise<void> {
    for (;;) {
      const waiting = [...this.calls].filter((c) => !c.listen).map((c) => c.done);
      if (waiting.length === 0) return;
      await Promise.all(waiting);
    }
  }

  /** Cuts every request and subscription stream; nothing more is delivered. */
  close(): void {
    this.closed = true;
    for (const call of this.calls) this.stop(call);
  }

  private stop(call: Call): void {
    call.stopped = true;
    call.abort.abort();
    call.res?.destroy();
  }

  private async run(call: Call): Promise<void> {
    if (!HEADER_SAFE.test(call.line.method)) {
      // The method must ride in the Mcp-Method header, which has no encoding for other characters.
      return this.fail(call, ErrorCode.InvalidRequest, `Invalid Request: the method name ${JSON.stringify(call.line.method)} cannot be sent in the Mcp-Method header (it has characters outside printable ASCII)`);
    }
    let lastProblem = '';
    let refreshedTools = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let endpoint: HubEndpoint;
      try {
        endpoint = await this.options.endpoint.get();
      } catch (err) {
        return this.fail(call, ErrorCode.InternalError, (err as Error).message);
      }
      if (call.stopped) return;
      let res: HubResponse;
      try {
        res = await httpCall({ method: 'POST', url: endpoint.url, headers: this.headers(endpoint, call.line), body: call.raw, signal: call.abort.signal });
      } catch (err) {
        if (call.stopped) return;
        lastProblem = (err as Error).message;
        if (err instanceof HttpCallError && err.unreachable) {
          // Nothing came back, so sending it again cannot do it twice over: find the hub again
          // (or start it) and retry.
          this.options.logger.info(`the hub is not answering (${err.code}); looking for it again`);
          this.options.endpoint.invalidate(endpoint);
          await delay(attempt * 100, call.abort.signal);
          continue;
        }
        break;
      }
      call.res = res;
      if (call.stopped) return void res.destroy();
      const status = res.statusCode ?? 0;
      if (status === 401 && attempt === 1) {
        // The token may have been rotated since it was read.
        discard(res);
        this.options.endpoint.invalidate(endpoint);
        continue;
      }
      if (status >= 400) {
        const body = await readText(res).catch(() => '');
        if (call.stopped) return;
        const error = hubError(status, body);
        if (error.code === ErrorCode.HeaderMismatch && call.line.method === 'tools/call' && !refreshedTools) {
          // The spec's advice to a client whose Mcp-Param-* headers were refused (2026-07-28
          // streamable-http, "Client Behavior"): list the tools again, then retry the call.
          refreshedTools = true;
          if (await this.refreshTools(call, endpoint)) {
            attempt--;
            continue;
          }
        }
        // A protocol answer (an unknown method, an unsupported version, a bad envelope) is the
        // client's to handle: logged quietly. The relay's own troubles below are warnings.
        return this.fail(call, error.code, error.message, error.data, 'debug');
      }
      return this.read(call, res);
    }
    this.fail(call, ErrorCode.InternalError, `could not reach the Patchbay hub: ${lastProblem}`);
  }

  /** Delivers what the hub answered a request with (JSON, or notifications then the response on SSE). */
  private async read(call: Call, res: HubResponse): Promise<void> {
    let answered = false;
    const complete = await this.readMessages(res, call, (raw, message) => {
      if (call.stopped) return; // cancelled: the client expects nothing more for it
      if (sameId(responseId(message), call.key)) {
        answered = true;
        // The one answer the relay reads: tools/list's, for the tools' x-mcp-header declarations.
        if (call.line.method === 'tools/list') this.tools.learn((parseMessage(raw) as { result?: unknown } | undefined)?.result);
      }
      this.options.deliver(raw);
    }, () => answered);
    if (answered || call.stopped) return;
    if (call.listen) {
      // The subscription is over without the server's closing response: the client re-subscribes
      // if it wants to (2026-07-28 basic/patterns/subscriptions: the server holds no state).
      const why = complete ? 'the hub ended the subscription stream without a response' : 'the subscription stream from the Patchbay hub broke off';
      return this.fail(call, ErrorCode.InternalError, `${why}; send subscriptions/listen again to resubscribe`);
    }
    this.fail(call, ErrorCode.InternalError, complete ? 'the hub closed the stream before the response arrived' : 'the stream from the Patchbay hub broke off before the response arrived');
  }

  /**
   * Reads a 2xx answer: a JSON body (possibly empty), or an SSE stream until it ends or `done()`
   * says the answer is in. Resolves with whether the body arrived whole (false: it broke off).
   */
  private async readMessages(res: HubResponse, call: Call, onMessage: MessageHandler, done: () => boolean): Promise<boolean> {
    const { logger, flow } = this.options;
    if (!isEventStream(res)) {
      const text = await readText(res, Number.MAX_SAFE_INTEGER).catch(() => undefined);
      if (text === undefined) return false;
      if (text.trim() !== '') deliverJsonText(text, onMessage, logger);
      return true;
    }
    const parser = new SseParser((event) => {
      // Comments (keep-alives) never reach here; an event without data carries nothing.
      if (event.event !== 'message' || event.data === '') return;
      deliverJsonText(event.data, onMessage, logger);
    });
    await pump(
      res,
      parser,
      {
        logger,
        ...(flow ? { flow } : {}),
        track: (r) => {
          call.res = r;
          return () => undefined;
        },
      },
      done,
    );
    return res.complete;
  }

  /** A modern notification: the era defines none over HTTP, but the hub takes one (202). Fire and forget. */
  private async notify(line: ModernLine, raw: string): Promise<void> {
    if (!HEADER_SAFE.test(line.method)) return this.options.logger.warn(`skipped a notification whose method cannot be sent in the Mcp-Method header: ${JSON.stringify(line.method)}`);
    try {
      const endpoint = await this.options.endpoint.get();
      const res = await httpCall({ method: 'POST', url: endpoint.url, headers: this.headers(endpoint, line), body: raw });
      const status = res.statusCode ?? 0;
      if (status >= 400) this.options.logger.warn(`the hub refused a notification: ${hubError(status, await readText(res).catch(() => '')).message}`);
      else discard(res);
    } catch (err) {
      this.options.logger.warn(`could not send a notification to the hub: ${(err as Error).message}`);
    }
  }

  /**
   * Lists the tools again (every page) to learn their current `x-mcp-header` declarations, with
   * the call's own envelope. True when the list was read.
   */
  private async refreshTools(call: Call, endpoint: HubEndpoint): Promise<boolean> {
    const meta = (call.line.params as { _meta?: Record<string, unknown> })._meta ?? {};
    const envelope: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(meta)) if (k.startsWith('io.modelcontextprotocol/')) envelope[k] = v;
    let cursor: unknown;
    for (let page = 0; page < MAX_TOOL_PAGES && !call.stopped; page++) {
      const id = `patchbay-relay-tools-${++this.internalIds}`;
      const params: Record<string, unknown> = { _meta: envelope };
      if (typeof cursor === 'string') params.cursor = cursor;
      const line: ModernLine = { version: call.line.version, method: 'tools/list', params, id };
      let answer: { result?: { nextCursor?: unknown } } | undefined;
      try {
        const res = await httpCall({ method: 'POST', url: endpoint.url, headers: this.headers(endpoint, line), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }), signal: call.abort.signal });
        if ((res.statusCode ?? 0) >= 400) {
          discard(res);
          return false;
        }
        // Its notifications (if any) are the relay's own: the client did not ask for them.
        await this.readMessages(res, call, (raw, message) => {
          if (responseId(message) === id) answer = parseMessage(raw) as typeof answer;
        }, () => answer !== undefined);
      } catch (err) {
        this.options.logger.debug(`could not list the tools again: ${(err as Error).message}`);
        return false;
      }
      if (!answer?.result) return false;
      this.tools.learn(answer.result);
      cursor = answer.result.nextCursor;
      if (typeof cursor !== 'string') return true;
    }
    return false;
  }

  private headers(endpoint: HubEndpoint, line: ModernLine): Record<string, string> {
    const h: Record<string, string> = { Accept: ACCEPT_BOTH, 'Content-Type': 'application/json' };
    if (endpoint.token !== undefined) h.Authorization = `Bearer ${endpoint.token}`;
    // A claim that is not a version string gets no version header: the hub then answers with
    // the envelope's problem rather than a header mismatch.
    if (line.version === undefined || !HEADER_SAFE.test(line.version)) {
      h['Mcp-Method'] = line.method;
      return h;
    }
    for (const [name, value] of Object.entries(modernRequestHeaders({ method: line.method, params: line.params }, line.version, this.tools))) {
      // An `x-mcp-header` that is no header name makes the tool invalid (2026-07-28
      // streamable-http, "Schema Extension"): its mirror is left out rather than sent broken.
      if (HEADER_NAME.test(name)) h[name] = value;
      else this.options.logger.warn(`left out the header ${JSON.stringify(name)}: the tool's x-mcp-header is not a valid header name`);
    }
    return h;
  }

  private fail(call: Call, code: number, message: string, data?: unknown, level: 'debug' | 'warn' = 'warn'): void {
    if (call.stopped || this.closed) return;
    this.options.logger[level](`${call.line.method} (id ${JSON.stringify(call.id)}): ${message}`);
    this.options.deliver(JSON.stringify(errorResponse(call.id, code, message, data)));
  }
}

function sameId(id: JsonRpcId | undefined, key: string): boolean {
  return id !== undefined && idKey(id) === key;
}

/** The JSON-RPC error the hub sent (code, message, data), or one made from the HTTP status. */
export function hubError(status: number, body: string): { code: number; message: string; data?: unknown } {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = parsed.error;
    if (typeof error?.code === 'number' && typeof error.message === 'string') {
      return error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data };
    }
  } catch {
    // not JSON: described below
  }
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return { code: ErrorCode.InternalError, message: `the hub answered HTTP ${status}${text ? `: ${text}` : ''}` };
}

