// Component test: Settings → Telemetry says whether telemetry is on and why, where each value in
// effect comes from (never a header value), and saves the form as a change to the block.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../../shared/api/contract.js';
import type { TelemetryView } from '../../../shared/api/telemetry-contract.js';
import type { Bridge } from '../../bridge/bridge.js';
import { createStores, ServicesProvider, type Services } from '../../app/services.js';
import { TelemetryPanel } from './telemetry-panel.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unset = { source: 'unset' as const };
const view: TelemetryView = {
  config: { endpoint: 'http://cfg:4318', headers: { authorization: '${secret:OTLP_TOKEN}' }, serviceName: 'cfg-name' },
  effective: {
    on: true,
    reason: "On: exporting to http://env:4318 (from OTEL_EXPORTER_OTLP_ENDPOINT in the hub's environment).",
    enabled: { value: true, source: 'default', variable: 'OTEL_SDK_DISABLED' },
    endpoint: { value: 'http://env:4318', source: 'environment', variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', overrides: 'config' },
    tracesEndpoint: { ...unset, variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' },
    metricsEndpoint: { ...unset, variable: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT' },
    protocol: { value: 'http/protobuf', source: 'default', variable: 'OTEL_EXPORTER_OTLP_PROTOCOL' },
    serviceName: { value: 'cfg-name', source: 'config', variable: 'OTEL_SERVICE_NAME' },
    resourceAttributes: { ...unset, variable: 'OTEL_RESOURCE_ATTRIBUTES' },
    sampler: { value: 'parentbased_always_on', source: 'default', variable: 'OTEL_TRACES_SAMPLER' },
    samplerArg: { ...unset, variable: 'OTEL_TRACES_SAMPLER_ARG' },
    captureContent: { value: false, source: 'default' },
    traceViewerUrl: unset,
    headers: [{ name: 'authorization', source: 'config', secret: 'OTLP_TOKEN' }],
    problems: [],
  },
  status: 'configured',
  missingSecrets: ['OTLP_TOKEN'],
  appliesLive: false,
  configFile: '/tmp/config.json',
};

let container: HTMLDivElement | undefined;
afterEach(() => {
  container?.remove();
  container = undefined;
});

function setup() {
  const calls: Array<[string, unknown]> = [];
  const bridge = {
    kind: 'http',
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push([name, input]);
      const saved: TelemetryView = { ...view, config: { ...view.config, traceViewerUrl: 'http://jaeger/trace/{traceId}' } };
      return { ok: true, value: name === 'telemetry.update' ? { settings: saved, restartRequired: false } : {} } as ApiResult<unknown>;
    }),
    subscribe: () => () => {},
    onStatus: () => () => {},
    inspectorLive: () => () => {},
  } as unknown as Bridge;
  const services: Services = { bridge, stores: createStores() };
  act(() => services.stores.app.getState().telemetryLoaded(view));
  container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<ServicesProvider services={services}><TelemetryPanel /></ServicesProvider>));
  return { el: container, root, calls, services };
}

describe('TelemetryPanel', () => {
  it('shows the status and its reason, each value with its source, header names only, and the restart rule', () => {
    const { el, root } = setup();
    expect(el.querySelector('[data-testid="telemetry-status"]')?.getAttribute('data-status')).toBe('configured');
    expect(el.querySelector('[data-testid="telemetry-reason"]')?.textContent).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
    expect(el.querySelector('[data-testid="effective-endpoint"]')?.textContent).toContain('OTEL_EXPORTER_OTLP_ENDPOINT (environment), over config.json');
    expect(el.querySelector('[data-testid="effective-serviceName"]')?.textContent).toContain('config.json');
    expect(el.querySelector('[data-testid="effective-tracesEndpoint"]')).toBeNull();
    expect(el.querySelector('[data-testid="effective-headers"]')?.textContent).toContain('authorization ← stored key OTLP_TOKEN');
    expect(el.querySelector('[data-testid="telemetry-missing-secrets"]')?.textContent).toContain('OTLP_TOKEN');
    expect(el.querySelector('[data-testid="telemetry-applies"]')?.textContent).toBe('Changes to the exporter take effect after a restart of the hub; the trace viewer URL applies at once.');
    // The form says the environment's endpoint wins over the one it edits.
    expect(el.querySelector('#telemetry-endpoint-hint')?.textContent).toContain("OTEL_EXPORTER_OTLP_ENDPOINT in the hub's environment sets this");
    act(() => root.unmount());
  });

  it('saves the form as a change; a bad field is stopped before it is sent', async () => {
    const { el, root, calls, services } = setup();
    const viewer = el.querySelector<HTMLInputElement>('#telemetry-traceViewerUrl')!;
    const type = (input: HTMLInputElement, value: string) =>
      act(() => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    type(viewer, 'http://jaeger/trace/');
    await act(async () => el.querySelector<HTMLButtonElement>('[data-testid="telemetry-save"]')!.click());
    expect(el.querySelector('#telemetry-traceViewerUrl-error')?.textContent).toContain('{traceId}');
    expect(calls.filter(([n]) => n === 'telemetry.update')).toEqual([]);

    type(viewer, 'http://jaeger/trace/{traceId}');
    await act(async () => el.querySelector<HTMLButtonElement>('[data-testid="telemetry-save"]')!.click());
    const [, patch] = calls.find(([n]) => n === 'telemetry.update')!;
    expect(patch).toMatchObject({ endpoint: 'http://cfg:4318', headers: { authorization: '${secret:OTLP_TOKEN}' }, serviceName: 'cfg-name', traceViewerUrl: 'http://jaeger/trace/{traceId}', captureContent: null });
    expect(services.stores.app.getState().telemetry?.config.traceViewerUrl).toBe('http://jaeger/trace/{traceId}');
    expect(el.querySelector('[data-testid="telemetry-restart"]')).toBeNull();
    act(() => root.unmount());
  });
});
