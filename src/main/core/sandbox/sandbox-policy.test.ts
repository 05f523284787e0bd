import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bwrapCommand } from './bwrap.js';
import { argumentPaths, installPrefix, resolvePolicy, type SandboxPolicy } from './sandbox-policy.js';

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

  it('binds a path given through a symlinked directory as given too (the server is started with it), with its node_modules', () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pb-policy-')));
    try {
      mkdirSync(path.join(root, 'real', 'node_modules', 'dep'), { recursive: true });
      mkdirSync(path.join(root, 'real', 'app'));
      writeFileSync(path.join(root, 'real', 'app', 'index.js'), '');
      symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
      const paths = argumentPaths(path.join(root, 'link', 'app', 'index.js'));
      expect(paths).toEqual(expect.arrayContaining([path.join(root, 'real', 'app'), path.join(root, 'real', 'node_modules'), path.join(root, 'link', 'app'), path.join(root, 'link', 'node_modules')]));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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
    expect(plain).toMatchObject({ subprocesses: true, hosts: [] });
    expect(resolvePolicy({ network: ['api.example.com', '*.example.org:8443'], subprocesses: false }, { ...ctx, command: 'npx' })).toMatchObject({
      network: 'hosts',
      hosts: ['api.example.com', '*.example.org:8443'],
      subprocesses: false,
    });
  });

  const plain: SandboxPolicy = { read: [], write: ['/work/p'], network: 'none', hosts: [], subprocesses: true, cwd: '/work/p', networkReason: '' };

  it('binds parents before children, writable where the policy says, and unshares the network unless it is all', () => {
    const wrapped = bwrapCommand({ ...plain, read: ['/work/p/node_modules', '/usr'], write: ['/work/p'] }, 'node', ['/work/p/s.js']);
    const args = wrapped.args.join(' ');
    expect(wrapped.command).toBe('bwrap');
    expect(args.indexOf('--bind /work/p /work/p')).toBeLessThan(args.indexOf('--ro-bind-try /work/p/node_modules'));
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--die-with-parent');
    expect(args.endsWith('-- node /work/p/s.js')).toBe(true);
    expect(bwrapCommand({ ...plain, read: [], write: ['/w'], network: 'all', cwd: '/w' }, 'npx', []).args).not.toContain('--unshare-net');
  });

  it('"subprocesses": false — the shell opens the filter as fd 3 and becomes bwrap, which loads it (--seccomp 3) before the server', () => {
    const filter = Buffer.from([1, 2, 3]);
    const wrapped = bwrapCommand({ ...plain, subprocesses: false }, 'node', ['/work/p/s.js'], { seccomp: { file: '/tmp/pb/f.bpf', filter } });
    expect(wrapped.command).toBe('/bin/sh');
    expect(wrapped.args.slice(0, 5)).toEqual(['-c', 'f=$1; shift; exec "$@" 3<"$f"', 'sh', '/tmp/pb/f.bpf', 'bwrap']);
    expect(wrapped.args.join(' ').endsWith('--seccomp 3 -- node /work/p/s.js')).toBe(true);
    expect(() => bwrapCommand({ ...plain, subprocesses: false }, 'node', [])).toThrow(/seccomp/);
  });

  it('a host list — no network but the proxy socket (read-only), the proxy variables, and the forwarder ahead of the server', () => {
    const args = bwrapCommand({ ...plain, network: 'hosts', hosts: ['api.example.com'] }, 'node', ['/work/p/s.js'], { proxy: { dir: '/tmp/pb/p0', node: '/usr/bin/node' } }).args;
    expect(args).toContain('--unshare-net');
    expect(args.join(' ')).toContain('--ro-bind /tmp/pb/p0 /run/patchbay-proxy');
    expect(args.join(' ')).toContain('--setenv HTTPS_PROXY http://127.0.0.1:3128 --setenv HTTP_PROXY http://127.0.0.1:3128 --setenv https_proxy http://127.0.0.1:3128');
    const tail = args.slice(args.indexOf('--') + 1);
    expect([tail[0], tail[1]]).toEqual(['/usr/bin/node', '-e']);
    expect(tail.slice(3)).toEqual(['--', '3128', '/run/patchbay-proxy/proxy.sock', '-', 'node', '/work/p/s.js']);
  });
});
