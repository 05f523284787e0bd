/**
 * The demo server's side of MCP over stdio: newline-delimited JSON-RPC on stdin/stdout, its own
 * requests to the client (sampling, elicitation) with their answers awaited, progress and
 * logging. Kept dependency-free so the demo ships inside Patchbay and starts in milliseconds.
 */
export type Json = Record<string, unknown>;
export type Id = string | number;

export interface RequestContext {
  /** Reports progress when the caller asked for it (a progress token), else does nothing. */
  progress(progress: number, total: number | undefined, message?: string): void;
  /** Sends a request to the client and resolves with its result (rejects with its error). */
  ask(method: string, params: Json): Promise<Json>;
  /** A log message to the client (notifications/message), at or above the level it set. */
  log(level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown): void;
  clientCapabilities: Json;
  signal: AbortSignal;
}

/** A JSON-RPC error our handlers throw on purpose (unknown tool, bad arguments, …). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export class StdioPeer {
  private buffer = '';
  private nextId = 1;
  private readonly waiting = new Map<Id, { resolve(v: Json): void; reject(e: Error): void }>();
  private readonly running = new Map<Id, AbortController>();
  clientCapabilities: Json = {};
  logLevel = 'info';

  constructor(
    private readonly handle: (method: string, params: Json, ctx: RequestContext) => Promise<Json>,
    private readonly onNotification: (method: string, params: Json) => void = () => {},
    private readonly write: (line: string) => void = (line) => void process.stdout.write(line),
  ) {}

  /** Feeds bytes from stdin. */
  push(text: string): void {
    this.buffer += text;
    for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line !== '') this.receive(line);
    }
  }

  send(message: Json): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  }

  notify(method: string, params: Json): void {
    this.send({ method, params });
  }

  private receive(line: string): void {
    let m: Json;
    try {
      m = JSON.parse(line) as Json;
    } catch {
      this.send({ id: null, error: { code: -32700, message: 'Parse error: a line that is not JSON' } });
      return;
    }
    const id = m.id as Id | undefined;
    if (typeof m.method !== 'string') {
      // An answer to one of our requests.
      const w = id === undefined ? undefined : this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id!);
      const error = m.error as { message?: string } | undefined;
      if (error) w.reject(new Error(error.message ?? 'the client refused'));
      else w.resolve((m.result ?? {}) as Json);
      return;
    }
    const params = (m.params ?? {}) as Json;
    if (id === undefined) {
      if (m.method === 'notifications/cancelled') this.running.get((params as { requestId?: Id }).requestId ?? '')?.abort();
      this.onNotification(m.method, params);
      return;
    }
    void this.run(id, m.method, params);
  }

  private async run(id: Id, method: string, params: Json): Promise<void> {
    const token = ((params._meta ?? {}) as { progressToken?: Id }).progressToken;
    const controller = new AbortController();
    this.running.set(id, controller);
    const ctx: RequestContext = {
      progress: (progress, total, message) => {
        if (token === undefined) return;
        this.notify('notifications/progress', { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) });
      },
      ask: (askMethod, askParams) =>
        new Promise<Json>((resolve, reject) => {
          const askId = `demo-${this.nextId++}`;
          this.waiting.set(askId, { resolve, reject });
          this.send({ id: askId, method: askMethod, params: askParams });
        }),
      log: (level, data) => {
        if (LEVELS.indexOf(level) >= LEVELS.indexOf(this.logLevel)) this.notify('notifications/message', { level, logger: 'demo', data });
      },
      clientCapabilities: this.clientCapabilities,
      signal: controller.signal,
    };
    try {
      const result = await this.handle(method, params, ctx);
      // A cancelled request is not answered (the client stopped waiting for it).
      if (!controller.signal.aborted) this.send({ id, result });
    } catch (err) {
      const code = err instanceof RpcError ? err.code : -32603;
      if (!controller.signal.aborted) this.send({ id, error: { code, message: (err as Error).message } });
    } finally {
      this.running.delete(id);
    }
  }
}
