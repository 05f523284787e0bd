/**
 * Issue 25: an `npx`-run server starts in its sandbox — npx fetches the package there, into the
 * server's own HOME (its cache private to it), and runs it. The package registry is a loopback
 * one of this test's (tests reach only loopback): a real `npm pack` tarball of a one-file MCP
 * server (test/fixtures/mini-mcp.mjs and a tool that says where it runs), served with its
 * packument, and named by `npm_config_registry` in the entry's env, as a company mirror would be.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../src/main/core/sandbox/sandbox-support.js';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';

const support = await sandboxSupport();
const NAME = 'patchbay-sandbox-probe';

/** The package as npm would publish it: a tarball made by `npm pack` (no network involved). */
async function packProbe(): Promise<Buffer> {
  const dir = await tempDir('patchbay-npx-probe-');
  copyFileSync(path.join(FIXTURES_DIR, 'mini-mcp.mjs'), path.join(dir, 'mini-mcp.mjs'));
  writeFileSync(
    path.join(dir, 'server.mjs'),
    `#!/usr/bin/env node
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { serve, textResult } from './mini-mcp.mjs';
const tools = new Map([['where', { def: { name: 'where', description: 'Where this runs', inputSchema: { type: 'object', properties: { canary: { type: 'string' } } } }, call: (a) => {
  let canary = 'unreadable';
  try { canary = readFileSync(a.canary, 'utf8'); } catch {}
  return textResult(JSON.stringify({ home: process.env.HOME, cwd: process.cwd(), canary }));
} }]]);
serve({ name: '${NAME}', tools });
`,
  );
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: NAME, version: '1.0.0', type: 'module', bin: { [NAME]: 'server.mjs' }, files: ['server.mjs', 'mini-mcp.mjs'] }));
  const file = execFileSync('npm', ['pack', '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!;
  return readFileSync(path.join(dir, file));
}

/** A package registry on loopback serving that one package. */
async function loopbackRegistry(tarball: Buffer): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    if (req.url === `/${NAME}`) {
      const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const version = { name: NAME, version: '1.0.0', bin: { [NAME]: 'server.mjs' }, dist: { tarball: `${base}/${NAME}/-/${NAME}-1.0.0.tgz`, integrity } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: NAME, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    } else if (req.url === `/${NAME}/-/${NAME}-1.0.0.tgz`) {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(tarball);
    } else {
      res.statusCode = 404;
      res.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`, requests };
}

describe.runIf(support.available)(`an npx-run server in its sandbox (${support.detail})`, () => {
  it('npx fetches the package inside the sandbox, into the server\'s own HOME, and runs it there; a file outside its policy stays out of reach', async () => {
    const registry = await loopbackRegistry(await packProbe());
    const home = await tempDir('patchbay-npx-home-');
    const canary = path.join(home, '.ssh-canary');
    writeFileSync(canary, 'the key of another server');
    const hub = await startHub({
      servers: {
        probe: {
          command: 'npx',
          args: ['-y', `${NAME}@1.0.0`],
          env: { npm_config_registry: registry.url, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' },
          sandbox: true,
          startupTimeoutMs: 120_000,
        } as never,
      },
    });
    const client = await connect(hub, 'probe');
    const where = JSON.parse(await client.tool('where', { canary })) as { home: string; cwd: string; canary: string };
    // The sandbox's own directory is its HOME and working directory (where npx's cache went).
    expect(where.home).toBe(path.join(hub.dataDir, 'sandbox', 'probe'));
    expect(where.cwd).toBe(where.home);
    expect(where.canary).toBe('unreadable');
    // npx asked the registry for the package and its tarball from inside the sandbox.
    expect(registry.requests).toEqual(expect.arrayContaining([`/${NAME}`, `/${NAME}/-/${NAME}-1.0.0.tgz`]));
  }, 180_000);
});
