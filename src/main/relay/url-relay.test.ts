import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenUrl } from '../core/index.js';
import { relayOpener, serverIdFor, urlRelayConfig } from './url-relay.js';
import { skipNote, WINDOWS } from '../../../test/helpers/skip-note.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('relay --url config', () => {
  it('maps the flags onto one remote server entry', () => {
    const { serverId, config } = urlRelayConfig({
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Api-Key': '${secret:KEY}' },
      transport: 'http',
      clientId: 'my-app',
      clientSecret: '${secret:APP_SECRET}',
    });
    expect(serverId).toBe('mcp.example.com');
    expect(config).toEqual({
      mcpServers: {
        'mcp.example.com': {
          url: 'https://mcp.example.com/mcp',
          headers: { 'X-Api-Key': '${secret:KEY}' },
          transport: 'streamable-http',
          oauth: { clientId: 'my-app', clientSecret: '${secret:APP_SECRET}' },
        },
      },
      inspector: { enabled: false, history: false },
    });
  });

  it('leaves out what was not given', () => {
    const { config } = urlRelayConfig({ url: 'http://localhost:3000/mcp', headers: {}, transport: 'auto' });
    expect(config.mcpServers).toEqual({ localhost: { url: 'http://localhost:3000/mcp' } });
    const sse = urlRelayConfig({ url: 'http://localhost/sse', headers: {}, transport: 'sse', clientMetadataUrl: 'https://app.example/cimd.json' });
    expect(sse.config.mcpServers).toEqual({ localhost: { url: 'http://localhost/sse', transport: 'sse', oauth: { clientMetadataUrl: 'https://app.example/cimd.json' } } });
  });

  it('names the server after a host a config id can hold', () => {
    expect(serverIdFor('http://[::1]:8080/mcp')).toBe('1');
    expect(serverIdFor('http://127.0.0.1:8080/mcp')).toBe('127.0.0.1');
    expect(serverIdFor('https://' + 'a'.repeat(80) + '.example/mcp')).toHaveLength(64);
  });
});

describe('relay opener', () => {
  // The stand-in for the platform opener: records how it was asked to open.
  const fakePlatform = (calls: string[][]) => (o?: { open?: (url: string) => Promise<void> }): OpenUrl => async (url) => {
    calls.push(['platform', url]);
    await o?.open?.(url);
  };

  it.runIf(!WINDOWS)(skipNote(WINDOWS, 'runs $BROWSER with the URL as one literal argument', '$BROWSER is a POSIX convention; Windows opens URLs with start'), async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-opener-'));
    dirs.push(dir);
    const out = path.join(dir, 'opened');
    const browser = `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[1], process.argv[2])" "${out}"`;
    const url = `http://127.0.0.1:1/authorize?a=1&b=$(touch ${dir}/pwned)&c="q'uote" space`;
    const calls: string[][] = [];
    await relayOpener(fakePlatform(calls), { BROWSER: browser })(url, { serverId: 's' });
    await expect.poll(() => readFile(out, 'utf8').catch(() => ''), { timeout: 5000 }).toBe(url);
    await expect(readFile(path.join(dir, 'pwned'))).rejects.toThrow();
  });

  it.runIf(!WINDOWS)(skipNote(WINDOWS, 'puts the URL where $BROWSER says %s', '$BROWSER is a POSIX convention; Windows opens URLs with start'), async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-opener-'));
    dirs.push(dir);
    const out = path.join(dir, 'opened');
    const browser = `"${process.execPath}" -e "require('fs').writeFileSync(process.argv[2], process.argv[1])" %s "${out}"`;
    await relayOpener(fakePlatform([]), { BROWSER: browser })('http://x/?y=1', { serverId: 's' });
    await expect.poll(() => readFile(out, 'utf8').catch(() => ''), { timeout: 5000 }).toBe('http://x/?y=1');
  });

  it('uses the platform opener when $BROWSER is not set', async () => {
    const calls: string[][] = [];
    let ran: string[] | undefined;
    const platform = (o?: { open?: (url: string) => Promise<void> }): OpenUrl => {
      ran = o?.open ? ['custom'] : ['default'];
      return fakePlatform(calls)(o);
    };
    await relayOpener(platform, {})('http://x/', { serverId: 's' });
    expect(ran).toEqual(['default']);
    expect(calls).toEqual([['platform', 'http://x/']]);
  });
});
