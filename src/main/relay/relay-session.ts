/**
 * The relay's Streamable HTTP client session with the hub (PROTOCOL A–D, client side). Every
 * line from the stdio client becomes its own POST (P2), sent in order; the session id and the
 * negotiated protocol version ride on every later request (P22); a 404 for the session, or a hub
 * that went away and came back, re-creates the session by replaying the client's `initialize`
 * (P17) and sends the message again. A request the hub cannot answer gets a JSON-RPC error, so
 * the client never waits forever.
 *
 * That is the legacy era. A line of the modern era (its `_meta` names 2026-07-28 or later) has no
 * session and waits for nothing: it goes to modern-relay.ts, per message, beside this queue.
 *
 * `relay --url` has the hub in its own process: its legacy lines go through the hub's stdio door
 * (`door`), which does all of the above in process — no HTTP, no session id, nothing to replay
 * here — and writes the answers itself. Its modern lines still go to the `/mcp` door.
 */
import { ErrorCode, HEADER_PROTOCOL_VERSION, HEADER_SESSION_ID } from '../../shared/protocol.js';
import { errorResponse, type JsonRpcId, type JsonRpcRequest } from '../core/index.js';
import type { Logger, StdioDoor } from '../core/index.js';
import { discard, headerValue, httpCall, HttpCallError, readText, type HubResponse } from './hub-http.js';
import type { Outgoing } from './outgoing.js';
import type { FlowControl } from './output-flow.js';
import { delay, readPostResponse, responseId, type ReaderContext } from './response-reader.js';
import { runGetStream } from './get-stream.js';
import { hubError, ModernRelay } from './modern-relay.js';
import { parseMessage, type ScannedMessage } from './message-scan.js';

export interface HubEndpoint {
  /** The server's MCP endpoint, `http://127.0.0.1:<port>/mcp/<server>`. */
  url: string;
  /** The hub token, or undefined when the hub runs without auth. */
  token: string | undefined;
}

export interface EndpointSource {
  /** The endpoint to use now; may find (or start) the hub first. */
  get(): Promise<HubEndpoint>;
  /**
   * The endpoint stopped answering, or refused the token: look again on the next get(). With
   * `stale`, only when that is still the endpoint get() gives (a sibling may have looked again).
   */
  invalidate(stale?: HubEndpoint): void;
}

export interface RelaySessionOptions {
  endpoint: EndpointSource;
  /** Writes one JSON-RPC message (JSON text without newlines) to the stdio client. */
  deliver(json: string): void;
  logger: Logger;
  /** Delay before resuming a stream when the server gave no `retry:` (default 1000 ms). */
  defaultRetryMs?: number;
  /** The client's side is full: the hub's streams are not read until it drains. */
  flow?: FlowControl;
  /** The hub's stdio door in this process (`relay --url`): legacy lines go there instead of over HTTP. */
  door?: StdioDoor;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
/** Attempts per message: a lost session and a restarting hub each cost one. */
const MAX_ATTEMPTS = 4;

export class RelaySession {
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The client's `initialize`, replayed to re-create a lost session. */
  private initRequest: JsonRpcRequest | undefined;
  private clientInitialized = false;
  /** Bumped whenever the session changes, so streams of an old session stop resuming. */
  private generation = 0;
  private queue: Promise<void> = Promise.resolve();
  private recovering: Promise<void> | undefined;
  private replays = 0;
  private getStreamGeneration = -1;
  private closed = false;
  private readonly abort = new AbortController();
  private readonly open = new Set<HubResponse>();
  /** Answers still being read. */
  private readonly reads = new Set<Promise<void>>();
  private readonly defaultRetryMs: number;
  /** The endpoint the session was last created on. */
  private lastEndpoint: HubEndpoint | undefined;
  /** Modern-era lines: sessionless, side by side. */
  private readonly modern: ModernRelay;

  constructor(private readonly options: RelaySessionOptions) {
    this.defaultRetryMs = options.defaultRetryMs ?? 1000;
    this.modern = new ModernRelay({
      endpoint: options.endpoint,
      logger: options.logger,
      ...(options.flow ? { flow: options.flow } : {}),
      deliver: (json) => {
        if (!this.closed) options.deliver(json);
      },
    });
  }

