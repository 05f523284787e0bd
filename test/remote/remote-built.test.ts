/**
 * The remote upstream as shipped (dist/, built here): environment the engine honours at start
 * (NODE_EXTRA_CA_CERTS), and the official conformance suite's client scenarios for OAuth, run
 * against the engine's remote upstream through test/remote/conformance-client.mjs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initializeRequest } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { REMOTE_HTTP_SERVER, startFixture } from './remote-harness.js';
import { ensureBuilt } from '../helpers/built.js';
import { NODE22_DIR } from '../../scripts/lib/conformance-kit.mjs';

const SUITE = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT = path.join(REPO_ROOT, 'test', 'remote', 'conformance-client.mjs');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) console.warn('skipping the private CA test: no openssl on PATH to make the CA');
const INSTALL_NODE22 = 'run `node scripts/conformance.mjs --install-only` (npm test does)';

/**
 * A Node >= 22 for the suite's CLI, found the way ensureNode22 (scripts/lib/conformance-kit.mjs)
 * finds it, without installing: this Node when it is new enough, else the
 * node-<platform>-<arch> package that `scripts/conformance.mjs --install-only` puts into
 * .cache/node22. Returns why there is none instead of a path when there is none.
 */
function findNode22(): { node: string } | { missing: string } {
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath };
  const plat = ({ linux: 'linux', darwin: 'darwin', win32: 'win' } as Record<string, string>)[process.platform];
  const arch = ({ x64: 'x64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  if (!plat || !arch || (plat === 'win' && arch !== 'x64')) {
    return { missing: `Node ${process.versions.node} is older than 22 and there is no Node 22 package for ${process.platform}-${process.arch}: run the tests with Node >= 22` };
  }
  const pkgDir = path.join(NODE22_DIR, 'node_modules', `node-${plat}-${arch}`);
  const binary = [path.join(pkgDir, 'bin', 'node'), path.join(pkgDir, 'bin', 'node.exe'), path.join(pkgDir, 'node.exe')].find((c) => existsSync(c));
  if (!binary) return { missing: `no Node >= 22 (this is Node ${process.versions.node} and ${path.relative(REPO_ROOT, pkgDir)} is not installed): ${INSTALL_NODE22}` };
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const major = Number(String(probe.stdout).trim().replace(/^v/, '').split('.')[0]);
  if (probe.status !== 0 || !(major >= 22)) {
    return { missing: `${path.relative(REPO_ROOT, binary)} does not run as Node >= 22 (${probe.error?.message ?? `${probe.stderr}${probe.stdout}`.trim()}): ${INSTALL_NODE22}` };
  }
  return { node: binary };
}
const node22 = findNode22();
const NODE22 = 'node' in node22 ? node22.node : undefined;
const noNode22 = 'missing' in node22 ? node22.missing : undefined;
// Without it the scenarios cannot run: a CI run fails (inside the test, below), a local run skips
// them and says why, in the test's name and on stderr (the default reporter lists no skipped test).
const skipScenarios = noNode22 !== undefined && !process.env.CI;
if (skipScenarios) console.warn(`skipping the conformance suite's client scenarios: ${noNode22}`);

beforeAll(() => ensureBuilt(), 180_000);

/** `patchbay serve --port 0 --no-auth` as a child process, as a TestHub. */
async function serve(config: unknown, env: Record<string, string>): Promise<TestHub> {
  const dataDir = await tempDir('patchbay-remote-built-');
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config));
  const { url } = await startServeProcess({ dataDir, env: { PATCHBAY_LOG_LEVEL: 'warn', ...env } });
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
  it.skipIf(!hasOpenssl)(`trusts a private CA from NODE_EXTRA_CA_CERTS (and says so when it is missing)${hasOpenssl ? '' : ' (skipped: no openssl on PATH to make the CA)'}`, async () => {
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
  // The suite's CLI needs Node >= 22 (findNode22 above).
  it.skipIf(skipScenarios)(
    `passes the conformance suite client scenarios for OAuth and SSE retry${skipScenarios ? ` (skipped: ${noNode22})` : ''}`,
    async () => {
      if (NODE22 === undefined) throw new Error(`cannot run the conformance suite's client scenarios: ${noNode22}`);
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
