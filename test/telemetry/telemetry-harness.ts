/**
 * What the telemetry tests share: a hub exporting to a receiver of the test's (otlp-receiver.ts),
 * with short export delays, and ways to wait for and find what arrived.
 */
import { startHub, type HubOptions, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import type { OtlpReceiver, ReceivedSpan, ReceiverProtocol } from './otlp-receiver.js';

// Spans leave within 50 ms, metrics every 300 ms (the defaults are 5 s and 60 s). Each test file
// runs in a process of its own (vitest's forks pool), so this stays in the file that imports it.
process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
process.env.OTEL_METRIC_EXPORT_INTERVAL = '300';

/** OTLP's SpanKind values. */
export const SERVER = 2;
export const CLIENT = 3;
/** OTLP's status codes. */
export const STATUS_ERROR = 2;

export const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
export const CLIENT_SPAN = '00f067aa0ba902b7';
/** A client's W3C context: trace TRACE, its span CLIENT_SPAN, sampled. */
export function traceparent(trace = TRACE, span = CLIENT_SPAN): string {
  return `00-${trace}-${span}-01`;
}

/** A hub whose telemetry exports to `receiver` over `protocol` (plus whatever else the test configures). */
export async function telemetryHub(receiver: OtlpReceiver, protocol: ReceiverProtocol, options: HubOptions, telemetry: Record<string, unknown> = {}): Promise<TestHub> {
  return startHub({ ...options, config: { ...options.config, telemetry: { endpoint: receiver.endpoint, protocol, ...telemetry } } });
}

/** Waits until `find` finds something among the spans received. */
export async function spansWhere(receiver: OtlpReceiver, find: (spans: ReceivedSpan[]) => ReceivedSpan[] | undefined, what: string): Promise<ReceivedSpan[]> {
  return waitFor(() => find(receiver.spans), what);
}

/** The spans of one trace, once at least `count` arrived. */
export async function traceSpans(receiver: OtlpReceiver, traceId: string, count: number): Promise<ReceivedSpan[]> {
  return spansWhere(receiver, (spans) => {
    const found = spans.filter((s) => s.traceId === traceId);
    return found.length >= count ? found : undefined;
  }, `${count} spans of trace ${traceId}`);
}

/** The one span with this name and kind (and, when given, matching `where`). */
export async function spanNamed(receiver: OtlpReceiver, name: string, kind: number, where: (s: ReceivedSpan) => boolean = () => true): Promise<ReceivedSpan> {
  const [span] = await spansWhere(receiver, (spans) => {
    const found = spans.filter((s) => s.name === name && s.kind === kind && where(s));
    return found.length > 0 ? found : undefined;
  }, `a ${kind === SERVER ? 'SERVER' : 'CLIENT'} span '${name}'`);
  return span!;
}

/** The CLIENT span whose parent is `parent`. */
export function childOf(spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((s) => s.parentSpanId === parent.spanId);
}
