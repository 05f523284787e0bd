/**
 * The shapes the inspector's API speaks in (inspector-contract.ts has the calls): captured events,
 * request↔response exchanges with their timings, sessions, statistics and the raw stream. Apart
 * so that each file stays readable; inspector-contract.ts re-exports everything here.
 */
import { z } from 'zod';

/** Which hop a message crossed: client ↔ hub, or hub ↔ the server (child process or remote). */
export const captureLegSchema = z.enum(['client', 'upstream']);
export const captureDirectionSchema = z.enum(['to-server', 'to-client']);
/** Who wrote the message: the hub itself writes replayed initializes, timeouts and failures. */
export const captureOriginSchema = z.enum(['client', 'server', 'hub']);
export const captureKindSchema = z.enum([
  'request',
  'notification',
  'response',
  'stderr',
  'lifecycle',
  'http',
]);
export const inspectorSessionStateSchema = z.enum(['live', 'closed', 'failed']);
/**
 * `orphaned`: the server never answered (its process died, or the session ended first); the hub
 * may have answered the client with an error on its behalf.
 */
export const exchangeStatusSchema = z.enum([
  'pending',
  'ok',
  'error',
  'cancelled',
  'timeout',
  'orphaned',
]);
/** The protocol era of a message's side: `legacy` (up to 2025-11-25, sessions) or `modern` (2026-07-28 on). */
export const captureEraSchema = z.enum(['legacy', 'modern']);

const jsonRpcIdSchema = z.union([z.string(), z.number()]);

/** HTTP details of a message that crossed an HTTP leg. Secret headers are already redacted. */
export const captureHttpSchema = z.object({
  method: z.string().optional(),
  url: z.string().optional(),
  status: z.number().int().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  responseHeaders: z.record(z.string(), z.string()).optional(),
});

export const progressEntrySchema = z.object({
  seq: z.number().int(),
  time: z.number(),
  progress: z.number().optional(),
  total: z.number().optional(),
  message: z.string().optional(),
});

/**
 * One input round of a modern multi-round-trip request (2026-07-28 "MRTR"): the server answered
 * `input_required` (at `seq`) asking for `requests`; the client retried with its answers (the
 * request at `retrySeq`, a new JSON-RPC id `retryId`). Absent `retrySeq`: not retried (yet).
 */
export const inputRoundSchema = z.object({
  seq: z.number().int(),
  time: z.number(),
  /** What the server asked for: the input key and the method (elicitation/create, sampling/createMessage, roots/list). */
  requests: z.array(z.object({ key: z.string(), method: z.string() })),
  retrySeq: z.number().int().optional(),
  retryId: jsonRpcIdSchema.optional(),
  /** The input keys the retry answered. */
  answered: z.array(z.string()).optional(),
});

/**
 * The server's side of an exchange the hub bridged between eras: the era the server was spoken to
 * in and the seqs of the (redacted) events it was sent and answered (events with note `bridged`).
 */
export const exchangeBridgeSchema = z.object({
  era: captureEraSchema,
  seqs: z.array(z.number().int()),
});

/**
 * Where an exchange's time went, in ms after `startedAt` (the request reached the hub): `sentMs`
 * it went out on its other leg (to the server, for a client's request: the time before it is the
 * hub's queue), `firstByteMs` the answer's first byte came back (a stdio line's first chunk, an
 * HTTP answer's headers or SSE chunk), `answeredMs` the answer was whole and parsed, `deliveredMs`
 * it was written to the requester's connection. A mark the hub could not take is absent. With
 * `latencyMs` (the answer handed to the requester's stream) and `progress`, the timing view and
 * the session's waterfall are drawn from these (docs/inspector.md, "Timing").
 */
export const exchangeTimingSchema = z.object({
  sentMs: z.number().optional(),
  firstByteMs: z.number().optional(),
  answeredMs: z.number().optional(),
  deliveredMs: z.number().optional(),
});

