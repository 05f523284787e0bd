/**
 * The stdio door: one 2025-era client served in the hub's own process, a JSON-RPC message per
 * line each way (PROTOCOL P29) — how `patchbay relay --url` reaches the engine it embeds, without
 * an HTTP round trip to itself (a quarter of its CPU per call went to that hop: docs/performance.md).
 *
 * A line gets what a POST gets at the `/mcp` door, with the same checks and words (intake.ts,
 * mcp-endpoint.ts): the body cap, the parse, the depth bound, the JSON-RPC shape, batch rules, ids
 * that would collide, a session that must be initialized first and is re-created by replaying the
 * client's `initialize` when it ended under it (as the relay does on a 404, P17). A refusal is a
 * JSON-RPC error on the output for each request of the line, where the relay turned the door's
 * 4xx into the same error. Requests go upstream with the client's own text, each on a stream of
 * its own (session.ts), and whatever the session sends on any stream goes to the one output, a
 * line per message, in the order sent. Nothing is resumable: a pipe is never cut and re-opened.
 *
 * A reader that falls behind is judged as an HTTP client is (write-pace.ts, on the output's
 * buffer): a producer that can be held back (a stdio child) is; one that cannot (a remote) has the
 * stalled reader's streams given up, so memory stays bounded. Modern-era (2026-07-28) lines do not
 * come here: they have no session, and the relay sends them to the `/mcp` door as before.
 */
import { ErrorCode } from '../../../shared/protocol.js';
import { classify, errorResponse, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { WritePace, type PaceLimits } from '../protocol/write-pace.js';
import { collidingId, messagesOf, tooLarge } from './intake.js';
import type { ServerPort } from './server-port.js';
import type { Session } from './session.js';
import type { StreamSink } from './stream-sink.js';

/** Where the door writes: the relay's stdout, through its flow control. */
export interface LineOutput {
  /** Writes one line (its newline included); false: the reader is behind, wait for `onDrain`. */
  write(line: string): boolean;
  /** Bytes written that the reader has not taken yet (what the pace is judged on). */
  readonly writableLength: number;
  /** Runs `listener` once, when the output can take more (at once when it can now). */
  onDrain(listener: () => void): void;
}

export interface StdioDoorHost {
  /** The server the door serves, looked up for each new session (the config may have changed). */
  server(): ServerPort | undefined;
  /** A new session of the hub (outside its table: no HTTP client can reach it). */
  newSession(runtime: ServerPort): Session;
  isClosed(): boolean;
  maxBodyBytes: number;
}

/**
 * Who hears of a refused line (built only when one is): each request, and each entry that is no
 * JSON-RPC message at all (by its id when it has a usable one, else null: JSON-RPC's Invalid Request).
 */
function answerable(text: string): Array<JsonRpcId | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [null];
  }
  const list = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
  return list.flatMap((m): Array<JsonRpcId | null> => {
    const kind = classify(m);
    if (kind === 'request') return [(m as JsonRpcRequest).id];
    if (kind !== undefined) return [];
    const id = (m as { id?: unknown } | null)?.id;
    return [typeof id === 'string' || typeof id === 'number' ? id : null];
  });
}

