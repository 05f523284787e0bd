/**
 * How the engine's API is described, once, for every bridge. A call is a zod input and output; an
 * event is a zod payload. The HTTP `/api` adapter, the Electron IPC adapter, the preload bridge and
 * the renderer's clients are all derived from these definitions, so no channel name is typed twice.
 */
import { z } from 'zod';

export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  kind: 'call';
  input: I;
  output: O;
  /** One line for docs and `--help`-like listings. */
  summary: string;
}

export interface EventDef<P extends z.ZodType = z.ZodType> {
  kind: 'event';
  payload: P;
  summary: string;
}

export function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string): CallDef<I, O> {
  return { kind: 'call', input, output, summary };
}

export function event<P extends z.ZodType>(payload: P, summary: string): EventDef<P> {
  return { kind: 'event', payload, summary };
}

export type Contract = Record<string, CallDef | EventDef>;

/** Names of the calls of a contract. */
export type CallName<C extends Contract> = { [K in keyof C]: C[K] extends CallDef ? K : never }[keyof C] & string;
export type EventName<C extends Contract> = { [K in keyof C]: C[K] extends EventDef ? K : never }[keyof C] & string;
export type CallInput<C extends Contract, K extends CallName<C>> = C[K] extends CallDef<infer I, z.ZodType> ? z.input<I> : never;
export type CallOutput<C extends Contract, K extends CallName<C>> = C[K] extends CallDef<z.ZodType, infer O> ? z.output<O> : never;
export type EventPayload<C extends Contract, K extends EventName<C>> = C[K] extends EventDef<infer P> ? z.output<P> : never;

/** Every call answers with this union: our failures carry a code and a message a person can act on. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string; details?: unknown };

export const apiErrorSchema = z.object({ ok: z.literal(false), code: z.string(), message: z.string(), details: z.unknown().optional() });

/** An event as it travels: the channel, a cursor for resumption, the payload. */
export interface ApiEvent<C extends Contract = Contract, K extends EventName<C> = EventName<C>> {
  channel: K;
  cursor: number;
  payload: EventPayload<C, K>;
}

/** What a renderer talks to, whichever bridge is underneath (HTTP or Electron IPC). */
export interface ApiBridge<C extends Contract> {
  call<K extends CallName<C>>(name: K, input: CallInput<C, K>): Promise<ApiResult<CallOutput<C, K>>>;
  /** Subscribes to every event; `since` resumes after a cursor. Returns an unsubscribe function. */
  subscribe(listener: (event: ApiEvent<C>) => void, since?: number): () => void;
}
