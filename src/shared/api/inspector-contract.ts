/**
 * The inspector's part of the API: captured sessions, their events and request↔response
 * exchanges, search, stats, export and replay. Served over `/api/call/<name>` (and later IPC).
 *
 * The live subscription is a server-sent event stream rather than a registry event, because it
 * carries every captured message and must resume from its own cursor (the event `seq`), which
 * outlives the registry's small backlog: see `inspectorLiveStream`.
 */
import { z } from 'zod';
import { call } from './contract.js';
import type {
  captureLegSchema,
  captureDirectionSchema,
  captureOriginSchema,
  captureKindSchema,
  captureEraSchema,
  captureHttpSchema,
  progressEntrySchema,
  inputRoundSchema,
  exchangeBridgeSchema,
  exchangeTimingSchema,
  exchangeSummarySchema,
  rawChunkSchema,
} from './inspector-schemas.js';
import {
  inspectorSessionStateSchema,
  exchangeStatusSchema,
  exchangeSchema,
  inspectorSessionSchema,
  captureEventSchema,
  serverStatsSchema,
  rawStreamSchema,
} from './inspector-schemas.js';

export * from './inspector-schemas.js';

const limit = (max: number, dflt: number) => z.number().int().min(1).max(max).default(dflt);
const timeFilter = z.union([z.number(), z.iso.datetime({ offset: true })]);

export const inspectorContract = {
  'inspector.status': call(
    z.object({}),
    z.object({
      enabled: z.boolean(),
      cursor: z.number().int(),
      queue: z.object({ length: z.number().int(), max: z.number().int() }),
      dropped: z.object({ queue: z.number().int(), history: z.number().int() }),
      memory: z.object({
        sessions: z.number().int(),
        events: z.number().int(),
        bytes: z.number().int(),
        maxEvents: z.number().int(),
        maxBytes: z.number().int(),
        maxEventsPerSession: z.number().int(),
      }),
      history: z.object({
        enabled: z.boolean(),
        dir: z.string(),
        files: z.number().int(),
        bytes: z.number().int(),
        maxBytes: z.number().int(),
        maxAgeDays: z.number(),
      }),
    }),
    'Capture on/off, the live cursor, queue and drop counters, memory and history usage',
  ),
  'inspector.sessions.list': call(
    z.object({
      server: z.string().optional(),
      /** Case-insensitive substring of the client name. */
      client: z.string().optional(),
      state: inspectorSessionStateSchema.optional(),
      /** Sessions active at or after this time (epoch ms or ISO date). */
      since: timeFilter.optional(),
      /** Sessions started at or before this time. */
      until: timeFilter.optional(),
      limit: limit(1000, 100),
      offset: z.number().int().min(0).default(0),
    }),
    z.object({ sessions: z.array(inspectorSessionSchema), total: z.number().int() }),
    'Captured sessions, newest first, live and from history, filtered by server, client, state, time',
  ),
  'inspector.sessions.get': call(
    z.object({ session: z.string() }),
    inspectorSessionSchema,
    'One captured session',
  ),
  'inspector.exchanges.list': call(
    z.object({
      session: z.string(),
      /** Page after this request seq (the `next` of the previous page). */
      after: z.number().int().optional(),
      limit: limit(1000, 100),
      /** Include the request and response messages. */
      full: z.boolean().default(false),
    }),
    z.object({ exchanges: z.array(exchangeSchema), next: z.number().int().optional() }),
    "A page of a session's request↔response exchanges, oldest first",
  ),
  'inspector.events.list': call(
    z.object({
      session: z.string().optional(),
      server: z.string().optional(),
      /** Events after this seq. */
      after: z.number().int().optional(),
      limit: limit(5000, 500),
    }),
    z.object({ events: z.array(captureEventSchema), next: z.number().int().optional() }),
    "A page of captured events (a session's timeline, stderr included), oldest first",
  ),
  'inspector.search': call(
    z.object({
      query: z.string().min(1).max(1000),
      server: z.string().optional(),
      session: z.string().optional(),
      limit: limit(500, 50),
      /** Also search the history files, not only what is in memory. */
      history: z.boolean().default(true),
    }),
    z.object({ hits: z.array(captureEventSchema), truncated: z.boolean() }),
    'Full-text search (case-insensitive) across captured messages and stderr, newest first',
  ),
  'inspector.stats': call(
    z.object({ server: z.string().optional() }),
    z.object({ since: z.number(), servers: z.array(serverStatsSchema) }),
    'Per server since the engine started: calls, errors, cancellations, timeouts, p50/p95 latency',
  ),
  'inspector.export': call(
    z.object({ session: z.string(), format: z.enum(['jsonl', 'har']) }),
    z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
    'A session as JSONL (summary, then every event) or as a HAR 1.2 log of its exchanges',
  ),
  'inspector.replay': call(
    z.object({
      session: z.string(),
      /** The exchange id (`<session>/<requestSeq>`) of a client request. */
      exchange: z.string(),
      /** Params to send instead of the captured ones (replay with edited arguments). */
      params: z.record(z.string(), z.unknown()).optional(),
      timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    }),
    z.object({
      original: exchangeSchema,
      replay: z.object({
        session: z.string(),
        request: z.unknown(),
        response: z.unknown().optional(),
        status: exchangeStatusSchema,
        latencyMs: z.number(),
        error: z.string().optional(),
      }),
    }),
    'Re-sends one captured request to its (still configured) server through a fresh session the hub opens, and returns the new response beside the old',
  ),
  'inspector.raw.get': call(
    z.object({ session: z.string() }),
    rawStreamSchema,
    "The raw stream of a session: the bytes the hub wrote to its client (each response's head, SSE events with their ids, priming events, keep-alives, JSON bodies), redacted, while recording is on",
  ),
  'inspector.raw.set': call(
    z.object({ enabled: z.boolean() }),
    z.object({ enabled: z.boolean(), maxBytesPerSession: z.number().int() }),
    'Turns recording of the raw stream on or off (until the hub restarts); streams opened from then on are recorded',
  ),
} as const;

