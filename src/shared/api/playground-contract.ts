/**
 * The playground: a person, in the UI, is the MCP client of one configured server. The engine
 * opens a session on the server through the hub (so it is captured by the inspector like any
 * other, marked `playground`), sends the requests the UI asks for, and hands the UI what the
 * server sends back on its own: requests the client must answer (sampling, elicitation, roots)
 * and notifications (progress, logging, list changes, resource updates).
 *
 * Through the API rather than `/mcp` from the browser: the UI's login opens `/api` only, and the
 * Electron window talks IPC; this contract works in both.
 */
import { z } from 'zod';
import { call, event } from './contract.js';

const jsonRpcIdSchema = z.union([z.string(), z.number()]);
const jsonObject = z.record(z.string(), z.unknown());

export const playgroundOpenedSchema = z.object({
  /** The playground session's id (not the inspector's, not an `Mcp-Session-Id`). */
  session: z.string(),
  server: z.string(),
  /** The inspector's id of the same session, to open it there. */
  inspectorSession: z.string().optional(),
  protocolVersion: z.string().optional(),
  serverInfo: z.object({ name: z.string(), version: z.string().optional(), title: z.string().optional() }).optional(),
  capabilities: jsonObject,
  instructions: z.string().optional(),
});

export const playgroundOutcomeSchema = z.object({
  /** The JSON-RPC id the request was sent with. */
  id: jsonRpcIdSchema,
  /** `ok`: a result (a failed tool too: its result says isError); `error`: a JSON-RPC error; `timeout`; `closed`: the session ended first. */
  status: z.enum(['ok', 'error', 'timeout', 'closed']),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  latencyMs: z.number(),
});

export const playgroundServerMessageSchema = z.object({
  session: z.string(),
  /** A request the UI must answer with `playground.answer` (it has an id), or a notification. */
  kind: z.enum(['request', 'notification']),
  /** The playground request whose stream carried it (the call that caused it), when there was one. */
  relatedRequestId: jsonRpcIdSchema.optional(),
  message: z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema.optional(), method: z.string(), params: jsonObject.optional() }),
});

export const playgroundContract = {
  'playground.open': call(
    // A server id, or `@name` for a profile (its aggregated endpoint): names are at most 64 characters, plus the `@`.
    z.object({ server: z.string().min(1).max(65) }),
    playgroundOpenedSchema,
    'Open a session on a configured server, or a profile (`@name`), as a client the person drives (initialized with sampling, elicitation and roots)',
  ),
  'playground.request': call(
    z.object({
      session: z.string(),
      method: z.string().min(1).max(200),
      params: jsonObject.optional(),
      /** The JSON-RPC id to send it with (unique in the session), so the caller can tell its progress and server requests apart while it runs. */
      id: z.string().min(1).max(100).optional(),
      timeoutMs: z.number().int().min(100).max(3_600_000).default(300_000),
      /**
       * `app`: an MCP App the playground renders made this request (its `tools/call`), not the
       * person. Sent with `_meta["patchbay/origin"]: "app"`, so the inspector marks it.
       */
      origin: z.literal('app').optional(),
    }),
    playgroundOutcomeSchema,
    'Send one request (tools/call, resources/read, prompts/get, completion/complete, …) and wait for its answer',
  ),
  'playground.notify': call(
    z.object({ session: z.string(), method: z.string().min(1).max(200), params: jsonObject.optional() }),
    z.object({}),
    'Send a notification (notifications/cancelled, notifications/roots/list_changed, …)',
  ),
  'playground.answer': call(
    z.object({
      session: z.string(),
      id: jsonRpcIdSchema,
      result: jsonObject.optional(),
      error: z.object({ code: z.number().int(), message: z.string().max(10_000) }).optional(),
    }),
    z.object({}),
    'Answer a request the server sent (sampling, elicitation, roots/list) with a result or an error',
  ),
  'playground.close': call(z.object({ session: z.string() }), z.object({ closed: z.boolean() }), 'End a playground session'),
  'playground.serverMessage': event(playgroundServerMessageSchema, 'A server sent a playground session a request to answer, or a notification'),
  'playground.closed': event(z.object({ session: z.string(), reason: z.string() }), 'A playground session ended (idle, its server failed or was removed)'),
} as const;

export type PlaygroundOpened = z.infer<typeof playgroundOpenedSchema>;
export type PlaygroundOutcome = z.infer<typeof playgroundOutcomeSchema>;
export type PlaygroundServerMessage = z.infer<typeof playgroundServerMessageSchema>;
