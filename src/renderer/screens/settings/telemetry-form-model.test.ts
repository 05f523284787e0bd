import { describe, expect, it } from 'vitest';
import { traceViewerLink } from '../../../shared/trace-viewer.js';
import { errorsFromMessage, modelFrom, toPatch, validate } from './telemetry-form-model.js';

describe('telemetry form model', () => {
  it('an empty block: defaults shown as empty fields, and saving it unchanged removes nothing it does not edit', () => {
    const model = modelFrom({});
    expect(model).toMatchObject({ enabled: true, endpoint: '', protocol: '', headers: [], captureContent: false, traceViewerUrl: '' });
    expect(validate(model)).toEqual({});
    // Every edited field is sent (null: not set); keys the form does not edit are not.
    expect(toPatch(model, {})).toEqual({ enabled: null, endpoint: null, protocol: null, headers: null, serviceName: null, sampler: null, samplerArg: null, captureContent: null, traceViewerUrl: null });
  });

  it('round-trips a block: secret references stay references, explicit defaults are kept', () => {
    const stored = {
      enabled: true,
      endpoint: 'http://localhost:4318',
      protocol: 'grpc' as const,
      headers: { authorization: '${secret:OTLP_TOKEN}' },
      serviceName: 'svc',
      sampler: 'parentbased_traceidratio' as const,
      samplerArg: 0.25,
      captureContent: false,
      traceViewerUrl: 'http://localhost:16686/trace/{traceId}',
      tracesEndpoint: 'http://elsewhere:4318/v1/traces',
    };
    const patch = toPatch(modelFrom(stored), stored);
    expect(patch).toEqual({ ...stored, tracesEndpoint: undefined });
    expect(patch).not.toHaveProperty('tracesEndpoint');
  });

  it('switches: off is stored as false; back on removes the key', () => {
    const model = { ...modelFrom({}), enabled: false, captureContent: true };
    expect(toPatch(model, {})).toMatchObject({ enabled: false, captureContent: true });
    expect(toPatch(modelFrom({ enabled: false }), { enabled: false }).enabled).toBe(false);
    expect(toPatch({ ...modelFrom({ enabled: false }), enabled: true }, { enabled: false }).enabled).toBeNull();
  });

  it('says what is wrong, field by field', () => {
    const model = { ...modelFrom({}), endpoint: 'localhost:4318', samplerArg: '2', traceViewerUrl: 'http://jaeger/trace/', headers: [{ key: 'bad name', value: 'x' }] };
    expect(validate(model)).toEqual({
      endpoint: 'Enter an http(s) URL, e.g. http://localhost:4318 (gRPC: http://localhost:4317).',
      samplerArg: 'Enter a ratio from 0 to 1 (0.1 keeps one trace in ten), or leave it empty for 1.',
      traceViewerUrl: 'The URL must contain {traceId}, e.g. http://localhost:16686/trace/{traceId}.',
      headers: '"bad name" is not a header name: use letters, digits and - (no spaces).',
    });
    expect(validate({ ...modelFrom({}), traceViewerUrl: 'javascript:alert("{traceId}")' }).traceViewerUrl).toMatch(/^Enter an http\(s\) URL/);
  });

  it("puts the engine's field problems under their fields, anything else on the form", () => {
    expect(errorsFromMessage('Invalid input for telemetry.update: endpoint: use an http(s) URL', ['endpoint: use an http(s) URL, e.g. http://localhost:4318'])).toEqual({ endpoint: 'use an http(s) URL, e.g. http://localhost:4318' });
    expect(errorsFromMessage('config.json has problems', [{ path: '$.x', message: 'bad' }])).toEqual({ form: 'config.json has problems' });
  });

  it('trace viewer links: the id substituted, only http(s)', () => {
    expect(traceViewerLink('http://localhost:16686/trace/{traceId}', 'abc')).toBe('http://localhost:16686/trace/abc');
    expect(traceViewerLink('javascript:alert("{traceId}")', 'abc')).toBeUndefined();
    expect(traceViewerLink(undefined, 'abc')).toBeUndefined();
  });
});
