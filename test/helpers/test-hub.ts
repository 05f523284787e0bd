/**
 * A real engine in this process for a test: port 0, a fresh temp data dir (or a given one), the
 * config and secrets the test asks for. It is closed after the test (see cleanup.ts).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEngine, type EngineOptions, type RunningEngine } from '../../src/main/core/engine/engine.js';
import { onCleanup } from './cleanup.js';
import type { RemoteServerEntry, ServerEntry } from './server-entries.js';
import { tempDir } from './temp-dir.js';

export interface HubOptions {
  servers: Record<string, ServerEntry | RemoteServerEntry>;
  hub?: { maxBodyBytes?: number; allowedOrigins?: string[]; sessionIdleTimeoutMs?: number; maxSessions?: number };
  /** More top-level config sections (e.g. `inspector`). */
  config?: Record<string, unknown>;
  /** Secrets in the file store before the engine starts (name → value). */
  secrets?: Record<string, string>;
  /** Run on this data dir (e.g. a restart on the same one); the caller removes it. Default: a temp dir removed after the test. */
  dataDir?: string;
  /** false = `--no-auth`. Default true. */
  auth?: boolean;
  tickMs?: number;
  keepAliveMs?: number;
  /**
   * Let the engine read the login shell's PATH (P31). Default false: PATCHBAY_NO_LOGIN_SHELL=1.
   * The engine caches the answer per process, so only a test file of its own can use this.
   */
  loginShell?: boolean;
  /** Further engine options (capture, clients, OAuth's opener and wait). */
  engine?: Omit<Partial<EngineOptions>, 'dataDir' | 'port' | 'auth' | 'tickMs' | 'keepAliveMs'>;
}

export interface TestHub {
  engine: RunningEngine;
  url: string;
  port: number;
  /** The bearer token, or undefined with auth off. */
  token: string | undefined;
  dataDir: string;
  mcpUrl(serverId: string): string;
  /** `{ Authorization: 'Bearer …' }` or `{}` when auth is off. */
  authHeader(): Record<string, string>;
  close(): Promise<void>;
}

export async function startHub(options: HubOptions): Promise<TestHub> {
  if (options.loginShell) delete process.env.PATCHBAY_NO_LOGIN_SHELL;
  else process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  const dataDir = options.dataDir ?? (await tempDir('patchbay-hub-test-'));
  await mkdir(dataDir, { recursive: true });
  const config: Record<string, unknown> = { mcpServers: options.servers, ...(options.hub ? { hub: options.hub } : {}), ...options.config };
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config, null, 2));
  if (options.secrets) {
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: options.secrets }, null, 2), { mode: 0o600 });
  }
  const auth = options.auth ?? true;
  const engine = await startEngine({
    dataDir,
    port: 0,
    auth,
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    // No test may open a real browser (an OAuth sign-in page).
    openUrl: () => undefined,
    ...options.engine,
  });
  onCleanup(() => engine.close());
  const token = auth ? readFileSync(engine.tokenFile, 'utf8').trim() : undefined;
  return {
    engine,
    url: engine.url,
    port: engine.port,
    token,
    dataDir,
    mcpUrl: (id) => `${engine.url}/mcp/${encodeURIComponent(id)}`,
    authHeader: (): Record<string, string> => (token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    close: () => engine.close(),
  };
}
