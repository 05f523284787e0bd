import { describe, expect, it } from 'vitest';
import { effectiveTelemetry, parseKeyValueList, redactUrl } from './telemetry-effective.js';

describe('effectiveTelemetry', () => {
  it('is off with nothing set, and says how to turn it on; defaults are named as defaults', () => {
    const e = effectiveTelemetry(undefined, {});
    expect(e.on).toBe(false);
    expect(e.reason).toBe("Off: no OTLP endpoint is set (in config.json, or OTEL_EXPORTER_OTLP_ENDPOINT in the hub's environment).");
    expect(e.endpoint).toEqual({ source: 'unset', variable: 'OTEL_EXPORTER_OTLP_ENDPOINT' });
    expect(e.protocol).toEqual({ value: 'http/protobuf', source: 'default', variable: 'OTEL_EXPORTER_OTLP_PROTOCOL' });
    expect(e.serviceName).toMatchObject({ value: 'patchbay', source: 'default' });
    expect(e.sampler).toMatchObject({ value: 'parentbased_always_on', source: 'default' });
    // No ratio sampler, so no ratio: an unset value is not shown as 1.
    expect(e.samplerArg).toEqual({ source: 'unset', variable: 'OTEL_TRACES_SAMPLER_ARG' });
    expect(e.captureContent).toEqual({ value: false, source: 'default' });
    expect(e.traceViewerUrl).toEqual({ source: 'unset' });
    expect(e.enabled).toMatchObject({ value: true, source: 'default' });
    expect(e.headers).toEqual([]);
    expect(e.problems).toEqual([]);
  });

  it('is on with an endpoint in config.json, and says where it comes from', () => {
    const e = effectiveTelemetry({ endpoint: 'http://collector:4318', sampler: 'parentbased_traceidratio', captureContent: true, traceViewerUrl: 'http://j/trace/{traceId}' }, {});
    expect(e.on).toBe(true);
    expect(e.reason).toBe('On: exporting to http://collector:4318 (from "endpoint" in config.json).');
    expect(e.endpoint).toEqual({ value: 'http://collector:4318', source: 'config', variable: 'OTEL_EXPORTER_OTLP_ENDPOINT' });
    // A ratio sampler with no ratio samples everything (the specification's default, 1.0).
    expect(e.samplerArg).toMatchObject({ value: 1, source: 'default' });
    expect(e.captureContent).toEqual({ value: true, source: 'config' });
    expect(e.traceViewerUrl).toEqual({ value: 'http://j/trace/{traceId}', source: 'config' });
  });

  it('the environment wins by default: each value names its variable, and what it overrides', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_SERVICE_NAME: 'from-env', OTEL_TRACES_SAMPLER: 'TraceIdRatio', OTEL_TRACES_SAMPLER_ARG: '0.25' };
    const e = effectiveTelemetry({ endpoint: 'http://cfg:4318', serviceName: 'from-config', protocol: 'grpc' }, env);
    expect(e.on).toBe(true);
    expect(e.reason).toBe("On: exporting to http://env:4318 (from OTEL_EXPORTER_OTLP_ENDPOINT in the hub's environment).");
    expect(e.endpoint).toEqual({ value: 'http://env:4318', source: 'environment', variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', overrides: 'config' });
    expect(e.serviceName).toMatchObject({ value: 'from-env', source: 'environment', overrides: 'config' });
    expect(e.protocol).toEqual({ value: 'grpc', source: 'config', variable: 'OTEL_EXPORTER_OTLP_PROTOCOL' });
    expect(e.sampler).toMatchObject({ value: 'traceidratio', source: 'environment' });
    expect(e.samplerArg).toMatchObject({ value: 0.25, source: 'environment' });
  });

  it('either place turns it off: OTEL_SDK_DISABLED=true, or "enabled": false', () => {
    const byEnv = effectiveTelemetry({ endpoint: 'http://cfg:4318', enabled: true }, { OTEL_SDK_DISABLED: 'TRUE' });
    expect(byEnv.on).toBe(false);
    expect(byEnv.reason).toBe("Off: OTEL_SDK_DISABLED=true in the hub's environment turns telemetry off.");
    expect(byEnv.enabled).toEqual({ value: false, source: 'environment', variable: 'OTEL_SDK_DISABLED', overrides: 'config' });
    const byConfig = effectiveTelemetry({ endpoint: 'http://cfg:4318', enabled: false }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' });
    expect(byConfig.on).toBe(false);
    expect(byConfig.reason).toBe('Off: "enabled" is false in the telemetry block of config.json.');
    expect(byConfig.enabled).toMatchObject({ value: false, source: 'config' });
    // Any other value of OTEL_SDK_DISABLED is not "true": it turns nothing off.
    expect(effectiveTelemetry({ endpoint: 'http://cfg:4318' }, { OTEL_SDK_DISABLED: 'false' }).on).toBe(true);
  });

  it('an empty variable is unset; a per-signal endpoint alone turns it on', () => {
    const e = effectiveTelemetry({}, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/v1/traces' });
    expect(e.endpoint.source).toBe('unset');
    expect(e.on).toBe(true);
    expect(e.reason).toContain('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  });

  it('environment values it cannot use are ignored and listed as problems', () => {
    const e = effectiveTelemetry({ protocol: 'http/json' }, { OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon', OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_TRACES_SAMPLER_ARG: '7', OTEL_EXPORTER_OTLP_ENDPOINT: 'file:///tmp/x' });
    expect(e.protocol).toMatchObject({ value: 'http/json', source: 'config' });
    expect(e.sampler.source).toBe('default');
    expect(e.endpoint.source).toBe('unset');
    expect(e.on).toBe(false);
    expect(e.problems).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: ignored',
      'OTEL_EXPORTER_OTLP_PROTOCOL=carrier-pigeon is not one of http/protobuf, http/json, grpc: ignored',
      'OTEL_TRACES_SAMPLER=jaeger_remote is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio: ignored',
      'OTEL_TRACES_SAMPLER_ARG=7 is not a number from 0 to 1: ignored',
    ]);
  });

  it('headers: names only, never values; a config value that references a stored key says which', () => {
    const env = { OTEL_EXPORTER_OTLP_HEADERS: 'x-env=env-secret-value,authorization=Bearer%20env-token' };
    const config = { endpoint: 'http://cfg:4318', headers: { authorization: '${secret:OTLP_TOKEN}', 'x-team': 'obs' } };
    const e = effectiveTelemetry(config, env);
    expect(e.headers).toEqual([
      { name: 'authorization', source: 'environment', overrides: 'config' },
      { name: 'x-team', source: 'config' },
      { name: 'x-env', source: 'environment' },
    ]);
    expect(JSON.stringify(e)).not.toMatch(/env-secret-value|env-token|obs/);
    expect(effectiveTelemetry(config, {}).headers).toContainEqual({ name: 'authorization', source: 'config', secret: 'OTLP_TOKEN' });
    expect(effectiveTelemetry({ headers: { authorization: 'Bearer ${secret:OTLP_TOKEN}' } }, {}).headers).toEqual([{ name: 'authorization', source: 'config', secret: 'OTLP_TOKEN' }]);
  });

  it('service name: OTEL_SERVICE_NAME, else service.name among the resource attributes; attributes are merged', () => {
    const e = effectiveTelemetry({ resourceAttributes: { 'deployment.environment': 'dev', team: 'cfg' } }, { OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=env' });
    expect(e.serviceName).toMatchObject({ value: 'from-attrs', source: 'environment' });
    expect(e.resourceAttributes).toMatchObject({ value: 'deployment.environment=dev,team=env,service.name=from-attrs', source: 'environment', overrides: 'config' });
    expect(effectiveTelemetry({ resourceAttributes: { 'service.name': 'cfg-svc' } }, {}).serviceName).toMatchObject({ value: 'cfg-svc', source: 'config' });
  });

  it('never shows an endpoint password', () => {
    const e = effectiveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:hunter2@collector.example:4318' });
    expect(JSON.stringify(e)).not.toContain('hunter2');
    expect(e.endpoint.value).toBe('https://user:***@collector.example:4318/');
    expect(redactUrl('http://collector:4318')).toBe('http://collector:4318');
  });
});

describe('parseKeyValueList', () => {
  it('reads key=value pairs, percent-decoded, and reports a bad entry by position only', () => {
    const problems: string[] = [];
    const map = parseKeyValueList('a=1, b%20c = x%2Cy ,,=orphan-value,noequals', 'OTEL_EXPORTER_OTLP_HEADERS', problems);
    expect([...map!]).toEqual([
      ['a', '1'],
      ['b c', 'x,y'],
    ]);
    expect(problems).toEqual(['OTEL_EXPORTER_OTLP_HEADERS has an entry that is not key=value: ignored', 'OTEL_EXPORTER_OTLP_HEADERS has an entry that is not key=value: ignored']);
    expect(problems.join()).not.toContain('orphan-value');
    expect(parseKeyValueList(undefined, 'X', problems)).toBeUndefined();
  });
});
