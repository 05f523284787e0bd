import { describe, expect, it } from 'vitest';
import { eraFactText, eraSummary } from './server-era.js';

describe('server eras in words (PROTOCOL Q11: two facts, each learned on its own)', () => {
  it('says yes or no with how it was learned, and what is not asked yet', () => {
    expect(eraFactText({ speaks: true, how: 'initialize' }, undefined)).toBe('yes, from its answer to an initialize');
    expect(eraFactText({ speaks: false, how: 'probe' }, undefined)).toBe('no, from its answer to a server/discover request');
    expect(eraFactText({ speaks: true, how: 'config' }, '2025-06-18')).toBe('yes, pinned to 2025-06-18 in the config');
    expect(eraFactText(undefined, undefined)).toBe('not asked yet: the hub asks when the first client of that era comes');
  });

  it('sums both facts up for the chip, never calling a dual-era server by one era', () => {
    const text = eraSummary({ era: 'both', legacy: { speaks: true, how: 'initialize' }, modern: { speaks: true, how: 'probe' } });
    expect(text).toContain('2025 (initialize, sessions): yes, from its answer to an initialize');
    expect(text).toContain('2026-07-28 (sessionless): yes, from its answer to a server/discover request');
  });
});
