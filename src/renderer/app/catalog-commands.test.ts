import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api/contract.js';
import type { AppEvent } from '../../shared/api/app-contract.js';
import type { Bridge } from '../bridge/bridge.js';
import { applyUpdate, searchCatalog } from './catalog-commands.js';
import { dispatchEvent } from './commands.js';
import { createStores, type Services } from './services.js';

const registry = { url: 'http://127.0.0.1:1', label: 'fixture', source: 'network' as const, count: 3, fetchedAt: '2026-09-01T00:00:00Z' };
const result = (name: string) => ({ name, description: '', version: '1', registry: registry.url, namespace: { kind: 'github' as const, owner: 'x' }, packageTypes: ['npm'], remote: false, installed: [] });

function services(call: (name: string, input: unknown) => Promise<ApiResult<unknown>>): Services {
  const bridge = { kind: 'http', call, subscribe: () => () => {}, onStatus: () => () => {}, inspectorLive: () => () => {} } as unknown as Bridge;
  return { bridge, stores: createStores() };
}

describe('the catalog in the stores', () => {
  it('keeps the answer to the last query typed, not a slower answer to an earlier one', async () => {
    const answers = new Map<string, (v: ApiResult<unknown>) => void>();
    const s = services((_name, input) => new Promise((resolve) => answers.set((input as { query: string }).query, resolve)));
    const first = searchCatalog(s, 'ev');
    const second = searchCatalog(s, 'everything');
    answers.get('everything')!({ ok: true, value: { results: [result('b')], total: 1, registries: [registry] } });
    answers.get('ev')!({ ok: true, value: { results: [result('a')], total: 1, registries: [registry] } });
    await Promise.all([first, second]);
    expect(s.stores.catalog.getState()).toMatchObject({ searched: 'everything', results: [expect.objectContaining({ name: 'b' })], searching: false });
  });

  it('a registry refreshed elsewhere updates the freshness line; a config change asks for outdated servers once they were shown', async () => {
    const calls: string[] = [];
    const s = services(async (name) => {
      calls.push(name);
      return { ok: true, value: name === 'catalog.outdated' ? { servers: [{ serverId: 'ev', name: 'n', registry: registry.url, installed: '1', latest: '2' }] } : [] };
    });
    dispatchEvent(s, { channel: 'catalog.changed', cursor: 1, payload: { registries: [{ ...registry, error: 'the registry answered 500' }] } } as AppEvent);
    expect(s.stores.catalog.getState().registries?.[0]?.error).toBe('the registry answered 500');
    dispatchEvent(s, { channel: 'config.changed', cursor: 2, payload: { problems: [] } } as AppEvent);
    expect(calls).not.toContain('catalog.outdated');
    s.stores.catalog.getState().outdatedLoaded([]);
    dispatchEvent(s, { channel: 'config.changed', cursor: 3, payload: { problems: [] } } as AppEvent);
    await vi.waitFor(() => expect(s.stores.catalog.getState().outdated?.ev?.latest).toBe('2'));
  });

  it('an update asks for the outdated servers once: through the config.changed that follows, not again by itself', async () => {
    const calls: string[] = [];
    const s = services(async (name) => {
      calls.push(name);
      if (name === 'catalog.update') return { ok: true, value: { serverId: 'ev', from: '1', to: '2', applied: true } };
      return { ok: true, value: name === 'catalog.outdated' ? { servers: [] } : [] };
    });
    s.stores.catalog.getState().outdatedLoaded([{ serverId: 'ev', name: 'n', registry: registry.url, installed: '1', latest: '2' }]);
    await applyUpdate(s, 'ev', '2');
    expect(calls).toEqual(['catalog.update']);
    dispatchEvent(s, { channel: 'config.changed', cursor: 1, payload: { problems: [] } } as AppEvent);
    await vi.waitFor(() => expect(s.stores.catalog.getState().outdated).toEqual({}));
    expect(calls.filter((c) => c === 'catalog.outdated')).toEqual(['catalog.outdated']);
  });
});
