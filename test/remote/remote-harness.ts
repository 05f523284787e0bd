/**
 * Helpers for the remote-upstream tests: start the remote fixtures (an SDK Streamable HTTP server,
 * an SDK legacy SSE server, a small OAuth authorization server) as real processes on loopback,
 * and a hub whose config points at them. Everything is stopped after each test
 * (test/helpers/cleanup.ts), and waits are on events or polled conditions, never sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { EngineOptions } from '../../src/main/core/engine/engine.js';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import type { RemoteServerEntry } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';

export const REMOTE_HTTP_SERVER = path.join(FIXTURES_DIR, 'remote-http-server.mjs');
export const REMOTE_SSE_SERVER = path.join(FIXTURES_DIR, 'remote-sse-server.mjs');
export const OAUTH_SERVER = path.join(FIXTURES_DIR, 'oauth-server.mjs');

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
  servers: Record<string, RemoteServerEntry>;
  engine?: Partial<Pick<EngineOptions, 'openUrl' | 'oauthLoginWaitMs' | 'tickMs'>>;
  /** Secrets to store before the engine starts (name → value). */
  secrets?: Record<string, string>;
}

/** A hub (in-process engine, port 0, temp data dir) with the given remote servers. */
export function startRemoteHub(options: RemoteHubOptions): Promise<TestHub> {
  const { tickMs, ...engine } = options.engine ?? {};
  return startHub({
    servers: options.servers,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    tickMs: tickMs ?? 100,
    engine,
  });
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
