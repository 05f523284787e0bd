import { describe, expect, it } from 'vitest';
import { FULL_CLIENT_CAPABILITIES } from '../../../shared/protocol.js';
import { ServerCatalog } from './server-catalog.js';

describe('ServerCatalog', () => {
  it('keeps the lists a client with every capability heard apart from the latest', () => {
    const catalog = new ServerCatalog();
    catalog.list('s', 'tools', [{ name: 'a' }, { name: 'b' }], { ...FULL_CLIENT_CAPABILITIES });
    catalog.list('s', 'tools', [{ name: 'a' }], { sampling: {} });
    expect(catalog.get('s')!.tools).toEqual([{ name: 'a' }]);
    expect(catalog.get('s')!.full!.tools).toEqual([{ name: 'a' }, { name: 'b' }]);
    catalog.list('t', 'tools', [{ name: 'x' }], undefined);
    expect(catalog.get('t')!.full).toBeUndefined();
  });
});
