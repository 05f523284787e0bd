// Component test: an exchange's trace in the detail pane — the id, and the viewer link: a plain
// link in a browser tab, the engine's opener in the desktop window (whose guard lets out no link
// the app did not make).
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../../shared/api/contract.js';
import type { TelemetryView } from '../../../shared/api/telemetry-contract.js';
import type { Bridge } from '../../bridge/bridge.js';
import { createStores, ServicesProvider, type Services } from '../../app/services.js';
import { TraceFact } from './trace-fact.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

let container: HTMLDivElement | undefined;
afterEach(() => {
  container?.remove();
  container = undefined;
});

function render(kind: 'http' | 'ipc', template: string | undefined) {
  const call = vi.fn(async () => ({ ok: true, value: { url: 'x' } }) as ApiResult<unknown>);
  const bridge = { kind, call, subscribe: () => () => {}, onStatus: () => () => {}, inspectorLive: () => () => {} } as unknown as Bridge;
  const services: Services = { bridge, stores: createStores() };
  if (template !== undefined) services.stores.app.getState().telemetryLoaded({ config: { traceViewerUrl: template } } as TelemetryView);
  container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<ServicesProvider services={services}><dl><TraceFact trace={TRACE} /></dl></ServicesProvider>));
  return { el: container, root, call };
}

describe('TraceFact', () => {
  it('shows the trace id and span; without a viewer, says where to set one', () => {
    const { el, root } = render('http', undefined);
    expect(el.querySelector('[data-testid="detail-trace-id"]')?.textContent).toBe(TRACE.traceId);
    expect(el.querySelector('[data-testid="detail-span-id"]')?.textContent).toBe(`span ${TRACE.spanId}`);
    expect(el.querySelector('[data-testid="detail-trace-link"]')).toBeNull();
    expect(el.querySelector('a[href="#/settings"]')?.textContent).toBe('Link a trace viewer');
    act(() => root.unmount());
  });

  it('in a browser tab: a link to the viewer that opens itself in a new tab', () => {
    const { el, root, call } = render('http', 'http://localhost:16686/trace/{traceId}');
    const link = el.querySelector<HTMLAnchorElement>('[data-testid="detail-trace-link"]')!;
    expect(link.getAttribute('href')).toBe(`http://localhost:16686/trace/${TRACE.traceId}`);
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener noreferrer');
    expect(call).not.toHaveBeenCalled();
    act(() => root.unmount());
  });

  it('in the desktop window: the click asks the engine to open it', async () => {
    const { el, root, call } = render('ipc', 'http://localhost:16686/trace/{traceId}');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    await act(async () => void el.querySelector('[data-testid="detail-trace-link"]')!.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(true);
    expect(call).toHaveBeenCalledWith('telemetry.openTrace', { traceId: TRACE.traceId });
    act(() => root.unmount());
  });

  it('a template that does not make an http(s) URL gives no link', () => {
    const { el, root } = render('http', 'javascript:alert("{traceId}")');
    expect(el.querySelector('[data-testid="detail-trace-link"]')).toBeNull();
    act(() => root.unmount());
  });
});
