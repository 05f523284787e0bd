import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProtocolHandler } from './app-protocol.js';
import { DESKTOP_CSP } from './csp.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchbay-app-protocol-'));
  await mkdir(path.join(root, 'ui', 'assets'), { recursive: true });
  await writeFile(path.join(root, 'ui', 'index.html'), '<!doctype html><title>Patchbay</title>');
  await writeFile(path.join(root, 'ui', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(root, 'secret.txt'), 'outside the UI root');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET'): Promise<Response> => appProtocolHandler(path.join(root, 'ui'))(new Request(url, { method }));

describe('app:// scheme', () => {
  it('serves the UI with the strict CSP on every response', async () => {
    const index = await get('app://patchbay/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(DESKTOP_CSP);
    expect(await index.text()).toContain('<title>Patchbay</title>');
    const script = await get('app://patchbay/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://patchbay/')).status).toBe(200);
  });

  it('serves nothing outside the UI root, of another host, or of an unknown type', async () => {
    for (const url of ['app://patchbay/../secret.txt', 'app://patchbay/%2e%2e/secret.txt', 'app://patchbay/..%2fsecret.txt', 'app://other/index.html', 'app://patchbay/missing.js']) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(DESKTOP_CSP);
    }
    expect((await get('app://patchbay/index.html', 'POST')).status).toBe(405);
  });

  it('serves the MCP Apps sandbox page under its own CSP, built from validated domains', async () => {
    const csp = encodeURIComponent(JSON.stringify({ connectDomains: ['https://api.example.com', "https://x.com; script-src 'self'"] }));
    const page = await get(`app://patchbay/app-sandbox?csp=${csp}`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).not.toContain('x.com');
    expect(policy).toContain("frame-ancestors 'self'");
    expect(await page.text()).toContain('patchbay/app-html');
  });
});