  /**
   * Takes one client line. Legacy lines go out in order, each waiting only for the previous one's
   * headers; a modern line goes out at once on its own. The promise settles when the line is sent
   * (legacy) or answered (modern).
   */
  send(out: Outgoing): Promise<void> {
    // A cancellation of a modern request in flight is done by closing its stream, not sent on.
    if (out.cancels !== undefined && this.modern.cancel(out.cancels, cancelReason(out.raw))) return Promise.resolve();
    if (out.modern) {
      if (out.modern.method === 'notifications/cancelled') {
        // Already answered (or never sent): nothing to cancel, as the spec has servers do with it.
        this.options.logger.debug(`ignored a cancellation of request ${JSON.stringify(out.cancels)}: it is not in flight`);
        return Promise.resolve();
      }
      return this.modern.send(out.modern, out.raw);
    }
    if (this.options.door) return this.options.door.send(out.raw);
    const next = this.queue.then(() => {
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const whole = this.dispatch(out, release)
        .catch((err: Error) => {
          // A bug, not a hub problem; still, the client gets an answer and the relay goes on.
          this.options.logger.error(`relaying a message failed: ${err.stack ?? err.message}`);
          this.fail(out.requestIds, ErrorCode.InternalError, `the relay failed: ${err.message}`);
        })
        .finally(() => this.reads.delete(whole));
      this.reads.add(whole);
      return Promise.race([released, whole]);
    });
    this.queue = next;
    return next;
  }

  /** Waits (at most `timeoutMs`) until every queued line is sent and every answer read. */
  async drain(timeoutMs: number): Promise<void> {
    const all = (async () => {
      await this.queue;
      while (this.reads.size > 0) await Promise.all([...this.reads]);
      // Open subscription streams are not waited for: they end only when cancelled.
      await this.modern.settled();
    })();
    // The stdio door keeps its own count of answers still on their way.
    const door = this.options.door?.drain(timeoutMs);
    await Promise.race([door ? Promise.all([all, door]) : all, delay(timeoutMs, this.abort.signal)]);
  }

  /**
   * Ends the session with the hub (DELETE, P16/P30) and cuts every open stream. `deleteSession:
   * false` skips the DELETE, for a hub that is about to close anyway (`relay --url`'s own).
   */
  async close(options: { deleteSession?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.modern.close();
    await this.options.door?.close();
    for (const res of this.open) res.destroy();
    // Where the session lives: never look the hub up again (that could start one) just to end it.
    const endpoint = this.lastEndpoint;
    if (this.sessionId === undefined || endpoint === undefined || options.deleteSession === false) return;
    try {
      const res = await httpCall({ method: 'DELETE', url: endpoint.url, headers: this.headers(endpoint, ACCEPT_BOTH), timeoutMs: 2000 });
      discard(res);
    } catch (err) {
      this.options.logger.debug(`could not delete the session: ${(err as Error).message}`);
    }
  }

  /**
   * Sends one legacy line and handles its answer. `release` lets the next line go: for a request
   * (initialize aside) once its POST is written, since a hub may hold its response headers until
   * the answer (a 2025 POST answered with `application/json`) and a slow call must not hold up
   * the lines after it (a cancellation of it above all); for the rest once the headers are in.
   */
  private async dispatch(out: Outgoing, release: () => void): Promise<void> {
    if (this.closed) return;
    if (out.initialize) {
      // A fresh initialize starts a fresh session; the old one (if any) is let go.
      this.initRequest = out.initialize;
      this.clientInitialized = false;
      this.sessionId = undefined;
      this.protocolVersion = undefined;
      this.generation++;
    }
    let lastProblem = '';
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.closed; attempt++) {
      let endpoint: HubEndpoint;
      try {
        endpoint = await this.options.endpoint.get();
      } catch (err) {
        this.fail(out.requestIds, ErrorCode.InternalError, (err as Error).message);
        return;
      }
      const sentSession = this.sessionId;
      let res: HubResponse;
      try {
        const early = out.requestIds.length > 0 && !out.initialize;
        res = await httpCall({ method: 'POST', url: endpoint.url, headers: this.headers(endpoint, ACCEPT_BOTH, true), body: out.raw, signal: this.abort.signal, ...(early ? { onWritten: release } : {}) });
      } catch (err) {
        if (this.closed) return;
        lastProblem = (err as Error).message;
        if (err instanceof HttpCallError && err.unreachable) {
          // The hub went away (restart, crash): find it again (or start it) and retry.
          this.options.logger.info(`the hub is not answering (${err.code}); looking for it again`);
          this.options.endpoint.invalidate(endpoint);
          await delay(attempt * 100, this.abort.signal);
          continue;
        }
        break;
      }
      const status = res.statusCode ?? 0;
      if (status === 404 && sentSession !== undefined && !out.initialize) {
        const body = await readText(res).catch(() => '');
        lastProblem = `the hub no longer knows this session (${summary(body)})`;
        try {
          await this.recover(sentSession);
        } catch (err) {
          this.fail(out.requestIds, ErrorCode.InternalError, `the session ended and could not be re-created: ${(err as Error).message}`);
          return;
        }
        continue;
      }
      if (status === 401 && attempt === 1) {
        // The token may have been rotated since it was read.
        discard(res);
        this.options.endpoint.invalidate(endpoint);
        continue;
      }
      await this.handleAnswer(out, res, endpoint);
      return;
    }
    this.fail(out.requestIds, ErrorCode.InternalError, `could not reach the Patchbay hub: ${lastProblem}`);
  }

