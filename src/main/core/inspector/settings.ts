/**
 * The inspector's limits; `inspector` in config.json overrides them. Memory is the fast cache
 * for the live view and recent search (10k events per session, 100k in all, 128 MiB of message
 * text): every event kept there is one more object for the garbage collector to copy and mark,
 * which is what capture costs the proxy most, and the history files hold the rest (16 MiB files,
 * 256 MiB and 7 days in all).
 */
import type { InspectorSettings } from '../../../shared/config-schema.js';
import { DEFAULT_TRAFFIC_LIMITS } from '../traffic/traffic-limits.js';

export interface InspectorLimits {
  enabled: boolean;
  maxEventsPerSession: number;
  maxEvents: number;
  maxMemoryBytes: number;
  /** A message larger than this is kept as a redacted prefix (the pipeline's limit: traffic/traffic-limits.ts). */
  maxMessageBytes: number;
  /** Items waiting to be processed; past this the tap drops and counts (the pipeline's queue). */
  maxQueue: number;
  /** Sessions remembered (summaries), live and past, in memory. */
  maxSessions: number;
  history: boolean;
  historyFileBytes: number;
  historyMaxBytes: number;
  historyMaxAgeMs: number;
  /** Bytes waiting to be written to disk; past this history lines are dropped and counted. */
  historyMaxPendingBytes: number;
  secretNames: string[];
}

const MiB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;

export const DEFAULT_INSPECTOR_LIMITS: InspectorLimits = {
  enabled: true,
  maxEventsPerSession: 10_000,
  maxEvents: 100_000,
  maxMemoryBytes: 128 * MiB,
  maxMessageBytes: DEFAULT_TRAFFIC_LIMITS.maxMessageBytes,
  maxQueue: DEFAULT_TRAFFIC_LIMITS.maxQueue,
  maxSessions: 20_000,
  history: true,
  historyFileBytes: 16 * MiB,
  historyMaxBytes: 256 * MiB,
  historyMaxAgeMs: 7 * DAY,
  historyMaxPendingBytes: 32 * MiB,
  secretNames: [],
};

export function inspectorLimits(settings: InspectorSettings | undefined, overrides: Partial<InspectorLimits> = {}): InspectorLimits {
  const s = settings ?? {};
  return {
    ...DEFAULT_INSPECTOR_LIMITS,
    ...(s.enabled !== undefined ? { enabled: s.enabled } : {}),
    ...(s.maxEventsPerSession !== undefined ? { maxEventsPerSession: s.maxEventsPerSession } : {}),
    ...(s.maxEvents !== undefined ? { maxEvents: s.maxEvents } : {}),
    ...(s.maxMemoryBytes !== undefined ? { maxMemoryBytes: s.maxMemoryBytes } : {}),
    ...(s.maxMessageBytes !== undefined ? { maxMessageBytes: s.maxMessageBytes } : {}),
    ...(s.history !== undefined ? { history: s.history } : {}),
    ...(s.historyFileBytes !== undefined ? { historyFileBytes: s.historyFileBytes } : {}),
    ...(s.historyMaxBytes !== undefined ? { historyMaxBytes: s.historyMaxBytes } : {}),
    ...(s.historyMaxAgeDays !== undefined ? { historyMaxAgeMs: s.historyMaxAgeDays * DAY } : {}),
    ...(s.secretNames !== undefined ? { secretNames: s.secretNames } : {}),
    ...overrides,
  };
}
