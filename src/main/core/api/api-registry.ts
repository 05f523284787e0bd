/**
 * The engine side of the API contract: features register handlers for their calls and emit their
 * events here; the bridges (HTTP `/api`, Electron IPC) only ever talk to this registry. Input is
 * validated with the contract's zod schema at this trust boundary; failures become
 * `{ ok: false, code, message }` — never a stack.
 */
import type { z } from 'zod';
import type { ApiEvent, ApiResult, CallDef, CallName, CallOutput, Contract, EventDef, EventName, EventPayload } from '../../../shared/api/contract.js';
import { Ring } from '../lib/ring.js';
import { createLogger } from '../log/logger.js';

const log = createLogger('api');

/** A failure a handler reports on purpose: a stable code and a message a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A failure with a stable code and the problems it found, each at a JSON path: the config store's ConfigError. */
export interface ProblemsError extends Error {
  readonly code: string;
  readonly problems: readonly { path: string; message: string }[];
}

/**
 * Runs `work`; a failure of class `kind` becomes an ApiError with its code and message and, as
 * details, its problems (path and message each), so the UI can point at what is wrong. The class
 * comes in (ConfigError at every call) because this folder may not import the config store.
 */
export async function withApiErrors<T>(kind: abstract new (...args: never[]) => ProblemsError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof kind) throw new ApiError(err.code, err.message, err.problems.map(({ path, message }) => ({ path, message })));
    throw err;
  }
}

export type Handlers<C extends Contract> = {
  [K in CallName<C>]: (input: C[K] extends CallDef<infer I, z.ZodType> ? z.output<I> : never) => Promise<CallOutput<C, K>> | CallOutput<C, K>;
};

type AnyHandler = (input: unknown) => unknown;

/**
 * Most bytes of event payloads (as JSON text) kept for resumption, besides the count limit: a
 * burst of large events (a playground tool's progress, each carrying its message) must not pin
 * thousands of them. Half the cap on an `/api/events` subscriber's backlog (http-api.ts), so a
 * resumption's replay alone never comes near that cap.
 */
export const DEFAULT_BACKLOG_BYTES = 4 * 1024 * 1024;

/**
 * A subscriber: each event, with its payload's JSON text (serialised once, when it was emitted,
 * for every subscriber that writes it out; undefined if the payload cannot be serialised).
 */
export type ApiListener = (event: ApiEvent, data: string | undefined) => void;

interface Kept {
  event: ApiEvent;
  data: string | undefined;
}

export class ApiRegistry {
  private readonly calls = new Map<string, { def: CallDef; handler: AnyHandler }>();
  private readonly events = new Map<string, EventDef>();
  private readonly listeners = new Set<ApiListener>();
  private readonly backlog: Ring<Kept>;
  private backlogBytes = 0;
  private cursor = 0;

  constructor(
    backlogSize = 2000,
    private readonly maxBacklogBytes = DEFAULT_BACKLOG_BYTES,
  ) {
    this.backlog = new Ring<Kept>(backlogSize);
  }

  /** Registers a feature's part of the contract with its handlers. */
  register<C extends Contract>(contract: C, handlers: Handlers<C>): void {
    for (const [name, def] of Object.entries(contract)) {
      if (def.kind === 'event') {
        this.events.set(name, def);
        continue;
      }
      const handler = (handlers as Record<string, AnyHandler | undefined>)[name];
      if (!handler) throw new Error(`no handler for API call '${name}'`);
      if (this.calls.has(name)) throw new Error(`API call '${name}' registered twice`);
      this.calls.set(name, { def, handler });
    }
  }

  has(name: string): boolean {
    return this.calls.has(name);
  }

  callNames(): string[] {
    return [...this.calls.keys()].sort();
  }

  async invoke(name: string, rawInput: unknown): Promise<ApiResult<unknown>> {
    const entry = this.calls.get(name);
    if (!entry) return { ok: false, code: 'unknown_call', message: `There is no API call '${name}'` };
    const parsed = entry.def.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
      return { ok: false, code: 'invalid_input', message: `Invalid input for ${name}: ${problems.join('; ')}`, details: problems };
    }
    try {
      const value = await entry.handler(parsed.data);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof ApiError) return { ok: false, code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) };
      log.error(`API call ${name} failed: ${(err as Error).message}`);
      return { ok: false, code: 'internal', message: `${name} failed: ${(err as Error).message}` };
    }
  }

  /**
   * Publishes an event to every subscriber, and keeps it in a backlog for resumption, bounded by
   * count and by bytes (the newest event is kept whatever its size).
   */
  emit<C extends Contract, K extends EventName<C>>(_contract: C, channel: K, payload: EventPayload<C, K>): void {
    const event: ApiEvent = { channel, cursor: ++this.cursor, payload } as ApiEvent;
    let data: string | undefined;
    try {
      data = JSON.stringify(payload);
    } catch (err) {
      log.warn(`event ${channel} cannot be serialised: ${(err as Error).message}`);
    }
    const dropped = this.backlog.push({ event, data });
    if (dropped) this.backlogBytes -= dropped.data?.length ?? 0;
    this.backlogBytes += data?.length ?? 0;
    while (this.backlogBytes > this.maxBacklogBytes && this.backlog.length > 1) this.backlogBytes -= this.backlog.shift()!.data?.length ?? 0;
    for (const listener of this.listeners) {
      try {
        listener(event, data);
      } catch (err) {
        log.warn(`event listener failed: ${(err as Error).message}`);
      }
    }
  }

  /**
   * Subscribes; with `since`, first replays the backlog after that cursor. Returns false in
   * `complete` when events after `since` were already evicted (the subscriber must refetch).
   */
  subscribe(listener: ApiListener, since?: number): { unsubscribe(): void; complete: boolean } {
    let complete = true;
    if (since !== undefined) {
      const first = this.backlog.first;
      if (first && first.event.cursor > since + 1) complete = false;
      for (const kept of this.backlog) if (kept.event.cursor > since) listener(kept.event, kept.data);
    }
    this.listeners.add(listener);
    return { unsubscribe: () => this.listeners.delete(listener), complete };
  }

  get lastCursor(): number {
    return this.cursor;
  }
}
