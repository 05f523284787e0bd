import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, event } from '../../../shared/api/contract.js';
import { ApiRegistry, type Handlers } from './api-registry.js';
import { lazyHandlers } from './lazy-handlers.js';

const contract = {
  'demo.double': call(z.object({ n: z.number() }), z.number(), 'doubles n'),
  'demo.name': call(z.object({}), z.string(), 'a name'),
  'demo.changed': event(z.object({}), 'something changed'),
};

describe('lazyHandlers', () => {
  it('registers every call at once, loads the domain on the first call only, and retries a failed load', async () => {
    let loads = 0;
    let fail = true;
    const api = new ApiRegistry();
    api.register(
      contract,
      lazyHandlers(contract, async (): Promise<Handlers<typeof contract>> => {
        loads++;
        if (fail) throw new Error('the module is not there');
        return { 'demo.double': ({ n }) => n * 2, 'demo.name': () => 'lazy' };
      }),
    );
    expect(api.callNames()).toEqual(['demo.double', 'demo.name']);
    expect(loads).toBe(0);
    expect(await api.invoke('demo.double', { n: 2 })).toMatchObject({ ok: false, code: 'internal', message: expect.stringContaining('the module is not there') });
    fail = false;
    expect(await api.invoke('demo.double', { n: 21 })).toEqual({ ok: true, value: 42 });
    expect(await api.invoke('demo.name', {})).toEqual({ ok: true, value: 'lazy' });
    expect(loads).toBe(2);
  });
});