/** The door's refusal of a line: JSON-RPC errors for its requests (none for notifications). */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class StdioDoor {
  private session: Session | undefined;
  /** The client's `initialize`, replayed to re-create a session that ended under it. */
  private init: JsonRpcRequest | undefined;
  /** The client sent `notifications/initialized`: a re-created session gets it too, and its standalone stream. */
  private clientInitialized = false;
  private queue: Promise<void> = Promise.resolve();
  /** Streams of requests still open (their sinks end with their last answer). */
  private readonly openStreams = new Set<LineSink>();
  private readonly settledWaiters = new Set<() => void>();
  private readonly drainListeners: Array<() => void> = [];
  private waitingForDrain = false;
  private readonly pace: WritePace;
  private replays = 0;
  /** A session was initialized once: a later one is a re-creation, not a first start. */
  private established = false;
  private closed = false;

  constructor(
    private readonly output: LineOutput,
    private readonly host: StdioDoorHost,
    private readonly onWarning: (message: string) => void = () => {},
  ) {
    this.pace = new WritePace(output);
  }

  /**
   * Takes one line from the client (without its newline). Lines are handled in order; the promise
   * settles when this one is on its way to the server (an `initialize` when it is answered).
   */
  send(text: string): Promise<void> {
    const next = this.queue.then(() => this.take(text)).catch((err: Error) => this.onWarning(`the stdio door failed on a line: ${err.stack ?? err.message}`));
    this.queue = next;
    return next;
  }

  /** Waits (at most `timeoutMs`) until every line is handled and every request answered. */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waitAll = (async () => {
      await this.queue;
      while (this.openStreams.size > 0 && !this.closed) await new Promise<void>((resolve) => this.settledWaiters.add(resolve));
    })();
    await Promise.race([waitAll, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Ends the session (and with it the server's connection); later lines are ignored. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const sink of [...this.openStreams]) sink.detach();
    for (const resolve of [...this.settledWaiters]) resolve();
    await this.session?.close();
  }

  private async take(text: string): Promise<void> {
    if (this.closed) return;
    try {
      // The checks a POST body gets at intake, in its order and words (intake.ts).
      const limit = this.host.maxBodyBytes;
      // Characters never outnumber bytes; the byte count is taken only where they may differ.
      if (text.length > limit || (text.length * 3 > limit && Buffer.byteLength(text) > limit)) throw new Refusal(ErrorCode.InvalidRequest, tooLarge(limit));
      const read = messagesOf(text);
      if ('problem' in read) throw new Refusal(read.code, read.problem);
      const { messages, batch } = read;
      const init = messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === 'initialize');
      if (init) {
        if (batch) throw new Refusal(ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be part of a batch');
        await this.initialize(init, text);
        return;
      }
      const session = await this.liveSession();
      if (batch && session.protocolVersion !== '2025-03-26') throw new Refusal(ErrorCode.InvalidRequest, `Invalid Request: batches are not supported in protocol version ${session.protocolVersion}`);
      const colliding = collidingId(messages, session);
      if (colliding !== undefined) throw new Refusal(ErrorCode.InvalidRequest, colliding);
      // The line's own text goes upstream only when it is that one message (as a POST body's).
      const raws = batch ? messages.map(() => undefined) : [text];
      if (!messages.some(isRequest)) {
        await session.forward(messages, raws, undefined);
        if (messages.some((m) => 'method' in m && m.method === 'notifications/initialized')) this.ready(session);
        return;
      }
      const sink = new LineSink(this, true);
      this.openStreams.add(sink);
      await session.forward(messages, raws, session.openRequestStream(sink, {}));
    } catch (err) {
      // A failure that is not a refusal is a bug: still, the line's requests get an answer (as the
      // HTTP relay gives them), never a silence the client would wait on forever.
      const refusal = err instanceof Refusal ? err : new Refusal(ErrorCode.InternalError, `the relay failed: ${(err as Error).message}`);
      if (!(err instanceof Refusal)) this.onWarning(`the stdio door failed on a line: ${(err as Error).stack ?? String(err)}`);
      const ids = answerable(text);
      if (ids.length === 0) this.onWarning(`the hub refused a notification: ${refusal.message}`);
      else this.refuse(ids, refusal.code, refusal.message);
    }
  }

  /** The client's initialize: a fresh session (the old one, if any, is let go), answered on the output. */
  private async initialize(request: JsonRpcRequest, text: string): Promise<void> {
    this.init = request;
    this.clientInitialized = false;
    const old = this.session;
    this.session = undefined;
    if (old) void old.close();
    const { session, answer } = await this.openSession(request, text);
    this.emit(JSON.stringify(answer.message), answer.message);
    if (!answer.ok) return;
    this.session = session;
    this.established = true;
  }

  /** A new session on the server, initialized with `request`; closed again when that failed. */
  private async openSession(request: JsonRpcRequest, text: string | undefined): Promise<{ session: Session; answer: { message: JsonRpcMessage; ok: boolean } }> {
    if (this.host.isClosed()) throw new Refusal(ErrorCode.ServerError, 'Service Unavailable: the hub is shutting down');
    const runtime = this.host.server();
    if (!runtime) throw new Refusal(ErrorCode.InvalidRequest, 'Not Found: the server is no longer configured (or it is disabled)');
    const session = this.host.newSession(runtime);
    const answer = await session.initialize(request, text);
    if (!answer.ok || this.closed) void session.close();
    return { session, answer };
  }

  /** The session to forward to: the live one, or one re-created by replaying the client's initialize. */
  private async liveSession(): Promise<Session> {
    const current = this.session;
    if (current?.state === 'live') return current;
    const init = this.init;
    if (!init) throw new Refusal(ErrorCode.ServerError, 'Bad Request: the session is not initialized (send initialize first)');
    this.session = undefined;
    const id = `patchbay-relay-replay-${++this.replays}`;
    // The client's initialize was answered with an error (the server did not start): each later
    // line tries again, so a server that comes up later is used without the client starting over.
    const again = this.established;
    this.onWarning(
      current ? `the session ended (${current.failure ?? current.state}); re-creating it (replaying initialize)` : again ? 're-creating the session (replaying initialize)' : 'no session yet (the server did not answer initialize): trying again (replaying initialize)',
    );
    const { session, answer } = await this.openSession({ ...init, id }, undefined);
    if (!answer.ok) {
      const error = ('error' in answer.message ? answer.message.error?.message : undefined) ?? 'no result to the replayed initialize';
      throw new Refusal(ErrorCode.InternalError, again ? `the session ended and could not be re-created: ${error}` : `no session: the server did not answer initialize: ${error}`);
    }
    this.session = session;
    this.established = true;
    if (this.clientInitialized) {
      await session.forward([{ jsonrpc: '2.0', method: 'notifications/initialized' }], [undefined], undefined);
      session.attachGetStream(new LineSink(this, false), {});
    }
    return session;
  }

  /** The client is initialized: server messages outside any request now go to it (the standalone stream, P10). */
  private ready(session: Session): void {
    if (this.clientInitialized) return;
    this.clientInitialized = true;
    session.attachGetStream(new LineSink(this, false), {});
  }

  private refuse(ids: ReadonlyArray<JsonRpcId | null>, code: number, message: string): void {
    for (const id of ids) this.emit(JSON.stringify(errorResponse(id, code, message)));
  }

  /** One message on the output, on one line (a server's text that spans lines is written again). */
  emit(json: string, message?: JsonRpcMessage): boolean {
    if (this.closed) return true;
    const line = (json.includes('\n') || json.includes('\r') ? JSON.stringify(message ?? JSON.parse(json)) : json) + '\n';
    const ok = this.output.write(line);
    this.pace.wrote(line.length, ok, true);
    if (!ok) this.awaitDrain();
    return ok;
  }

  onDrain(listener: () => void): void {
    if (!this.pace.blocked) {
      queueMicrotask(listener);
      return;
    }
    this.drainListeners.push(listener);
  }

  stalled(limits: PaceLimits, now: number): boolean {
    return this.pace.stalled(limits, now);
  }

  get backlog(): number {
    return this.output.writableLength;
  }

  settled(sink: LineSink): void {
    this.openStreams.delete(sink);
    if (this.openStreams.size > 0) return;
    for (const resolve of this.settledWaiters) resolve();
    this.settledWaiters.clear();
  }

  private awaitDrain(): void {
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.output.onDrain(() => {
      this.waitingForDrain = false;
      this.pace.drained();
      for (const listener of this.drainListeners.splice(0)) listener();
    });
  }
}

/** One of the session's streams, as the door writes it: every message a line on the output. */
class LineSink implements StreamSink {
  readonly resumable = false;
  private readonly closeListeners: Array<() => void> = [];
  private ended = false;

  constructor(
    private readonly door: StdioDoor,
    /** A request's stream (the door waits for it to end on drain), not the standalone one. */
    private readonly forRequest: boolean,
  ) {}

  open(): void {}

  message(_eventId: string, json: string, message?: JsonRpcMessage): boolean {
    return this.door.emit(json, message);
  }

  onDrain(listener: () => void): void {
    this.door.onDrain(listener);
  }

  get backlog(): number {
    return this.door.backlog;
  }

  stalled(limits: PaceLimits, now: number): boolean {
    return this.door.stalled(limits, now);
  }

  prime(): void {}

  keepAlive(): void {}

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.forRequest) this.door.settled(this);
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** The client went away (the door closed): the stream lets go of its session. */
  detach(): void {
    this.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