  private async handleAnswer(out: Outgoing, res: HubResponse, endpoint: HubEndpoint): Promise<void> {
    const status = res.statusCode ?? 0;
    if (status >= 400) {
      const body = await readText(res).catch(() => '');
      const error = hubError(status, body);
      if (out.requestIds.length === 0) this.options.logger.warn(`the hub refused a notification: ${error.message}`);
      this.fail(out.requestIds, error.code, error.message);
      return;
    }
    if (out.initialize) {
      this.sessionId = headerValue(res, 'mcp-session-id');
      this.lastEndpoint = endpoint;
      this.generation++;
    }
    if (out.requestIds.length === 0) {
      // 202 (or a body a notification does not call for): nothing to deliver.
      discard(res);
      if (out.initialized && status < 300) {
        this.clientInitialized = true;
        this.startGetStream();
      }
      return;
    }
    const reading = readPostResponse(res, out.requestIds, this.readerContext(endpoint, this.generation)).then(
      (missing) => this.fail(missing, ErrorCode.InternalError, 'the hub closed the stream before the response arrived'),
      (err: Error) => this.fail(out.requestIds, ErrorCode.InternalError, `reading the hub's answer failed: ${err.message}`),
    );
    this.reads.add(reading);
    void reading.finally(() => this.reads.delete(reading));
    // The next line must carry the session id and version that initialize's answer brings.
    if (out.initialize) await reading;
  }

  /** Re-creates a lost session by replaying the client's initialize (P17); one at a time. */
  private recover(lostSessionId: string): Promise<void> {
    if (this.sessionId !== lostSessionId) return this.recovering ?? Promise.resolve();
    this.recovering ??= this.replayInitialize().finally(() => {
      this.recovering = undefined;
    });
    return this.recovering;
  }

