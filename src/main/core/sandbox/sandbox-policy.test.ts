import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bwrapCommand } from './bwrap.js';
import { argumentPaths, installPrefix, resolvePolicy } from './sandbox-policy.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('sandbox policy', () => {
  it("makes readable what Node needs of a script argument: its directory, the node_modules above it, the nearest package.json", () => {
    const script = path.join(REPO, 'test', 'fixtures', 'hostile-server.mjs');
    expect(argumentPaths(script)).toEqual([path.join(REPO, 'test', 'fixtures'), path.join(REPO, 'node_modules'), path.join(REPO, 'package.json')]);
    const inPackage = path.join(REPO, 'node_modules', 'zod', 'package.json');
    expect(argumentPaths(inPackage)).toContain(path.join(REPO, 'node_modules'));
    expect(argumentPaths('relative/path.js')).toEqual([]);
    expect(argumentPaths('--flag')).toEqual([]);
  });

  it('reads a command from its install prefix; writes only its own directory; no network but for package runners', () => {
    expect(installPrefix('/home/me/.nvm/versions/node/v22.1.0/bin/node')).toBe('/home/me/.nvm/versions/node/v22.1.0');
    const ctx = { args: [], cwd: undefined, ownDir: '/data/sandbox/x', commandPath: '/usr/bin/node', home: '/home/me' };
    const plain = resolvePolicy(true, { ...ctx, command: 'node' });
    expect(plain).toMatchObject({ network: 'none', cwd: '/data/sandbox/x', write: ['/data/sandbox/x'] });
    expect(plain.read).toContain('/usr');
    expect(plain.read).not.toContain('/etc');
    expect(plain.read.some((p) => p.startsWith('/home') || p.startsWith('/root'))).toBe(false);
    expect(resolvePolicy(true, { ...ctx, command: 'npx' }).network).toBe('all');
    expect(resolvePolicy({ network: 'none' }, { ...ctx, command: 'npx' }).network).toBe('none');
    expect(resolvePolicy({ write: ['~/notes'] }, { ...ctx, command: 'node' }).write).toEqual(['/data/sandbox/x', '/home/me/notes']);
  });

  it('binds parents before children, writable where the policy says, and unshares the network only for none', () => {
    const wrapped = bwrapCommand({ read: ['/work/p/node_modules', '/usr'], write: ['/work/p'], network: 'none', cwd: '/work/p', networkReason: '' }, 'node', ['/work/p/s.js']);
    const args = wrapped.args.join(' ');
    expect(wrapped.command).toBe('bwrap');
    expect(args.indexOf('--bind /work/p /work/p')).toBeLessThan(args.indexOf('--ro-bind-try /work/p/node_modules'));
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--die-with-parent');
    expect(args.endsWith('-- node /work/p/s.js')).toBe(true);
    expect(bwrapCommand({ read: [], write: ['/w'], network: 'all', cwd: '/w', networkReason: '' }, 'npx', []).args).not.toContain('--unshare-net');
  });
});
