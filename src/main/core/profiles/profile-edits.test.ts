import { describe, expect, it } from 'vitest';
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import { validateConfigValue } from '../config/config-parse.js';
import { addServer, createProfile, removeServer, setItem, updateProfile } from './profile-edits.js';

const base = (): PatchbayConfig => ({ mcpServers: { fs: { command: 'x' }, gh: { command: 'y' }, off: { command: 'z', disabled: true } } });

function valid(config: PatchbayConfig): PatchbayConfig {
  const checked = validateConfigValue(config, 'test');
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return config;
}

describe('profile edits', () => {
  it('creates a profile with a member list and options; a second one with the same name is refused', () => {
    const c = base();
    createProfile(c, 'work', ['fs'], { prefix: false, description: 'Work' });
    expect(valid(c).profiles).toEqual({ work: { description: 'Work', servers: ['fs'], prefix: false } });
    expect(() => createProfile(c, 'work', undefined, {})).toThrow(/already exists/);
  });

  it('toggles a tool of a member covered by "*" by giving it an entry of its own, and back', () => {
    const c = base();
    setItem(c, 'default', 'fs', 'tools', 'write_file', false);
    expect(valid(c).profiles!.default!.servers).toEqual({ '*': {}, fs: { tools: { deny: ['write_file'] } } });
    setItem(c, 'default', 'fs', 'tools', 'write_file', true);
    expect(valid(c).profiles!.default!.servers).toEqual({ '*': {}, fs: {} });
  });

  it('keeps allow lists and refuses to turn on what a deny pattern turns off', () => {
    const c = base();
    createProfile(c, 'p', ['fs'], {});
    setItem(c, 'p', 'fs', 'tools', 'read', false);
    setItem(c, 'p', 'fs', 'tools', 'read', true);
    c.profiles!.p!.servers = { fs: { tools: { allow: ['read_*'], deny: ['read_secret*'] } } };
    setItem(c, 'p', 'fs', 'tools', 'write', true);
    expect(c.profiles!.p!.servers).toEqual({ fs: { tools: { allow: ['read_*', 'write'], deny: ['read_secret*'] } } });
    expect(() => setItem(c, 'p', 'fs', 'tools', 'read_secrets', true)).toThrow(/pattern "read_secret\*"/);
    expect(() => setItem(c, 'p', 'gh', 'tools', 'x', false)).toThrow(/not in profile 'p'/);
  });

  it('adds and removes members; removing one that "*" covers lists the others by name', () => {
    const c = base();
    createProfile(c, 'all', undefined, {});
    removeServer(c, 'all', 'gh');
    expect(valid(c).profiles!.all!.servers).toEqual(['fs']);
    addServer(c, 'all', 'gh');
    expect(c.profiles!.all!.servers).toEqual(['fs', 'gh']);
    expect(() => addServer(c, 'all', 'nope')).toThrow(/no server 'nope'/);
    updateProfile(c, 'all', { holdChangedTools: 'always', description: 'Everything' });
    expect(valid(c).profiles!.all).toEqual({ servers: ['fs', 'gh'], holdChangedTools: 'always', description: 'Everything' });
  });

  it('a profile without prefixes keeps them off when a member is added (names that clash take a suffix)', () => {
    const c = base();
    createProfile(c, 'solo', ['fs'], { prefix: false });
    addServer(c, 'solo', 'gh');
    expect(valid(c).profiles!.solo).toEqual({ servers: ['fs', 'gh'], prefix: false });
  });
});