  private async replayInitialize(): Promise<void> {
    const init = this.initRequest;
    if (!init) throw new Error('the client never sent initialize');
    const endpoint = await this.options.endpoint.get();
    const id = `patchbay-relay-replay-${++this.replays}`;
    this.options.logger.info('re-creating the session with the hub (replaying initialize)');
    const res = await httpCall({
      method: 'POST',
      url: endpoint.url,
      // Sent like a first initialize: no session id, no version header.
      headers: this.headers(endpoint, ACCEPT_BOTH, true, false),
      body: JSON.stringify({ ...init, id }),
      signal: this.abort.signal,
    });
    if ((res.statusCode ?? 0) >= 400) {
      throw new Error(hubError(res.statusCode ?? 0, await readText(res).catch(() => '')).message);
    }
    const sessionId = headerValue(res, 'mcp-session-id');
    let answer: unknown;
    const generation = ++this.generation;
    const missing = await readPostResponse(res, [id], {
      ...this.readerContext(endpoint, generation),
      onMessage: (raw, message) => {
        if (responseId(message) === id) answer = parseMessage(raw);
      },
    });
    const result = (answer as { result?: { protocolVersion?: unknown } } | undefined)?.result;
    if (missing.length > 0 || !result) {
      const error = (answer as { error?: { message?: string } } | undefined)?.error;
      throw new Error(error?.message ?? 'no answer to the replayed initialize');
    }
    this.sessionId = sessionId;
    this.lastEndpoint = endpoint;
    if (typeof result.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
    if (this.clientInitialized) {
      const note = await httpCall({
        method: 'POST',
        url: endpoint.url,
        headers: this.headers(endpoint, ACCEPT_BOTH, true),
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        signal: this.abort.signal,
      });
      discard(note);
      this.startGetStream();
    }
  }

  /** Opens the session's standalone GET stream for server-initiated messages (P10). */
  private startGetStream(): void {
    if (this.getStreamGeneration === this.generation || this.closed) return;
    const generation = this.generation;
    this.getStreamGeneration = generation;
    void runGetStream({
      ...this.readerContext(undefined, generation),
      request: async (lastEventId) => {
        const endpoint = await this.options.endpoint.get();
        const headers = this.headers(endpoint, 'text/event-stream');
        if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
        return httpCall({ method: 'GET', url: endpoint.url, headers, signal: this.abort.signal });
      },
      current: () => !this.closed && this.generation === generation,
      sessionLost: () => {
        const lost = this.sessionId;
        if (lost !== undefined && this.generation === generation) {
          void this.recover(lost).catch((err: Error) => this.options.logger.warn(`could not re-create the session: ${err.message}`));
        }
      },
    });
  }

  private readerContext(endpoint: HubEndpoint | undefined, generation: number): ReaderContext {
    return {
      logger: this.options.logger,
      defaultRetryMs: this.defaultRetryMs,
      signal: this.abort.signal,
      ...(this.options.flow ? { flow: this.options.flow } : {}),
      onMessage: (raw, message) => this.fromHub(raw, message),
      track: (res) => {
        this.open.add(res);
        return () => this.open.delete(res);
      },
      resume: async (lastEventId) => {
        // Only the session the stream belongs to can resume it.
        if (this.closed || generation !== this.generation) return undefined;
        const target = endpoint ?? (await this.options.endpoint.get());
        const headers = this.headers(target, 'text/event-stream');
        headers['Last-Event-ID'] = lastEventId;
        const res = await httpCall({ method: 'GET', url: target.url, headers, signal: this.abort.signal });
        if (res.statusCode === 200) return res;
        this.options.logger.warn(`resuming a stream failed: HTTP ${res.statusCode} ${summary(await readText(res).catch(() => ''))}`);
        return undefined;
      },
    };
  }

  private fromHub(raw: string, message: ScannedMessage | undefined): void {
    const init = this.initRequest;
    if (init && responseId(message) === init.id) {
      // The one answer the relay reads: initialize's, for the version to send from now on.
      const version = (parseMessage(raw) as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
      if (typeof version === 'string') this.protocolVersion = version;
    }
    if (!this.closed) this.options.deliver(raw);
  }

  private headers(endpoint: HubEndpoint, accept: string, json = false, session = true): Record<string, string> {
    const h: Record<string, string> = { Accept: accept };
    if (json) h['Content-Type'] = 'application/json';
    if (endpoint.token !== undefined) h.Authorization = `Bearer ${endpoint.token}`;
    if (session && this.sessionId !== undefined) h[HEADER_SESSION_ID] = this.sessionId;
    if (session && this.protocolVersion !== undefined) h[HEADER_PROTOCOL_VERSION] = this.protocolVersion;
    return h;
  }

  private fail(ids: readonly JsonRpcId[], code: number, message: string): void {
    if (this.closed) return;
    if (ids.length > 0) this.options.logger.warn(message);
    for (const id of ids) this.options.deliver(JSON.stringify(errorResponse(id, code, message)));
  }
}

/** The reason a `notifications/cancelled` line gives, for the log. */
function cancelReason(raw: string): string | undefined {
  try {
    const reason = (JSON.parse(raw) as { params?: { reason?: unknown } }).params?.reason;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
}

function summary(body: string): string {
  return body.replace(/\s+/g, ' ').trim().slice(0, 200);
}
