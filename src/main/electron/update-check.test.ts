/** The update check: the feed's format, version order, and the checker against a feed on loopback. */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../core/index.js';
import { UpdateChecker, type UpdateResult } from './update-checker.js';
import { DEFAULT_UPDATE_FEED, isNewer, latestRelease, updateFeedSetting } from './update-feed.js';

const logger = createLogger('test');
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function feed(answer: () => { status: number; body: unknown }): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers['user-agent']}`);
    const { status, body } = answer();
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/releases/latest`, hits };
}

describe('release feed', () => {
  it("reads GitHub's latest release, or the first published one of a list", () => {
    expect(latestRelease({ tag_name: 'v1.2.3', html_url: 'https://github.com/o/r/releases/tag/v1.2.3' })).toEqual({ version: '1.2.3', url: 'https://github.com/o/r/releases/tag/v1.2.3' });
    const list = [
      { tag_name: 'v2.0.0', html_url: 'https://x/2', draft: true },
      { tag_name: 'v1.9.0-beta.1', html_url: 'https://x/b', prerelease: true },
      { tag_name: 'v1.8.0', html_url: 'https://x/1.8' },
    ];
    expect(latestRelease(list)).toEqual({ version: '1.8.0', url: 'https://x/1.8' });
    expect(latestRelease({ tag_name: 'nightly', html_url: 'https://x' })).toBeUndefined();
    expect(latestRelease({ tag_name: 'v1.0.0', html_url: 'javascript:alert(1)' })).toBeUndefined();
    expect(latestRelease({ message: 'Not Found' })).toBeUndefined();
  });

  it('orders versions as semver does', () => {
    expect(isNewer('0.2.0', '0.1.0')).toBe(true);
    expect(isNewer('0.10.0', '0.9.9')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0')).toBe(false);
    expect(isNewer('1.0.0-rc.1', '1.0.0')).toBe(false);
    expect(isNewer('1.0.0', '1.0.0-rc.1')).toBe(true);
    expect(isNewer('1.0.0-rc.10', '1.0.0-rc.9')).toBe(true);
    expect(isNewer('0.9.0', '1.0.0')).toBe(false);
    expect(isNewer('garbage', '1.0.0')).toBe(false);
  });

  it("defaults to the project's GitHub releases; PATCHBAY_UPDATE_FEED points elsewhere or turns it off", () => {
    expect(updateFeedSetting({})).toEqual({ enabled: true, url: DEFAULT_UPDATE_FEED });
    expect(DEFAULT_UPDATE_FEED).toMatch(/^https:\/\/api\.github\.com\/repos\/[^/]+\/[^/]+\/releases\/latest$/);
    expect(updateFeedSetting({ PATCHBAY_UPDATE_FEED: 'http://127.0.0.1:9/feed' })).toEqual({ enabled: true, url: 'http://127.0.0.1:9/feed' });
    expect(updateFeedSetting({ PATCHBAY_UPDATE_FEED: 'OFF' })).toEqual({ enabled: false });
  });
});

describe('update checker', () => {
  it('announces a newer release once (automatic checks), reports every manual check, and only reads the feed', async () => {
    let tag = 'v0.2.0';
    const f = await feed(() => ({ status: 200, body: { tag_name: tag, html_url: `https://example.com/${tag}` } }));
    const results: Array<[UpdateResult['kind'], boolean]> = [];
    const checker = new UpdateChecker({ feed: { enabled: true, url: f.url }, currentVersion: '0.1.0', fetch: (url, init) => fetch(url, init), onResult: (r, manual) => results.push([r.kind, manual]), logger });
    expect(await checker.check(false)).toEqual({ kind: 'available', release: { version: '0.2.0', url: 'https://example.com/v0.2.0' } });
    await checker.check(false);
    expect(results).toEqual([['available', false]]);
    expect(checker.available?.version).toBe('0.2.0');
    await checker.check(true);
    tag = 'v0.3.0';
    await checker.check(false);
    tag = 'v0.1.0';
    expect(await checker.check(true)).toEqual({ kind: 'up-to-date', version: '0.1.0' });
    expect(results).toEqual([
      ['available', false],
      ['available', true],
      ['available', false],
      ['up-to-date', true],
    ]);
    expect(f.hits).toHaveLength(5);
    expect(f.hits.every((h) => h === 'GET /releases/latest Patchbay/0.1.0')).toBe(true);
  });

  it('says why a check failed, and does nothing when turned off', async () => {
    const f = await feed(() => ({ status: 503, body: {} }));
    const checker = new UpdateChecker({ feed: { enabled: true, url: f.url }, currentVersion: '0.1.0', fetch: (url, init) => fetch(url, init), onResult: () => undefined, logger });
    expect(await checker.check(true)).toEqual({ kind: 'failed', message: 'the release feed answered HTTP 503' });
    const off = new UpdateChecker({ feed: { enabled: false }, currentVersion: '0.1.0', fetch: () => Promise.reject(new Error('must not fetch')), onResult: () => undefined, logger });
    off.start();
    expect(await off.check(true)).toEqual({ kind: 'disabled' });
    off.stop();
  });
});