/** A request paired with its response (or what became of it), with timings. */
export const exchangeSummarySchema = z.object({
  /** `<session>/<requestSeq>`: unique, since request ids are reused. */
  id: z.string(),
  session: z.string(),
  server: z.string(),
  /** The session's client name (initialize clientInfo), when known. */
  client: z.string().optional(),
  requester: captureOriginSchema,
  requestId: jsonRpcIdSchema,
  method: z.string(),
  status: exchangeStatusSchema,
  /** Epoch ms when the request first crossed the hub. */
  startedAt: z.number(),
  endedAt: z.number().optional(),
  /** As the requester saw it: first sighting of the request → the answer on the requester's leg. */
  latencyMs: z.number().optional(),
  /** For client requests: hub → server → hub only (latencyMs minus the hub's own share). */
  upstreamLatencyMs: z.number().optional(),
  requestSeq: z.number().int(),
  responseSeq: z.number().int().optional(),
  cancelSeq: z.number().int().optional(),
  /** A response that arrived after the exchange was cancelled or timed out (the hub dropped it). */
  lateResponseSeq: z.number().int().optional(),
  /** The most recent progress notifications (bounded); `progressCount` counts them all. */
  progress: z.array(progressEntrySchema),
  progressCount: z.number().int(),
  error: z.object({ code: z.number(), message: z.string() }).optional(),
  /**
   * A `tools/call` whose result says `isError: true`: the tool failed although the call was
   * answered (status `error`; `reason` holds the first text of its content).
   */
  isError: z.literal(true).optional(),
  /** Why an exchange was orphaned, timed out or cancelled (or why a tool failed), in words. */
  reason: z.string().optional(),
  /** The client's era (absent in history written before eras: legacy). */
  era: captureEraSchema.optional(),
  /** A modern request's `Mcp-*` headers as the client sent them (`mcp-method`, `mcp-name`, `mcp-param-*`), redacted. */
  headers: z.record(z.string(), z.string()).optional(),
  /** A multi-round-trip request: its input rounds, in order (the exchange is the whole round trip). */
  rounds: z.array(inputRoundSchema).optional(),
  /** Bridged between eras: what the server was sent and answered. */
  bridge: exchangeBridgeSchema.optional(),
  /** A server request that asks for one of an input round's answers: the exchange id of that call. */
  parent: z.string().optional(),
  /** A call an MCP App made from the playground (its request's `_meta["patchbay/origin"]`), not the person. */
  madeBy: z.literal('app').optional(),
  /**
   * The exchange's trace when telemetry traced it (W3C ids, lower-case hex): the trace, and the
   * hub's span for the request (docs/observability.md).
   */
  trace: z.object({ traceId: z.string(), spanId: z.string() }).optional(),
  /** The marks between the request and its delivered answer (exchangeTimingSchema). */
  timing: exchangeTimingSchema.optional(),
});

