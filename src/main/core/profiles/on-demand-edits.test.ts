import { describe, expect, it } from 'vitest';
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import { validateConfigValue } from '../config/config-parse.js';
import { createProfile, updateProfile } from './profile-edits.js';

const base = (): PatchbayConfig => ({ mcpServers: { fs: { command: 'x' }, gh: { command: 'y' } }, profiles: { work: { servers: ['fs', 'gh'] } } });

function work(config: PatchbayConfig): unknown {
  const checked = validateConfigValue(config, 'test');
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return config.profiles!.work!.onDemand;
}

describe('on-demand edits', () => {
  it('writes the smallest block: true when only on, nothing when off and empty', () => {
    const c = base();
    updateProfile(c, 'work', { onDemand: { enabled: true } });
    expect(work(c)).toBe(true);
    updateProfile(c, 'work', { onDemand: { enabled: false } });
    expect(c.profiles!.work).toEqual({ servers: ['fs', 'gh'] });
  });

  it('pins and unpins one tool at a time, sets the whole list, and collapses back to true', () => {
    const c = base();
    updateProfile(c, 'work', { onDemand: { enabled: true, pin: ['fs__read_file'] } });
    expect(work(c)).toEqual({ pinned: ['fs__read_file'] });
    updateProfile(c, 'work', { onDemand: { pin: ['gh__get_*', 'fs__read_file'] } });
    expect(work(c)).toEqual({ pinned: ['fs__read_file', 'gh__get_*'] });
    updateProfile(c, 'work', { onDemand: { unpin: ['fs__read_file'] } });
    expect(work(c)).toEqual({ pinned: ['gh__get_*'] });
    // A pattern still pins the name: unpinning it alone would change nothing, so it is refused.
    expect(() => updateProfile(c, 'work', { onDemand: { unpin: ['gh__get_issue'] } })).toThrow(/pinned by the pattern "gh__get_\*"/);
    updateProfile(c, 'work', { onDemand: { pinned: ['a', 'b', 'a'] } });
    expect(work(c)).toEqual({ pinned: ['a', 'b'] });
    updateProfile(c, 'work', { onDemand: { pinned: [] } });
    expect(work(c)).toBe(true);
  });

  it('keeps pins and client entries when turned off for the profile; default removes a client entry', () => {
    const c = base();
    updateProfile(c, 'work', { onDemand: { clients: { cursor: true, 'claude-code': false } } });
    // Setting a client alone does not turn it on for everyone.
    expect(work(c)).toEqual({ enabled: false, clients: { cursor: true, 'claude-code': false } });
    updateProfile(c, 'work', { onDemand: { enabled: true, pin: ['fs__read_file'], clients: { cursor: null } } });
    expect(work(c)).toEqual({ pinned: ['fs__read_file'], clients: { 'claude-code': false } });
    updateProfile(c, 'work', { onDemand: { enabled: false } });
    expect(work(c)).toEqual({ enabled: false, pinned: ['fs__read_file'], clients: { 'claude-code': false } });
    updateProfile(c, 'work', { onDemand: { pinned: [], clients: { 'claude-code': null } } });
    expect(c.profiles!.work!.onDemand).toBeUndefined();
    expect(() => updateProfile(c, 'work', { onDemand: { clients: { 'My Editor': true } } })).toThrow(/'My Editor' is not a client id/);
  });

  it('keeps keys it does not know, and works on create and on the built-in default', () => {
    const c = base();
    c.profiles!.work!.onDemand = { pinned: ['x'], note: 'mine' } as never;
    updateProfile(c, 'work', { onDemand: { unpin: ['x'] } });
    expect(work(c)).toEqual({ note: 'mine' });
    createProfile(c, 'lean', ['fs'], { onDemand: { enabled: true, pin: ['fs__read'] } });
    expect(c.profiles!.lean).toEqual({ servers: ['fs'], onDemand: { pinned: ['fs__read'] } });
    updateProfile(c, 'default', { onDemand: { enabled: true } });
    expect(c.profiles!.default!.onDemand).toBe(true);
  });
});
