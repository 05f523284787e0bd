import { describe, expect, it } from 'vitest';
import { telemetrySettingsSchema } from '../config-schema.js';
import { appCallNames } from './app-contract.js';
import { telemetryContract, telemetryUpdateSchema, traceViewerLink } from './telemetry-contract.js';

const messages = (input: unknown): string[] => {
  const r = telemetryUpdateSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('telemetry contract', () => {
  it('is part of the app contract (so both bridges and the preload carry it)', () => {
    for (const name of Object.keys(telemetryContract)) expect(appCallNames).toContain(name);
  });

  it('telemetry.update takes every field of the shared schema, and null to remove one', () => {
    const full = {
      enabled: true,
      endpoint: 'http://localhost:4318',
      tracesEndpoint: 'http://localhost:4318/v1/traces',
      metricsEndpoint: 'https://collector.example/v1/metrics',
      protocol: 'grpc',
      headers: { authorization: '${secret:OTLP_TOKEN}', 'x-team': 'obs' },
      serviceName: 'patchbay-dev',
      resourceAttributes: { 'deployment.environment': 'dev' },
      sampler: 'parentbased_traceidratio',
      samplerArg: 0.5,
      captureContent: false,
      traceViewerUrl: 'http://localhost:16686/trace/{traceId}',
    };
    expect(messages(full)).toEqual([]);
    // What it accepts the config schema accepts too: the store validates the block again.
    expect(telemetrySettingsSchema.safeParse(full).success).toBe(true);
    expect(Object.keys(telemetryUpdateSchema.shape).sort()).toEqual(Object.keys(telemetrySettingsSchema.shape).sort());
    expect(messages(Object.fromEntries(Object.keys(full).map((k) => [k, null])))).toEqual([]);
    expect(messages({})).toEqual([]);
  });

  it('says clearly what is wrong', () => {
    expect(messages({ endpoint: 'localhost:4318' })).toEqual(['endpoint: use an http(s) URL, e.g. http://localhost:4318']);
    expect(messages({ endpoint: 'javascript:alert(1)' })).toEqual(['endpoint: use an http(s) URL, e.g. http://localhost:4318']);
    expect(messages({ traceViewerUrl: 'http://localhost:16686/trace/' })).toEqual(['traceViewerUrl: the URL must contain {traceId}, e.g. http://localhost:16686/trace/{traceId}']);
    expect(messages({ traceViewerUrl: 'javascript:open("{traceId}")' })).toEqual(['traceViewerUrl: use an http(s) URL with {traceId} in it, e.g. http://localhost:16686/trace/{traceId}']);
    expect(messages({ samplerArg: 2 })).toHaveLength(1);
    expect(messages({ protocol: 'udp' })[0]).toMatch(/^protocol: /);
    expect(messages({ headers: { 'bad name': 'x' } })[0]).toMatch(/^headers\.bad name: a header name is/);
    expect(messages({ headers: { ok: 'two\nlines' } })).toEqual(['headers.ok: a header value is one line']);
    expect(messages({ serviceName: '' })).toHaveLength(1);
    expect(messages({ colour: 'blue' })).toEqual([': Unrecognized key: "colour"']);
  });

  it('openTrace takes a W3C trace id only', () => {
    const input = telemetryContract['telemetry.openTrace'].input;
    expect(input.safeParse({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }).success).toBe(true);
    expect(input.safeParse({ traceId: '4BF92F3577B34DA6A3CE929D0E0E4736' }).success).toBe(false);
    expect(input.safeParse({ traceId: '../../etc' }).success).toBe(false);
  });

  it('traceViewerLink substitutes the id, and gives no link for a template that is not http(s)', () => {
    expect(traceViewerLink('http://localhost:16686/trace/{traceId}', 'abc')).toBe('http://localhost:16686/trace/abc');
    expect(traceViewerLink('https://grafana.example/explore?trace={traceId}&again={traceId}', 'abc')).toBe('https://grafana.example/explore?trace=abc&again=abc');
    expect(traceViewerLink('javascript:alert("{traceId}")', 'abc')).toBeUndefined();
    expect(traceViewerLink('http://localhost:16686/', 'abc')).toBeUndefined();
    expect(traceViewerLink(undefined, 'abc')).toBeUndefined();
  });
});