/** An exchange with its (redacted) request and response messages. */
export const exchangeSchema = exchangeSummarySchema.extend({
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  /** Per input round (as `rounds`): the `input_required` answer and the client's retry. */
  roundMessages: z
    .array(z.object({ inputRequired: z.unknown().optional(), retry: z.unknown().optional() }))
    .optional(),
  /** The server's side of a bridged exchange (as `bridge.seqs`), in order. */
  serverMessages: z
    .array(
      z.object({
        seq: z.number().int(),
        direction: captureDirectionSchema.optional(),
        message: z.unknown().optional(),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
});

export const sessionFailureSchema = z.object({
  reason: z.string(),
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
  stderrTail: z.string().optional(),
});

const legCounts = z.object({ toServer: z.number().int(), toClient: z.number().int() });

export const inspectorSessionSchema = z.object({
  id: z.string(),
  server: z.string(),
  client: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  /** The client token that opened the session (its label, e.g. "Cursor"); absent for the hub token. */
  principal: z.string().optional(),
  protocolVersion: z.string().optional(),
  clientCapabilities: z.record(z.string(), z.unknown()).optional(),
  serverInfo: z.object({ name: z.string(), version: z.string().optional() }).optional(),
  serverCapabilities: z.record(z.string(), z.unknown()).optional(),
  /** Transport of each leg, e.g. client `streamable-http`, upstream `stdio` / `stdio-shared` / `http`. */
  transport: z.object({ client: z.string(), upstream: z.string() }),
  /** A session the hub opened for itself (replay); its client side is the hub. */
  debug: z.boolean(),
  /**
   * The client's era. A `modern` session is not a protocol session: the hub groups one modern
   * client's sessionless requests to a server (by the clientInfo they carry) into one timeline.
   */
  era: captureEraSchema.optional(),
  /** Set when the hub bridged this session's traffic to a server of the other era: that era. */
  serverEra: captureEraSchema.optional(),
  /**
   * Set on a profile's traffic with one of its members: the profile (`@work`, `''` the default
   * one), and the client's session it served (none for 2026-07-28 calls, which have no session).
   */
  profile: z.object({ id: z.string(), parentSession: z.string().optional() }).optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  state: inspectorSessionStateSchema,
  failure: sessionFailureSchema.optional(),
  endReason: z.string().optional(),
  /** Upstream connections re-opened after one ended (the hub replays initialize on each). */
  restarts: z.number().int(),
  messages: z.object({ client: legCounts, upstream: legCounts }),
  bytes: z.object({ client: legCounts, upstream: legCounts }),
  exchanges: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    ok: z.number().int(),
    error: z.number().int(),
    cancelled: z.number().int(),
    timeout: z.number().int(),
    orphaned: z.number().int(),
  }),
  /** Error responses (failed tool calls included), timeouts and orphaned requests. */
  errors: z.number().int(),
  stderrLines: z.number().int(),
  /** Messages not captured because the inspector fell behind. */
  dropped: z.number().int(),
  firstSeq: z.number().int().optional(),
  lastSeq: z.number().int().optional(),
  /** False when its events are only in the history files (older, or from before a restart). */
  inMemory: z.boolean(),
});

/** One captured thing: a message on one leg, a stderr line, a lifecycle change. Always redacted. */
export const captureEventSchema = z.object({
  /** Global, monotonic across restarts: the cursor of the live stream. */
  seq: z.number().int(),
  session: z.string(),
  server: z.string(),
  /** Epoch ms (fractional) from the engine's monotonic clock. */
  time: z.number(),
  leg: captureLegSchema.optional(),
  direction: captureDirectionSchema.optional(),
  origin: captureOriginSchema,
  kind: captureKindSchema,
  method: z.string().optional(),
  id: z.union([jsonRpcIdSchema, z.null()]).optional(),
  /** UTF-8 bytes of the message as it crossed. */
  size: z.number().int(),
  /** The JSON-RPC message; a string (a prefix) when `truncated`. */
  message: z.unknown().optional(),
  truncated: z.boolean().optional(),
  /** A stderr line, or a lifecycle change in words. */
  text: z.string().optional(),
  /**
   * timeout · upstream-closed · session-closed · replay-initialize · replay · `bridged` (what a
   * bridge sent the server or got from it, in the server's era) · `bridge-answer` (a bridge
   * answered on the server's behalf) · `policy` (the server's secret check blocked the request) · …
   */
  note: z.string().optional(),
  /** On `bridged` events: the JSON-RPC id of the client's request this server-side message belongs to. */
  of: jsonRpcIdSchema.optional(),
  http: captureHttpSchema.optional(),
  /** Exchanges this event completed (a response, a cancellation, a session's end). */
  exchanges: z.array(exchangeSummarySchema).optional(),
  /** On lifecycle events: the session as it stands after the change. */
  sessionInfo: inspectorSessionSchema.optional(),
});

export const serverStatsSchema = z.object({
  server: z.string(),
  /** Client requests that completed (any status). */
  calls: z.number().int(),
  errors: z.number().int(),
  cancelled: z.number().int(),
  timeouts: z.number().int(),
  /** Over the most recent calls (a bounded window). */
  p50Ms: z.number().optional(),
  p95Ms: z.number().optional(),
  lastCallAt: z.number().optional(),
  /** Latency over time: one point per bucket (`bucketMs` wide) with calls, most recent hour. */
  series: z
    .array(
      z.object({
        t: z.number(),
        calls: z.number().int(),
        errors: z.number().int(),
        p50Ms: z.number(),
        p95Ms: z.number(),
      }),
    )
    .optional(),
  bucketMs: z.number().int().optional(),
});

/** One write to a client's HTTP response, as the hub made it (redacted). */
export const rawChunkSchema = z.object({
  /** Epoch ms when it was written. */
  time: z.number(),
  /** The response it belongs to: a 2025 session's stream key (`0` the GET stream), or a 2026-07-28 call's request id. */
  stream: z.string(),
  /** `head`: status line and headers; `data`: body bytes (SSE lines, or a JSON body); `end`: the response ended. */
  kind: z.enum(['head', 'data', 'end']),
  text: z.string(),
});

export const rawStreamSchema = z.object({
  /** Recording is on (for streams opened from when it was turned on). */
  enabled: z.boolean(),
  maxBytesPerSession: z.number().int(),
  chunks: z.array(rawChunkSchema),
  /** Older chunks of this session were dropped to stay under the cap. */
  truncated: z.boolean(),
});
