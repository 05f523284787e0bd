/**
 * Issue 25: an `npx`-run server starts in its sandbox — npx fetches the package there, into the
 * server's own HOME (its cache private to it), and runs it. The package registry is a loopback
 * one (test/fixtures/loopback-npm.mjs; tests reach only loopback): a real `npm pack` tarball of
 * a one-file MCP server, named by `npm_config_registry` in the entry's env, as a mirror would be.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxSupport } from '../../src/main/core/sandbox/sandbox-support.js';
import { onCleanup } from '../helpers/cleanup.js';
import { loopbackRegistry, npmEnv, packProbe, PROBE as NAME } from '../fixtures/loopback-npm.mjs';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';

const support = await sandboxSupport();

describe.runIf(support.available)(`an npx-run server in its sandbox (${support.detail})`, () => {
  it('npx fetches the package inside the sandbox, into the server\'s own HOME, and runs it there; a file outside its policy stays out of reach', async () => {
    const registry = await loopbackRegistry(packProbe());
    onCleanup(() => registry.close());
    const home = await tempDir('patchbay-npx-home-');
    const canary = path.join(home, '.ssh-canary');
    writeFileSync(canary, 'the key of another server');
    const hub = await startHub({
      servers: {
        probe: {
          command: 'npx',
          args: ['-y', `${NAME}@1.0.0`],
          env: npmEnv(registry.url),
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
