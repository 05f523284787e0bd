/**
 * The pipeline's limits. They are set in config.json's `inspector` section, where they have
 * always been (the inspector was the pipeline until the traffic layer took it over): the queue
 * the taps fill, the longest message text kept whole, the exchanges kept per session.
 */
import type { InspectorSettings } from '../../../shared/config-schema.js';

export interface TrafficLimits {
  /** Items waiting to be processed; past this the taps drop and count. */
  maxQueue: number;
  /** A message larger than this is kept (and handed on) as a redacted prefix. */
  maxMessageBytes: number;
  /** Exchanges a session's pairing keeps (the inspector keeps as many events per session). */
  maxExchangesPerSession: number;
  /** Env and header names whose values are secrets, besides the built-in pattern (redactor.ts). */
  secretNames: string[];
}

export const DEFAULT_TRAFFIC_LIMITS: TrafficLimits = {
  maxQueue: 50_000,
  maxMessageBytes: 1024 * 1024,
  maxExchangesPerSession: 10_000,
  secretNames: [],
};

export function trafficLimits(settings: InspectorSettings | undefined): TrafficLimits {
  const s = settings ?? {};
  return {
    ...DEFAULT_TRAFFIC_LIMITS,
    ...(s.maxMessageBytes !== undefined ? { maxMessageBytes: s.maxMessageBytes } : {}),
    ...(s.maxEventsPerSession !== undefined ? { maxExchangesPerSession: s.maxEventsPerSession } : {}),
    ...(s.secretNames !== undefined ? { secretNames: s.secretNames } : {}),
  };
}
