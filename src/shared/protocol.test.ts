import { describe, expect, it } from 'vitest';
import { FULL_CLIENT_CAPABILITIES, isFullClient } from './protocol.js';

describe('isFullClient', () => {
  it('holds for FULL_CLIENT_CAPABILITIES and fails without any one of its capabilities', () => {
    expect(isFullClient(FULL_CLIENT_CAPABILITIES)).toBe(true);
    for (const key of Object.keys(FULL_CLIENT_CAPABILITIES)) {
      const { [key]: _dropped, ...rest } = FULL_CLIENT_CAPABILITIES as Record<string, unknown>;
      expect(isFullClient(rest), `without ${key}`).toBe(false);
    }
    expect(isFullClient({ ...FULL_CLIENT_CAPABILITIES, extensions: {} })).toBe(false);
    expect(isFullClient(null)).toBe(false);
  });
});
