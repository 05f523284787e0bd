import { describe, expect, it } from 'vitest';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { parseKeyValueList, resolveTelemetryConfig } from './telemetry-config.js';

// Bad variables are said with a warning; quiet here.
const log: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => log };
function store(values: Record<string, string>): SecretStore {
  return { get: async (n) => values[n], set: async () => undefined, delete: async () => false, list: async () => Object.keys(values).sort() };
}

describe('telemetry settings: the environment over the config block', () => {
  it('endpoints per signal, /v1/<signal> over HTTP, as given for gRPC; the environment wins', async () => {
    const c = await resolveTelemetryConfig({ endpoint: 'http://config:4318/' }, {}, store({}), log);
    expect(c).toMatchObject({ tracesUrl: 'http://config:4318/v1/traces', metricsUrl: 'http://config:4318/v1/metrics', protocol: 'http/protobuf', serviceName: 'patchbay', sampler: 'parentbased_always_on', samplerArg: 1, captureContent: false });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:9/x', OTEL_SERVICE_NAME: 'from-env' };
    const e = await resolveTelemetryConfig({ endpoint: 'http://config:4318', protocol: 'http/json', tracesEndpoint: 'http://traces:1/t', serviceName: 'from-config' }, env, store({}), log);
    expect(e).toMatchObject({ protocol: 'grpc', tracesUrl: 'http://traces:1/t', metricsUrl: 'http://metrics:9/x', serviceName: 'from-env' });
    const none = await resolveTelemetryConfig({ endpoint: 'http://c:1' }, { OTEL_TRACES_EXPORTER: 'none' }, store({}), log);
    expect(none.tracesUrl).toBeUndefined();
    expect(none.metricsUrl).toBe('http://c:1/v1/metrics');
  });

  it('headers: the config’s secrets resolved, the environment’s win key by key; a missing secret is refused by name', async () => {
    const c = await resolveTelemetryConfig({ endpoint: 'http://c:1', headers: { authorization: 'Bearer ${secret:OTLP_TOKEN}', 'x-team': 'a' } }, { OTEL_EXPORTER_OTLP_HEADERS: 'x-team=b%20c' }, store({ OTLP_TOKEN: 's3cret' }), log);
    expect(c.headers).toEqual({ authorization: 'Bearer s3cret', 'x-team': 'b c' });
    await expect(resolveTelemetryConfig({ endpoint: 'http://c:1', headers: { authorization: '${secret:NOPE}' } }, {}, store({}), log)).rejects.toThrow(/NOPE/);
  });

  it('resource attributes merged (the environment’s win), service.name from them; bad variables ignored', async () => {
    const c = await resolveTelemetryConfig({ endpoint: 'http://c:1', resourceAttributes: { a: '1', b: '2' }, sampler: 'traceidratio', samplerArg: 0.5 }, { OTEL_RESOURCE_ATTRIBUTES: 'b=3,service.name=svc,broken', OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_TRACES_SAMPLER_ARG: '2', OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' }, store({}), log);
    expect(c).toMatchObject({ resourceAttributes: { a: '1', b: '3', 'service.name': 'svc' }, serviceName: 'svc', sampler: 'traceidratio', samplerArg: 0.5, protocol: 'http/protobuf' });
    expect(parseKeyValueList('k=v%3D1, =x,y')).toEqual({ k: 'v=1' });
  });
});
