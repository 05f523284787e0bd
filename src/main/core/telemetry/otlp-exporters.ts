/**
 * The SDK's OTLP exporters for the protocol the user chose — `http/protobuf` (the default),
 * `http/json` or `grpc` — each loaded only when chosen (a dynamic import per protocol), so a hub
 * exporting over HTTP never loads gRPC. The URLs and the config's headers are given explicitly
 * (the config wins over the environment); everything else the exporters read from OTEL_* as the
 * SDK documents (OTEL_EXPORTER_OTLP_HEADERS, timeouts, compression, certificates).
 */
import type { Metadata } from '@grpc/grpc-js';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpProtocol } from './telemetry-config.js';

/** gRPC takes headers as metadata. */
async function grpcMetadata(headers: Readonly<Record<string, string>>): Promise<Metadata> {
  const grpc = await import('@grpc/grpc-js');
  const metadata = new grpc.Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
  return metadata;
}

/** The span exporter for `url` over `protocol`. */
export async function spanExporter(protocol: OtlpProtocol, url: string, headers: Readonly<Record<string, string>>): Promise<SpanExporter> {
  switch (protocol) {
    case 'http/protobuf': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter({ url, headers: { ...headers } });
    }
    case 'http/json': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url, headers: { ...headers } });
    }
    case 'grpc': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
      return new OTLPTraceExporter({ url, metadata: await grpcMetadata(headers) });
    }
  }
}

/** The metric exporter for `url` over `protocol` (cumulative temporality, the SDK's default). */
export async function metricExporter(protocol: OtlpProtocol, url: string, headers: Readonly<Record<string, string>>): Promise<PushMetricExporter> {
  switch (protocol) {
    case 'http/protobuf': {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
      return new OTLPMetricExporter({ url, headers: { ...headers } });
    }
    case 'http/json': {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
      return new OTLPMetricExporter({ url, headers: { ...headers } });
    }
    case 'grpc': {
      const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-grpc');
      return new OTLPMetricExporter({ url, metadata: await grpcMetadata(headers) });
    }
  }
}
