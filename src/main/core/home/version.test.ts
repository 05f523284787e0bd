import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATCHBAY_VERSION } from './version.js';

describe('PATCHBAY_VERSION', () => {
  it('is the version package.json names (a moved file once read 0.0.0)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(PATCHBAY_VERSION).toBe(pkg.version);
  });
});
