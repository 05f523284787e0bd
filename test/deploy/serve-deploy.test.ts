/**
 * `patchbay serve` as a container runs it (issue 23), from the build: JSON log lines on stdout
 * (`--log-format json`), the hub token from a mounted file, secrets from a mounted directory and
 * from `PATCHBAY_SECRET_<NAME>`, the config from `PATCHBAY_CONFIG`, and the usage errors for what
 * a deployment can get wrong (never echoing a value).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { tempDir } from '../helpers/temp-dir.js';
import { killQuietly } from '../helpers/processes.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { BIN } from './lb-harness.js';

beforeAll(() => ensureBuilt(), 180_000);

const TOKEN = 'deploy-test-token-0123456789-abcdefghijklmnopqrstuvwxyz';
const DIR_SECRET = 'from-the-mounted-dir-5f3a9c';
const ENV_SECRET = 'from-the-environment-8e1b7d';

interface Run {
  code: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  pid: number;
}

function serve(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  onCleanup(async () => {
    killQuietly(child.pid!, 'SIGTERM');
    await withTimeout(code, 15_000, 'serve to stop').catch(() => killQuietly(child.pid!, 'SIGKILL'));
  });
  return { code, stdout: () => stdout, stderr: () => stderr, pid: child.pid! };
}

async function envTool(url: string, token: string, name: string): Promise<string> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const res = await fetch(`${url}/mcp/fx`, {
    method: 'POST',
    headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'env' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'env', arguments: { name }, _meta: meta } }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result?: { content?: Array<{ text?: string }> } };
  return body.result?.content?.[0]?.text ?? '';
}

describe('patchbay serve in a container', () => {
  it('logs JSON lines on stdout; takes the hub token, secrets and config from mounted files and the environment', async () => {
    const root = await tempDir('patchbay-deploy-');
    const dataDir = path.join(root, 'data');
    const mounted = path.join(root, 'run', 'secrets');
    await mkdir(mounted, { recursive: true });
    await mkdir(path.join(mounted, '..data'), { recursive: true }); // what Kubernetes keeps beside the keys
    await writeFile(path.join(mounted, 'hub-token'), TOKEN + '\n');
    await writeFile(path.join(mounted, 'DIR_SECRET'), DIR_SECRET + '\n');
    const configFile = path.join(root, 'etc', 'config.json');
    await mkdir(path.dirname(configFile), { recursive: true });
    await writeFile(
      configFile,
      JSON.stringify({
        mcpServers: { fx: { command: process.execPath, args: [path.join(FIXTURES_DIR, 'dual-era-server.mjs'), '--stdio'], env: { FROM_DIR: '${secret:DIR_SECRET}', FROM_ENV: '${secret:ENV_SECRET}' } } },
      }),
    );
    const run = serve(['--log-format', 'json', '--data-dir', dataDir, '--hub-token-file', path.join(mounted, 'hub-token')], {
      PATCHBAY_CONFIG: configFile,
      PATCHBAY_SECRETS_DIR: mounted,
      PATCHBAY_SECRET_ENV_SECRET: ENV_SECRET,
    });
    const url = await waitFor(() => /"message":"hub running at (http:\/\/[^"]+)"/.exec(run.stdout())?.[1], 'serve to start', 30_000);

    // The mounted token is the hub token (and the data dir's copy, for a CLI in the container).
    expect((await readFile(path.join(dataDir, 'hub-token'), 'utf8')).trim()).toBe(TOKEN);
    expect(await envTool(url, TOKEN, 'FROM_DIR')).toBe(DIR_SECRET);
    expect(await envTool(url, TOKEN, 'FROM_ENV')).toBe(ENV_SECRET);
    // The answers carried stored secrets: the default secret check warns (names and places, no
    // values — checked below with the rest of the output), after the answers went.
    await waitFor(() => (run.stdout().match(/"scope":"engine:secret-check"/g)?.length ?? 0) >= 2 || undefined, 'the secret check to warn of both answers', 30_000);
    const wrong = await fetch(`${url}/mcp/fx`, { method: 'POST', headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json' }, body: '{}' });
    expect(wrong.status).toBe(401);
    // The config came from PATCHBAY_CONFIG: nothing was seeded into the data dir.
    await expect(readFile(path.join(dataDir, 'config.json'))).rejects.toThrow();

    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });

    killQuietly(run.pid, 'SIGTERM');
    expect(await withTimeout(run.code, 15_000, 'serve to stop')).toBe(0);
    const lines = run.stdout().split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) expect(Object.keys(r).filter((k) => k !== 'fields')).toEqual(['time', 'level', 'scope', 'message']);
    expect(records[0]).toMatchObject({ level: 'info', scope: 'serve', message: `hub running at ${url}`, fields: { url, auth: true, servers: [{ id: 'fx', kind: 'stdio' }] } });
    expect(records.at(-1)).toMatchObject({ scope: 'serve', message: 'SIGTERM received, shutting down (again to force)' });
    // Nothing else went to stderr, and no credential anywhere: no login link in kept output.
    expect(run.stderr()).toBe('');
    for (const secret of [TOKEN, DIR_SECRET, ENV_SECRET]) expect(run.stdout()).not.toContain(secret);
    expect(run.stdout()).not.toContain('/ui/login');
  }, 60_000);

  it.each([
    [['--log-format', 'xml'], {}, '--log-format must be text or json'],
    [[], { PATCHBAY_LOG_FORMAT: 'yaml' }, 'PATCHBAY_LOG_FORMAT must be text or json'],
    [['--replica-id', 'r.1'], {}, 'the replica id must be 1-63 letters, digits'],
    [[], { PATCHBAY_REPLICA_ID: 'a/b' }, 'the replica id must be 1-63 letters, digits'],
    [[], { PATCHBAY_HUB_TOKEN: 'too-short-a-secret' }, 'PATCHBAY_HUB_TOKEN must hold a hub token'],
  ])('refuses %j %j with exit 2 and says why, without echoing values', async (args, env, message) => {
    const dataDir = await tempDir('patchbay-deploy-bad-');
    const run = serve(['--data-dir', dataDir, ...args], env);
    expect(await withTimeout(run.code, 20_000, 'serve to exit')).toBe(2);
    expect(run.stderr()).toContain(message);
    expect(run.stderr() + run.stdout()).not.toContain('too-short-a-secret');
  }, 30_000);
});
