import { describe, expect, it } from 'vitest';
import type { CatalogRegistry } from '../../../shared/api/catalog-contract.js';
import { freshnessLine, namespaceText, registryLabel } from './freshness.js';

const now = Date.parse('2026-09-01T12:00:00Z');
const base: CatalogRegistry = { url: 'https://registry.modelcontextprotocol.io', label: 'official', source: 'network', count: 1234, fetchedAt: '2026-09-01T11:55:00Z' };

describe('a registry copy in one line', () => {
  it('says how many servers and how fresh', () => {
    expect(freshnessLine(base, now)).toBe('official · 1,234 servers · updated 5 min ago');
  });
  it('says offline and from when, when the last refresh failed', () => {
    expect(freshnessLine({ ...base, source: 'cache', error: 'the registry answered 500' }, now)).toBe('official · 1,234 servers · offline — last copy from 5 min ago');
  });
  it('names the snapshot shipped with Patchbay, and a registry never fetched', () => {
    expect(freshnessLine({ ...base, source: 'snapshot', count: 1, fetchedAt: undefined }, now)).toBe('official · 1 server · snapshot shipped with Patchbay');
    expect(freshnessLine({ ...base, source: 'none', count: 0, fetchedAt: undefined, error: 'not JSON at byte 12' }, now)).toBe('official · 0 servers · offline — no copy yet');
  });
});

describe('trust signals', () => {
  it('marks GitHub and domain namespaces as checked by the registry', () => {
    expect(namespaceText({ kind: 'github', owner: 'octo' })).toMatchObject({ text: 'GitHub: octo', verified: true });
    expect(namespaceText({ kind: 'domain', owner: 'example.com' })).toMatchObject({ text: 'domain: example.com', verified: true });
    expect(namespaceText({ kind: 'other', owner: 'x' }).verified).toBe(false);
  });
  it('labels the registry only when there is more than one', () => {
    expect(registryLabel([base], base.url)).toBeUndefined();
    expect(registryLabel([base, { ...base, url: 'https://r.acme', label: 'acme' }], 'https://r.acme')).toBe('acme');
  });
});