/**
 * The live subscription: `GET /api/inspector/live?cursor=<seq>&server=<id>&session=<id>&view=events|exchanges`
 * (hub token required). Server-sent events: first `event: ready` with `{cursor, complete}`, then
 * `event: capture` with `id: <seq>` and a CaptureEvent as data, in seq order, each exactly once.
 * Reconnect with `?cursor=<last id seen>` (or `Last-Event-ID`): what was missed is replayed from
 * memory, then from the history files. Without a cursor the stream starts at the present.
 * `complete: false` means events after the cursor were dropped or expired. `view=exchanges` sends
 * only events that complete an exchange (what `patchbay tail` prints).
 */
export const inspectorLiveStream = {
  path: '/api/inspector/live',
  query: z.object({
    cursor: z.coerce.number().int().min(0).optional(),
    server: z.string().optional(),
    session: z.string().optional(),
    view: z.enum(['events', 'exchanges']).default('events'),
  }),
  ready: z.object({ cursor: z.number().int(), complete: z.boolean() }),
  event: captureEventSchema,
} as const;

export type CaptureLeg = z.infer<typeof captureLegSchema>;
export type CaptureDirection = z.infer<typeof captureDirectionSchema>;
export type CaptureOrigin = z.infer<typeof captureOriginSchema>;
export type CaptureKind = z.infer<typeof captureKindSchema>;
export type CaptureHttp = z.infer<typeof captureHttpSchema>;
export type CaptureEvent = z.infer<typeof captureEventSchema>;
export type InspectorSession = z.infer<typeof inspectorSessionSchema>;
export type InspectorSessionState = z.infer<typeof inspectorSessionStateSchema>;
export type ExchangeStatus = z.infer<typeof exchangeStatusSchema>;
export type ExchangeSummary = z.infer<typeof exchangeSummarySchema>;
export type Exchange = z.infer<typeof exchangeSchema>;
export type ProgressEntry = z.infer<typeof progressEntrySchema>;
export type CaptureEra = z.infer<typeof captureEraSchema>;
export type InputRound = z.infer<typeof inputRoundSchema>;
export type ExchangeBridge = z.infer<typeof exchangeBridgeSchema>;
export type ServerStats = z.infer<typeof serverStatsSchema>;
export type ExchangeTiming = z.infer<typeof exchangeTimingSchema>;
export type RawChunk = z.infer<typeof rawChunkSchema>;
export type RawStream = z.infer<typeof rawStreamSchema>;
