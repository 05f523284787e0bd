import { describe, expect, it } from 'vitest';
import { eraFactText, eraSummary } from './server-era.js';

describe('server eras in words (PROTOCOL Q11: two facts, each learned on its own)', () => {
  it('says yes or no with how it was learned, and what is not asked yet', () => {
    expect(eraFactText({ speaks: true, how: 'initialize' }, undefined)).toBe('yes: it answered an initialize request');
    // What the hub saw, in words that cannot contradict the chip (issue 28 item 5).
    expect(eraFactText({ speaks: false, how: 'initialize' }, undefined)).toBe('no: it refused initialize, naming only 2026-07-28 revisions');
    expect(eraFactText({ speaks: false, how: 'probe' }, undefined)).toBe('no: it did not answer a server/discover request as a 2026-07-28 server does');
    expect(eraFactText({ speaks: true, how: 'config' }, '2025-06-18')).toBe('yes, pinned to 2025-06-18 in the config');
    expect(eraFactText(undefined, undefined)).toBe('not asked yet: the hub asks when the first client of that era comes');
  });

  it('sums both facts up for the chip, never calling a dual-era server by one era', () => {
    const text = eraSummary({ era: 'both', legacy: { speaks: true, how: 'initialize' }, modern: { speaks: true, how: 'probe' } });
    expect(text).toContain('2025 (initialize, sessions): yes: it answered an initialize request');
    expect(text).toContain('2026-07-28 (sessionless): yes: it answered a server/discover request');
  });
});
