/**
 * An OTLP receiver for the telemetry tests, on loopback: HTTP (`/v1/traces`, `/v1/metrics`, in
 * protobuf or JSON) or gRPC (the TraceService and MetricsService `Export` methods). What it gets
 * is decoded with the official OTLP definitions — the protobuf code generated from
 * open-telemetry/opentelemetry-proto that @opentelemetry/otlp-transformer shipped (installed as
 * `otlp-proto-definitions`, docs/dependencies.md) — never by hand: protobuf bodies with
 * `decode`, JSON bodies with `fromObject` (after the one OTLP/JSON rule protobuf's JSON mapping
 * lacks: ids are hex, not base64). Both are then read the same way.
 */
import * as grpc from '@grpc/grpc-js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { onCleanup } from '../helpers/cleanup.js';

/** What this needs of a generated message type. */
interface MessageType {
  decode(bytes: Uint8Array): object;
  encode(message: object): { finish(): Uint8Array };
  fromObject(json: object): object;
  toObject(message: object, options: Record<string, unknown>): Record<string, unknown>;
  create(properties?: object): object;
  getTypeUrl(prefix?: string): string;
}

type Namespace = Record<string, MessageType & Record<string, unknown>>;
const root = createRequire(import.meta.url)('otlp-proto-definitions/build/src/generated/root.js') as { opentelemetry: { proto: { collector: Record<'trace' | 'metrics', { v1: Namespace }> } } };
const collector = root.opentelemetry.proto.collector;
const TYPES = {
  traces: { request: collector.trace.v1.ExportTraceServiceRequest!, response: collector.trace.v1.ExportTraceServiceResponse!, service: 'TraceService' },
  metrics: { request: collector.metrics.v1.ExportMetricsServiceRequest!, response: collector.metrics.v1.ExportMetricsServiceResponse!, service: 'MetricsService' },
};

export type Attrs = Record<string, unknown>;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 2 SERVER, 3 CLIENT. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attrs;
  events: Array<{ name: string; timeNs: bigint; attributes: Attrs }>;
  status: { code: number; message?: string };
  resource: Attrs;
  scope: string;
}

export interface ReceivedPoint {
  attributes: Attrs;
  count: number;
  sum: number;
  explicitBounds: number[];
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  points: ReceivedPoint[];
}

const toObjectOptions = { longs: String, enums: Number, bytes: String, defaults: false, arrays: true };

/** An AnyValue (as toObject gives it) as a plain value. */
function valueOf(v: Record<string, unknown> | undefined): unknown {
  if (v === undefined) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return ((v.arrayValue as { values?: Array<Record<string, unknown>> }).values ?? []).map(valueOf);
  return undefined;
}

function attrsOf(list: unknown): Attrs {
  const out: Attrs = {};
  for (const kv of (list as Array<{ key: string; value?: Record<string, unknown> }> | undefined) ?? []) out[kv.key] = valueOf(kv.value);
  return out;
}

const hex = (base64: unknown): string | undefined => (typeof base64 === 'string' && base64 !== '' ? Buffer.from(base64, 'base64').toString('hex') : undefined);

/** OTLP/JSON writes ids in hex; protobuf's JSON mapping (fromObject) reads bytes as base64. */
function hexIdsToBase64(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIdsToBase64);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = (k === 'traceId' || k === 'spanId' || k === 'parentSpanId') && typeof v === 'string' ? Buffer.from(v, 'hex').toString('base64') : hexIdsToBase64(v);
  return out;
}

function spansOf(request: Record<string, unknown>): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (request.resourceSpans as Array<Record<string, unknown>> | undefined) ?? []) {
    const resource = attrsOf((rs.resource as { attributes?: unknown } | undefined)?.attributes);
    for (const ss of (rs.scopeSpans as Array<Record<string, unknown>> | undefined) ?? []) {
      const scope = String((ss.scope as { name?: string } | undefined)?.name ?? '');
      for (const s of (ss.spans as Array<Record<string, unknown>> | undefined) ?? []) {
        const status = (s.status as { code?: number; message?: string } | undefined) ?? {};
        out.push({
          traceId: hex(s.traceId)!,
          spanId: hex(s.spanId)!,
          parentSpanId: hex(s.parentSpanId),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          startNs: BigInt(String(s.startTimeUnixNano ?? 0)),
          endNs: BigInt(String(s.endTimeUnixNano ?? 0)),
          attributes: attrsOf(s.attributes),
          events: ((s.events as Array<Record<string, unknown>> | undefined) ?? []).map((e) => ({ name: String(e.name), timeNs: BigInt(String(e.timeUnixNano ?? 0)), attributes: attrsOf(e.attributes) })),
          status: { code: status.code ?? 0, ...(status.message ? { message: status.message } : {}) },
          resource,
          scope,
        });
      }
    }
  }
  return out;
}

