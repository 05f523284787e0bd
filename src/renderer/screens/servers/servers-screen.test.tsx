// Component test: the servers list renders live status from the store as events arrive.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerDetail } from '../../../shared/api/servers-contract.js';
import type { Route } from '../../app/router.js';
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

type ServersRoute = Extract<Route, { screen: 'servers' }>;

function render(services: Services, route: ServersRoute = { screen: 'servers' }) {
  container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const show = (r: ServersRoute) => act(() => root.render(<ServicesProvider services={services}><ServersScreen route={r} /></ServicesProvider>));
  show(route);
  return { root, el: container, show };
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

  it('asks for the outdated servers once: moving between the list and a page asks nothing more', async () => {
    const calls: string[] = [];
    const outdated = { serverId: 'fx', name: 'io.github.x/fx', registry: 'http://127.0.0.1:1', installed: '1.0.0', latest: '2.0.0' };
    const counting = {
      ...bridge,
      call: async (name: string) => {
        calls.push(name);
        return { ok: true, value: name === 'catalog.outdated' ? { servers: [outdated] } : {} };
      },
    } as unknown as Bridge;
    const services = { bridge: counting, stores: createStores() };
    act(() => services.stores.servers.getState().overviewLoaded([detail('fx')]));
    const { el, root, show } = render(services);
    await act(async () => {
      await vi.waitFor(() => expect(el.querySelector('[data-testid="server-outdated"]')?.textContent).toBe('update available: 2.0.0'));
    });
    show({ screen: 'servers', serverId: 'fx' });
    expect(el.querySelector('[data-testid="server-update"]')).not.toBeNull();
    show({ screen: 'servers' });
    expect(el.querySelector('[data-testid="server-row-fx"] [data-testid="server-outdated"]')).not.toBeNull();
    // Gone and back (another screen, then the Servers screen mounted anew): still known.
    act(() => root.render(<ServicesProvider services={services}><p>elsewhere</p></ServicesProvider>));
    show({ screen: 'servers', serverId: 'fx' });
    expect(calls.filter((c) => c === 'catalog.outdated')).toEqual(['catalog.outdated']);
    act(() => root.unmount());
  });
});
