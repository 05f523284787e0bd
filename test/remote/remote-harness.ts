/**
 * Helpers for the remote-upstream tests: start the remote fixtures (an SDK Streamable HTTP server,
 * an SDK legacy SSE server, a small OAuth authorization server) as real processes on loopback,
 * and a hub whose config points at them. Everything is stopped after each test (the hub
 * harness's cleanup registry), and waits are on events or polled conditions, never sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEngine, type EngineOptions } from '../../src/main/core/engine/engine.js';
import { onCleanup, REPO_ROOT, withTimeout, type TestHub } from '../helpers/hub-harness.js';

export const REMOTE_HTTP_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'remote-http-server.mjs');
export const REMOTE_SSE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'remote-sse-server.mjs');
export const OAUTH_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'oauth-server.mjs');

export interface Fixture {
  /** What it printed after `listening `: the MCP endpoint (or the issuer, for the OAuth server). */
  url: string;
  origin: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** SIGKILLs it and waits for the exit. */
  kill(): Promise<void>;
  /** GETs a debug endpoint of the fixture (`/_debug/requests`, `/_debug/log`). */
  debug<T = unknown>(pathname: string): Promise<T>;
  /** POSTs to a debug endpoint (`/_debug/drop-sessions`). */
  poke(pathname: string): Promise<void>;
}

/** Starts a fixture script and waits for its `listening <url>` line. */
export async function startFixture(script: string, args: string[] = []): Promise<Fixture> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await withTimeout(
    new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening (\S+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code} before listening: ${stderr}`)));
    }),
    15_000,
    `${path.basename(script)} to listen`,
  );
  const parsed = new URL(url);
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  onCleanup(kill);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    child,
    stderr: () => stderr,
    kill,
    debug: async <T>(pathname: string) => (await (await fetch(`${parsed.origin}${pathname}`)).json()) as T,
    poke: async (pathname: string) => {
      const res = await fetch(`${parsed.origin}${pathname}`, { method: 'POST' });
      await res.text();
    },
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rpc?: string[];
}

export interface RemoteHubOptions {
  servers: Record<string, Record<string, unknown>>;
  engine?: Partial<Pick<EngineOptions, 'openUrl' | 'oauthLoginWaitMs' | 'tickMs'>>;
  /** Secrets to store before the engine starts (name → value). */
  secrets?: Record<string, string>;
}

/** A hub (in-process engine, port 0, temp data dir) with the given remote servers. */
export async function startRemoteHub(options: RemoteHubOptions): Promise<TestHub> {
  process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-remote-test-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: options.servers }, null, 2));
  if (options.secrets) {
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: options.secrets }, null, 2), { mode: 0o600 });
  }
  const engine = await startEngine({
    dataDir,
    port: 0,
    auth: true,
    tickMs: options.engine?.tickMs ?? 100,
    // No test may open a real browser.
    openUrl: options.engine?.openUrl ?? (() => undefined),
    ...(options.engine?.oauthLoginWaitMs !== undefined ? { oauthLoginWaitMs: options.engine.oauthLoginWaitMs } : {}),
  });
  onCleanup(() => engine.close());
  const token = readFileSync(engine.tokenFile, 'utf8').trim();
  return {
    engine,
    url: engine.url,
    port: engine.port,
    token,
    dataDir,
    mcpUrl: (id) => `${engine.url}/mcp/${encodeURIComponent(id)}`,
    authHeader: () => ({ Authorization: `Bearer ${token}` }),
    close: () => engine.close(),
  };
}

/** Calls the engine's API over HTTP, as the UI does. */
export async function apiCall<T>(hub: TestHub, name: string, input: unknown = {}): Promise<{ ok: boolean; value?: T; code?: string; message?: string }> {
  const res = await fetch(`${hub.url}/api/call/${name}`, {
    method: 'POST',
    headers: { ...hub.authHeader(), 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  });
  return (await res.json()) as { ok: boolean; value?: T; code?: string; message?: string };
}

/** A header's value in a recorded request (names are lower case on the wire record). */
export function headerOf(req: RecordedRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
