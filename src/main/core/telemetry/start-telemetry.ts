/**
 * OpenTelemetry export of what the hub does (docs/observability.md): traces and metrics in the
 * MCP semantic conventions, over OTLP, to the collector the user named. The engine imports this
 * module only when telemetry is on (a dynamic import), so with it off neither this folder nor
 * any `@opentelemetry/*` package is loaded, and the hub's per-message path does nothing more.
 *
 * How it works: the hub asks the tracer (request-sampler.ts) for the ids of every client request
 * it forwards and puts them in the request's `_meta` (hub/tracing.ts); the capture pipeline pairs
 * the exchanges and hands each completed one, with those ids and its times, to the listener here
 * (traffic.onExchange), which records the duration metrics and builds the spans after the fact
 * (exchange-spans.ts) for the SDK's OTLP exporter (span-queue.ts). Exports are batched and
 * asynchronous: a collector that is down or slow drops spans (counted, said once), never a call.
 */
import { defaultResource, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { ExportResultCode } from '@opentelemetry/core';
import type { TelemetryExporterState } from '../../../shared/api/telemetry-contract.js';
import type { TelemetrySettings } from '../../../shared/config-schema.js';
import type { RequestTracer } from '../hub/tracing.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { EndedSession } from '../traffic/exchange-feed.js';
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import type { Traffic } from '../traffic/traffic.js';
import { isStage, type AttributeContext, type PeerAddress } from './exchange-attributes.js';
import { exchangeSpans, type SpanSource } from './exchange-spans.js';
import { ExportHealth, type DropCounts } from './export-health.js';
import { McpMetrics } from './mcp-metrics.js';
import { metricExporter, spanExporter } from './otlp-exporters.js';
import { requestTracer } from './request-sampler.js';
import { SpanEvents } from './span-events.js';
import { SpanQueue } from './span-queue.js';
import { resolveTelemetryConfig, type TelemetryConfig } from './telemetry-config.js';

export interface TelemetryOptions {
  /** The config's `telemetry` block. */
  settings: TelemetrySettings | undefined;
  /** The environment (OTEL_* variables); the engine passes process.env. */
  env: Readonly<Record<string, string | undefined>>;
  secrets: SecretStore;
  /** The capture pipeline: telemetry subscribes to its completed exchanges and ended sessions. */
  traffic: Traffic;
  /** A server's configured URL (a remote's `server.address` and `server.port`); undefined for stdio. */
  serverUrl(serverId: string): string | undefined;
  /** Patchbay's version (`service.version`, the instrumentation scope's version). */
  version: string;
  /** This replica's id (`--replica-id`): its `service.instance.id`, unless the resource attributes name one. */
  replicaId?: string;
  logger: Logger;
}

/** Telemetry while it runs. */
export interface Telemetry {
  /** What the hub asks for the ids of every forwarded request (EngineOptions.tracer). */
  readonly tracer: RequestTracer;
  readonly config: TelemetryConfig;
  /** What was dropped since start (the collector down or slow). */
  readonly dropped: Readonly<DropCounts>;
  /** The exporter's state for the Settings panel (telemetry.settings): counts, last error, where it sends. */
  state(): TelemetryExporterState;
  /** Unsubscribes, then sends what is pending, waiting at most `timeoutMs` (default 2 s): never hangs. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The SDK's defaults (telemetry.sdk.*), Patchbay's version, a replica's id as
 * `service.instance.id` (so one backend tells the replicas behind a load balancer apart), the
 * resource attributes and `service.name` (telemetry-config.ts).
 */
function resourceOf(config: TelemetryConfig, version: string, replicaId: string | undefined): Resource {
  return defaultResource().merge(resourceFromAttributes({ 'service.version': version, ...(replicaId !== undefined ? { 'service.instance.id': replicaId } : {}), ...config.resourceAttributes, 'service.name': config.serviceName }));
}

/** A metric exporter whose results the health hears. */
function watchedMetrics(inner: PushMetricExporter, health: ExportHealth): PushMetricExporter {
  const out: PushMetricExporter = {
    export: (metrics, done) =>
      inner.export(metrics, (result) => {
        if (result.code === ExportResultCode.SUCCESS) health.succeeded('metrics');
        else health.failed('metrics', 0, result.error);
        done(result);
      }),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
  if (inner.selectAggregationTemporality) out.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
  return out;
}

/** A remote's host and port from its URL, once per URL. */
function peerFinder(serverUrl: (id: string) => string | undefined): (serverId: string) => PeerAddress | undefined {
  const byUrl = new Map<string, PeerAddress | undefined>();
  return (serverId) => {
    const url = serverUrl(serverId);
    if (url === undefined) return undefined;
    if (byUrl.has(url)) return byUrl.get(url);
    let peer: PeerAddress | undefined;
    try {
      const u = new URL(url);
      peer = { address: u.hostname.replace(/^\[|\]$/g, ''), port: u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
    } catch {
      peer = undefined;
    }
    if (byUrl.size > 256) byUrl.clear();
    byUrl.set(url, peer);
    return peer;
  };
}

/** Starts exporting; throws (naming what is wrong, never a secret) when the settings cannot work. */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const log = options.logger;
  const config = await resolveTelemetryConfig(options.settings, options.env, options.secrets, log);
  // Every endpoint given was unusable (said above), or both signals are `none`: nothing to do.
  if (config.tracesUrl === undefined && config.metricsUrl === undefined) throw new Error('no usable OTLP endpoint for traces or metrics');
  const health = new ExportHealth(log, [config.tracesUrl, config.metricsUrl].filter((u) => u !== undefined).join(', '));
  const resource = resourceOf(config, options.version, options.replicaId);
  const scope = { name: 'patchbay', version: options.version };

  const spans = config.tracesUrl === undefined ? undefined : new SpanQueue(await spanExporter(config.protocol, config.tracesUrl, config.headers), health, { maxQueued: config.maxQueuedSpans, batchSize: config.batchSize, delayMs: config.spanDelayMs, exportTimeoutMs: 30_000 });
  let meters: MeterProvider | undefined;
  let metrics: McpMetrics | undefined;
  if (config.metricsUrl !== undefined) {
    const exporter = watchedMetrics(await metricExporter(config.protocol, config.metricsUrl, config.headers), health);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: config.metricIntervalMs, exportTimeoutMillis: Math.min(config.metricIntervalMs, 10_000) });
    meters = new MeterProvider({ resource, readers: [reader] });
    metrics = new McpMetrics(meters.getMeter('patchbay', options.version));
  }

  const redactor = options.traffic.redactor;
  const redact = (text: string): string => redactor.redact(text);
  const peerOf = peerFinder(options.serverUrl);
  const events = new SpanEvents(config.captureContent);
  const source: SpanSource = { resource, scope, captureContent: config.captureContent };
  const contextOf = (x: ObservedExchange): AttributeContext => ({ redact, peer: peerOf(x.session.serverId) });

  // Runs in the pipeline's drain: it must not block (the queue only queues; the histograms only add).
  const onExchange = (x: ObservedExchange): void => {
    if (x.requester === 'server') {
      if (spans !== undefined && x.parent !== undefined) events.nested(x);
      return;
    }
    const ctx = contextOf(x);
    metrics?.exchange(x, ctx);
    if (spans !== undefined) {
      const ev = events.of(x);
      const trace = x.trace;
      if (trace?.sampled !== true) return;
      // A collector that is down or slow fills the queue: count what would be dropped, build nothing.
      if (spans.full) spans.dropped((isStage(x.session) ? 0 : 1) + (trace.clientSpanId !== undefined ? 1 : 0));
      else spans.add(exchangeSpans(x, ev, ctx, source));
    }
  };
  const offExchanges = options.traffic.onExchange(onExchange, config.captureContent ? { texts: true } : {});
  const offSessions = metrics === undefined ? () => undefined : options.traffic.onSessionEnded((ended: EndedSession) => metrics!.sessionEnded(ended, peerOf(ended.session.serverId)));
  log.info(`telemetry on: ${config.protocol} to ${[config.tracesUrl && `traces ${config.tracesUrl}`, config.metricsUrl && `metrics ${config.metricsUrl}`].filter(Boolean).join(', ')} (sampler ${config.sampler}${config.sampler.endsWith('traceidratio') ? ` ${config.samplerArg}` : ''}${config.captureContent ? ', with tool arguments and results' : ''})`);

  let closing: Promise<void> | undefined;
  const startedAt = new Date().toISOString();
  return {
    tracer: requestTracer(config.sampler, config.samplerArg),
    config,
    dropped: health.dropped,
    state: () => ({
      active: closing === undefined,
      startedAt,
      // The endpoints only: header values (API keys) never leave the exporter.
      endpoint: [config.tracesUrl, config.metricsUrl].filter((u) => u !== undefined).join(', '),
      protocol: config.protocol,
      dropped: { ...health.dropped },
      exported: { ...health.exported },
      ...(health.lastError ? { lastError: { ...health.lastError } } : {}),
      followsConfig: false,
    }),
    close: (timeoutMs = 2000) => {
      closing ??= (async () => {
        offExchanges();
        offSessions();
        // What the pipeline still holds has been handed over by now (the engine closes capture first).
        const metricsDone = meters === undefined ? Promise.resolve() : meters.shutdown({ timeoutMillis: timeoutMs }).catch(() => undefined);
        let stop: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => (stop = setTimeout(resolve, timeoutMs + 250)));
        await Promise.race([Promise.all([spans?.close(timeoutMs), metricsDone]), deadline]);
        clearTimeout(stop);
        if (health.dropped.spans > 0 || health.dropped.metricExports > 0) log.info(`telemetry: ${health.dropped.spans} spans and ${health.dropped.metricExports} metric exports dropped since start`);
      })();
      return closing;
    },
  };
}
