import cp from 'node:child_process';
import { EventEmitter } from 'node:events';
import { access, constants } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followRedirectsOpener, openInBrowser, platformOpener, type OpenTarget } from './openers.js';

// A sign-in URL with what cmd.exe mangles (`&`, `%`, `^`, `|`) and PowerShell quotes (`'`).
const url = "https://as.example/authorize?client_id=a&state=b|c&scope=x%20y&q=it's^";

interface Spawned {
  command: string;
  args: string[];
  options: Record<string, unknown>;
}

/**
 * The `open` package as it behaves on `platform`, with its spawn recorded instead of run. `open`
 * reads `process.platform` when it loads, so a fresh copy is evaluated (a distinct module URL)
 * while the platform is faked: this machine is Linux, Windows and macOS are simulated here.
 * WSL is not: `open` detects it from the kernel (is-wsl), and on WSL it runs Windows'
 * PowerShell through /mnt/c the same way as on Windows.
 */
async function openAs(platform: NodeJS.Platform, spawned: Spawned[]): Promise<OpenTarget> {
  vi.spyOn(cp, 'spawn').mockImplementation(((command: string, args: string[], options: Record<string, unknown>) => {
    spawned.push({ command, args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined });
    queueMicrotask(() => {
      child.emit('spawn');
      child.emit('close', 0);
    });
    return child;
  }) as unknown as typeof cp.spawn);
  const file = createRequire(import.meta.url).resolve('open');
  const real = process.platform;
  Object.defineProperty(process, 'platform', { value: platform });
  try {
    const mod = (await import(/* @vite-ignore */ `${pathToFileURL(file).href}?as=${platform}`)) as { default: OpenTarget };
    return mod.default;
  } finally {
    Object.defineProperty(process, 'platform', { value: real });
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('opening the sign-in page', () => {
  it('on Windows: PowerShell Start with the URL intact (no cmd.exe, no carets), Base64-encoded', async () => {
    vi.stubEnv('SYSTEMROOT', 'C:\\Windows');
    const spawned: Spawned[] = [];
    const open = await openAs('win32', spawned);
    await openInBrowser(url, async () => open);
    expect(spawned).toHaveLength(1);
    const [call] = spawned;
    expect(call!.command).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(call!.args.slice(0, -1)).toEqual(['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    expect(call!.options).toEqual({ windowsVerbatimArguments: true, stdio: 'ignore' });
    // PowerShell reads the command as UTF-16LE Base64; inside single quotes only `'` is special (doubled).
    const script = Buffer.from(call!.args.at(-1)!, 'base64').toString('utf16le');
    expect(script).toBe(`$ProgressPreference = 'SilentlyContinue'; Start '${url.replace(/'/g, "''")}'`);
    expect(script).not.toContain('^&');
  });

  it('on macOS: open URL', async () => {
    const spawned: Spawned[] = [];
    await openInBrowser(url, async () => openAs('darwin', spawned));
    expect(spawned).toEqual([{ command: 'open', args: [url], options: {} }]);
  });

  it('on Linux: xdg-open URL (the copy shipped with `open` when it is executable), detached', async () => {
    const shipped = path.join(path.dirname(createRequire(import.meta.url).resolve('open')), 'xdg-open');
    const executable = await access(shipped, constants.X_OK).then(() => true, () => false);
    const spawned: Spawned[] = [];
    await openInBrowser(url, async () => openAs('linux', spawned));
    expect(spawned).toEqual([{ command: executable ? shipped : 'xdg-open', args: [url], options: { stdio: 'ignore', detached: true } }]);
  });

  it('prints the URL (for terminals and client logs) and opens it', async () => {
    const printed: string[] = [];
    const opened: string[] = [];
    const open = platformOpener({ print: (l) => printed.push(l), open: async (u) => void opened.push(u) });
    await open(url, { serverId: 'linear' });
    expect(printed.join('\n')).toContain(url);
    expect(printed.join('\n')).toContain("'linear'");
    expect(opened).toEqual([url]);
  });

  it('a missing opener command is an error the engine reports (the URL was printed already)', async () => {
    const open = platformOpener({ print: () => undefined, open: () => Promise.reject(new Error('spawn xdg-open ENOENT')) });
    await expect(open(url, { serverId: 's' })).rejects.toThrow(/ENOENT/);
  });

  it('the redirect-following opener follows redirects and fails on an error page', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { Location: '/done' });
        return res.end();
      }
      res.writeHead(req.url === '/done' ? 200 : 400);
      res.end('page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await followRedirectsOpener()(`${base}/start`, { serverId: 's' });
      await expect(followRedirectsOpener()(`${base}/bad`, { serverId: 's' })).rejects.toThrow(/HTTP 400/);
    } finally {
      server.close();
    }
  });
});
