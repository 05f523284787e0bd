/**
 * The engine's sandbox wrapper (sandbox-spawn.ts) as a spawn plan — the bubblewrap command line it
 * returns, with no sandbox run: what the forwarder's Node binds (never the home that holds the data
 * dir), one proxy per server however many of its children start together, and a failed start that
 * does not stick. Needs bubblewrap (the wrapper refuses without it); where it cannot run, the
 * suite's title says why.
 */
import { mkdir, mkdtemp, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxSetting, StdioServerConfig } from '../../../shared/config-schema.js';
import type { StdioSpawnSpec } from '../upstream/stdio-upstream.js';
import { PROXY_DIR_INSIDE, PROXY_SOCKET_NAME } from './proxy-forwarder.js';
import { sandboxWrapper, type SandboxOptions, type SandboxWrapper } from './sandbox-spawn.js';
import { sandboxSupport } from './sandbox-support.js';

const support = await sandboxSupport();

const undo: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const u of undo.splice(0).reverse()) await u();
});

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function wrapper(dataDir: string, options: SandboxOptions = {}): SandboxWrapper {
  const wrap = sandboxWrapper(dataDir, options);
  undo.push(() => wrap.close());
  return wrap;
}

const server = (sandbox: SandboxSetting): StdioServerConfig => ({ command: '/bin/sh', sandbox });
const spec = (serverId: string): StdioSpawnSpec => ({ serverId, command: '/bin/sh', args: [], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });

/** The host paths a bubblewrap command line binds. */
function bindsOf(args: readonly string[]): string[] {
  return args.flatMap((a, i) => (a === '--bind' || a === '--ro-bind' || a === '--ro-bind-try' ? [args[i + 1]!] : []));
}

/** The hub proxy's socket directory a plan binds into the sandbox. */
function proxyDirOf(args: readonly string[]): string {
  const i = args.indexOf(PROXY_DIR_INSIDE);
  expect(i).toBeGreaterThan(0);
  return args[i - 1]!;
}

/** `outer` is `inner` or holds it. */
function holds(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function connected(socket: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socket, () => resolve(c));
    c.once('error', reject);
    undo.push(() => void c.destroy());
  });
}

describe.runIf(process.platform === 'linux' && support.available)(`the sandbox wrapper's spawn plan (${support.detail})`, () => {
  it("a host list's forwarder on a Node at ~/bin/node or ~/node binds that binary only, never the home that holds the data dir", async () => {
    const home = await temp('pb-home-');
    const data = path.join(home, '.patchbay');
    for (const node of [path.join(home, 'bin', 'node'), path.join(home, 'node')]) {
      await mkdir(path.dirname(node), { recursive: true });
      await writeFile(node, '');
      const plan = await wrapper(data, { forwarderNode: node })(server({ network: ['api.example.com'] }), 'notes', spec('notes'));
      const binds = bindsOf(plan.args);
      expect(binds.filter((p) => holds(p, data))).toEqual([]);
      expect(binds).toContain(node);
      // The forwarder still runs on it.
      expect(plan.args[plan.args.indexOf('--') + 1]).toBe(node);
    }
    // A Node with an install prefix of its own binds that prefix, as before.
    const nvm = path.join(home, '.nvm', 'versions', 'node', 'v22', 'bin', 'node');
    await mkdir(path.dirname(nvm), { recursive: true });
    await writeFile(nvm, '');
    const plan = await wrapper(data, { forwarderNode: nvm })(server({ network: ['api.example.com'] }), 'notes', spec('notes'));
    expect(bindsOf(plan.args)).toContain(path.join(home, '.nvm', 'versions', 'node', 'v22'));
  });

  it("a forwarder Node inside the data dir is refused, with what to do", async () => {
    const data = await temp('pb-data-');
    const node = path.join(data, 'runtime', 'node');
    await mkdir(path.dirname(node), { recursive: true });
    await writeFile(node, '');
    await expect(wrapper(data, { forwarderNode: node })(server({ network: ['api.example.com'] }), 'notes', spec('notes'))).rejects.toThrow(
      `server 'notes': its sandbox would expose Patchbay's data dir (${data}) through ${node}, the Node its host list's proxy forwarder runs on (the hub's own): run Patchbay on a Node installed outside the data dir`,
    );
  });

  it('two children of one server starting together share one proxy, and close() closes it', async () => {
    const wrap = wrapper(await temp('pb-data-'));
    const setting = server({ network: ['api.example.com'] });
    const plans = await Promise.all([wrap(setting, 'notes', spec('notes')), wrap(setting, 'notes', spec('notes'))]);
    const dirs = plans.map((p) => proxyDirOf(p.args));
    const clients = await Promise.all(dirs.map((d) => connected(path.join(d, PROXY_SOCKET_NAME))));
    let closed = 0;
    for (const c of clients) c.once('close', () => closed++);
    await wrap.close();
    // Every proxy a child was given is closed with the wrapper: none is left listening.
    await vi.waitFor(() => expect(closed).toBe(clients.length));
    expect(dirs[1]).toBe(dirs[0]);
  });

  it('a start that failed is not kept: the next one tries again', async () => {
    const wrap = wrapper(await temp('pb-data-'));
    const first = await wrap(server({ network: ['a.example.com'] }), 'a', spec('a'));
    const runDir = path.dirname(proxyDirOf(first.args));
    // Block the next proxy's directory and the no-subprocess filter's file: both starts fail.
    const nextProxy = path.join(runDir, 'p1');
    const filterFile = path.join(runDir, `no-subprocesses-${process.arch}.bpf`);
    await mkdir(nextProxy);
    await mkdir(filterFile);
    await expect(wrap(server({ network: ['b.example.com'] }), 'b', spec('b'))).rejects.toThrow(/EEXIST/);
    await expect(wrap(server({ subprocesses: false }), 'c', spec('c'))).rejects.toThrow(/EISDIR/);
    await rmdir(nextProxy);
    await rmdir(filterFile);
    const b = await wrap(server({ network: ['b.example.com'] }), 'b', spec('b'));
    await connected(path.join(proxyDirOf(b.args), PROXY_SOCKET_NAME));
    const c = await wrap(server({ subprocesses: false }), 'c', spec('c'));
    expect(c.args).toContain(filterFile);
    expect((await stat(filterFile)).isFile()).toBe(true);
  });

  it("a private directory that could not be made is not kept either", async () => {
    const wrap = wrapper(await temp('pb-data-'));
    const tmp = process.env.TMPDIR;
    // os.tmpdir() reads TMPDIR on each call; this test file runs in a process of its own.
    process.env.TMPDIR = path.join(await temp('pb-tmp-'), 'missing');
    try {
      await expect(wrap(server({ network: ['a.example.com'] }), 'a', spec('a'))).rejects.toThrow(/ENOENT/);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    const plan = await wrap(server({ network: ['a.example.com'] }), 'a', spec('a'));
    await connected(path.join(proxyDirOf(plan.args), PROXY_SOCKET_NAME));
  });
});
