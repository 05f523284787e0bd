// Component test: the servers list renders live status from the store as events arrive.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerDetail } from '../../../shared/api/servers-contract.js';
import type { Bridge } from '../../bridge/bridge.js';
import { createStores, ServicesProvider, type Services } from '../../app/services.js';
import { ServersScreen } from './servers-screen.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const bridge = { kind: 'http', call: async () => ({ ok: true, value: {} }), subscribe: () => () => {}, onStatus: () => () => {}, inspectorLive: () => () => {} } as unknown as Bridge;
const detail = (id: string): ServerDetail => ({ id, url: `http://127.0.0.1:1/mcp/${id}`, kind: 'stdio', config: { command: 'node' }, status: { id, state: 'idle', sessions: 0, children: 0 } });

let container: HTMLDivElement | undefined;
afterEach(() => {
  container?.remove();
  container = undefined;
});

function render(services: Services) {
  container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<ServicesProvider services={services}><ServersScreen route={{ screen: 'servers' }} /></ServicesProvider>));
  return { root, el: container };
}

describe('ServersScreen', () => {
  it('says what to do when there are no servers', () => {
    const services = { bridge, stores: createStores() };
    act(() => services.stores.servers.getState().overviewLoaded([]));
    const { el, root } = render(services);
    expect(el.textContent).toContain('No servers yet');
    expect(el.querySelector('a[href="#/servers/new"]')).not.toBeNull();
    act(() => root.unmount());
  });

  it('updates a row when a status event arrives, showing the error where it happened', () => {
    const services = { bridge, stores: createStores() };
    act(() => services.stores.servers.getState().overviewLoaded([detail('fx'), detail('gh')]));
    const { el, root } = render(services);
    const row = () => el.querySelector('[data-testid="server-row-fx"]')!;
    expect(row().querySelector('[data-testid="server-state"]')?.textContent).toBe('Idle');
    act(() => services.stores.servers.getState().serverStatusReceived({ id: 'fx', state: 'error', sessions: 0, children: 0, lastError: { message: "server 'fx' could not start: command not found: nope", stage: 'start', at: new Date().toISOString() } }));
    expect(row().querySelector('[data-testid="server-state"]')?.textContent).toBe('Error');
    expect(row().querySelector('[data-testid="server-last-error"]')?.textContent).toContain('command not found: nope');
    expect(el.querySelector('[data-testid="server-row-gh"] [data-testid="server-state"]')?.textContent).toBe('Idle');
    act(() => root.unmount());
  });
});
