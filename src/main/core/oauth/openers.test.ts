import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { followRedirectsOpener, openerCommand, platformOpener } from './openers.js';

describe('openers', () => {
  const url = 'https://as.example/authorize?client_id=a&state=b|c';

  it('uses open, xdg-open or start, escaping cmd metacharacters on Windows', () => {
    expect(openerCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(openerCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(openerCommand(url, 'freebsd')).toEqual({ command: 'xdg-open', args: [url] });
    const win = openerCommand(url, 'win32');
    expect(win.command).toBe('cmd');
    expect(win.args.at(-1)).toBe('start "" "https://as.example/authorize?client_id=a^&state=b^|c"');
  });

  it('prints the URL (for terminals and client logs) and runs the opener', async () => {
    const printed: string[] = [];
    const ran: Array<[string, string[]]> = [];
    const open = platformOpener({ platform: 'linux', print: (l) => printed.push(l), run: async (c, a) => void ran.push([c, a]) });
    await open(url, { serverId: 'linear' });
    expect(printed.join('\n')).toContain(url);
    expect(printed.join('\n')).toContain("'linear'");
    expect(ran).toEqual([['xdg-open', [url]]]);
  });

  it('a missing opener command is an error the engine reports (the URL was printed already)', async () => {
    const open = platformOpener({ platform: 'linux', print: () => undefined, run: () => Promise.reject(new Error('xdg-open: spawn xdg-open ENOENT')) });
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