function metricsOf(request: Record<string, unknown>): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of (request.resourceMetrics as Array<Record<string, unknown>> | undefined) ?? []) {
    for (const sm of (rm.scopeMetrics as Array<Record<string, unknown>> | undefined) ?? []) {
      for (const m of (sm.metrics as Array<Record<string, unknown>> | undefined) ?? []) {
        const histogram = m.histogram as { dataPoints?: Array<Record<string, unknown>> } | undefined;
        out.push({
          name: String(m.name),
          unit: String(m.unit ?? ''),
          points: (histogram?.dataPoints ?? []).map((p) => ({ attributes: attrsOf(p.attributes), count: Number(p.count ?? 0), sum: Number(p.sum ?? 0), explicitBounds: (p.explicitBounds as number[] | undefined) ?? [] })),
        });
      }
    }
  }
  return out;
}

export type ReceiverProtocol = 'http/protobuf' | 'http/json' | 'grpc';

export interface OtlpReceiver {
  /** The endpoint to configure (`http://127.0.0.1:<port>`). */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  /** Content types of the HTTP requests received (to check the protocol used). */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

function record(signal: 'traces' | 'metrics', message: object, into: OtlpReceiver): void {
  const plain = TYPES[signal].request.toObject(message, toObjectOptions);
  if (signal === 'traces') into.spans.push(...spansOf(plain));
  else into.metrics.push(...metricsOf(plain));
}

/** Starts a receiver for `protocol` on a loopback port (`port`, else a free one); closed after the test. */
export async function startReceiver(protocol: ReceiverProtocol, port = 0): Promise<OtlpReceiver> {
  const receiver = { spans: [] as ReceivedSpan[], metrics: [] as ReceivedMetric[], contentTypes: [] as string[] } as { -readonly [K in keyof OtlpReceiver]: OtlpReceiver[K] };
  if (protocol === 'grpc') {
    const server = new grpc.Server();
    for (const signal of ['traces', 'metrics'] as const) {
      const { request, response, service } = TYPES[signal];
      // The package of the service is the package of its request type (the generated code's type URL).
      const pkg = request.getTypeUrl('').replace(/^\//, '').replace(/\.[^.]+$/, '');
      const definition: grpc.ServiceDefinition = {
        Export: {
          path: `/${pkg}.${service}/Export`,
          requestStream: false,
          responseStream: false,
          requestSerialize: (m: object) => Buffer.from(request.encode(m).finish()),
          requestDeserialize: (b: Buffer) => request.decode(b),
          responseSerialize: (m: object) => Buffer.from(response.encode(m).finish()),
          responseDeserialize: (b: Buffer) => response.decode(b),
        },
      };
      server.addService(definition, {
        Export: (call: grpc.ServerUnaryCall<object, object>, callback: grpc.sendUnaryData<object>) => {
          record(signal, call.request, receiver);
          callback(null, response.create({}));
        },
      });
    }
    const bound = await new Promise<number>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
    receiver.endpoint = `http://127.0.0.1:${bound}`;
    receiver.close = () => new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  } else {
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const signal = req.url === '/v1/traces' ? 'traces' : req.url === '/v1/metrics' ? 'metrics' : undefined;
        if (req.method !== 'POST' || signal === undefined) return void res.writeHead(404).end();
        const type = String(req.headers['content-type'] ?? '');
        receiver.contentTypes.push(type);
        const body = Buffer.concat(chunks);
        const { request, response } = TYPES[signal];
        try {
          const json = type.includes('json');
          const message = json ? request.fromObject(hexIdsToBase64(JSON.parse(body.toString('utf8'))) as object) : request.decode(body);
          record(signal, message, receiver);
          if (json) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(response.encode(response.create({})).finish()));
        } catch (err) {
          res.writeHead(400).end((err as Error).message);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    receiver.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    receiver.close = () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    };
  }
  onCleanup(() => receiver.close());
  return receiver;
}
