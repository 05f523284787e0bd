/**
 * Finds the running hub for a data dir, or starts one: `patchbay serve` detached in the
 * background (its own session, output to `<data dir>/logs/hub.log`), so it outlives the relay
 * and the client that launched it. Ten relays started at once start one hub: the start lock
 * picks the one that launches it; the others wait for its discovery file.
 */
import { spawn } from 'node:child_process';
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../core/index.js';
import { dataPaths } from '../core/index.js';
import { discoverHub, removeStaleDiscovery, type Discovery, type HubInfo } from './hub-discovery.js';
import { delay } from './response-reader.js';
import { tryLock } from './start-lock.js';

export interface LaunchOptions {
  dataDir: string;
  /** How to run `patchbay serve --data-dir <dir>`: e.g. `process.execPath` and the bin script. */
  serveCommand: { command: string; args: string[] };
  /** False: only find a running hub, never start one. */
  autoStart: boolean;
  /** How long to wait for a hub to come up (default 20 s). */
  startTimeoutMs?: number;
  logger: Logger;
}

const POLL_MS = 50;
const MAX_LOG_BYTES = 5 * 1024 * 1024;

export function hubLogFile(dataDir: string): string {
  return path.join(dataPaths(dataDir).logsDir, 'hub.log');
}

/** The running hub, starting it first if needed and allowed. Throws a message a person can act on. */
export async function ensureHub(options: LaunchOptions): Promise<HubInfo> {
  const paths = dataPaths(options.dataDir);
  const timeoutMs = options.startTimeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  const lockFile = path.join(options.dataDir, 'hub.start.lock');
  let found = await discoverHub(paths.discoveryFile);
  if (found.ok) return found.value;
  await clearStale(found, paths.discoveryFile, options.logger);
  if (!options.autoStart) {
    throw new Error(`${found.message}; start it with 'patchbay serve' (this relay was told not to start one)`);
  }
  let waited = false;
  while (Date.now() < deadline) {
    const lock = await tryLock(lockFile, timeoutMs + 10_000);
    if (lock) {
      try {
        // Someone may have started it between our look and the lock.
        found = await discoverHub(paths.discoveryFile);
        if (found.ok) return found.value;
        return await launch(options, deadline);
      } finally {
        await lock.release();
      }
    }
    if (!waited) options.logger.info('another relay is starting the hub; waiting for it');
    waited = true;
    await delay(POLL_MS);
    found = await discoverHub(paths.discoveryFile);
    if (found.ok) return found.value;
  }
  throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for the hub to start; see ${hubLogFile(options.dataDir)}`);
}

async function launch(options: LaunchOptions, deadline: number): Promise<HubInfo> {
  const paths = dataPaths(options.dataDir);
  const logFile = hubLogFile(options.dataDir);
  await mkdir(paths.logsDir, { recursive: true, mode: 0o700 });
  await rotate(logFile);
  const log = await open(logFile, 'a', 0o600);
  const startOffset = (await log.stat()).size;
  options.logger.info(`starting the hub in the background (log: ${logFile})`);
  let exit: string | undefined;
  try {
    await log.write(`\n--- ${new Date().toISOString()} started by patchbay relay (pid ${process.pid}) ---\n`);
    const child = spawn(options.serveCommand.command, [...options.serveCommand.args, '--data-dir', options.dataDir], {
      // Its own session: the client's Ctrl-C or exit does not reach it, and no terminal holds it.
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      cwd: options.dataDir,
      env: process.env,
      windowsHide: true,
    });
    child.once('error', (err) => {
      exit = `could not be spawned: ${err.message}`;
    });
    child.once('exit', (code, signal) => {
      exit = `exited with ${signal ?? `code ${code}`}`;
    });
    child.unref();
  } finally {
    await log.close();
  }
  while (Date.now() < deadline) {
    await delay(POLL_MS);
    const found = await discoverHub(paths.discoveryFile, 1000);
    if (found.ok) return found.value;
    if (exit !== undefined) {
      throw new Error(`the hub ${exit}: ${await logTail(logFile, startOffset)} (full log: ${logFile})`);
    }
  }
  throw new Error(`the hub did not come up within the time limit; see ${logFile}`);
}

/** A discovery file whose hub is gone is removed, so nobody else trusts it meanwhile. */
async function clearStale(found: Discovery, discoveryFile: string, logger: Logger): Promise<void> {
  if (found.ok || found.code !== 'dead') return;
  if (await removeStaleDiscovery(discoveryFile, found.text)) logger.debug(`removed a stale discovery file: ${found.message}`);
}

/** Keeps one previous log: the hub log is append-only otherwise. */
async function rotate(logFile: string): Promise<void> {
  try {
    if ((await stat(logFile)).size > MAX_LOG_BYTES) await rename(logFile, `${logFile}.1`);
  } catch {
    // no log yet
  }
}

async function logTail(logFile: string, from: number): Promise<string> {
  const bytes = await readFile(logFile).catch(() => Buffer.alloc(0));
  const lines = bytes.subarray(from).toString('utf8').trim().split('\n').filter((l) => !l.startsWith('---'));
  return lines.slice(-5).join(' | ') || '(no output)';
}
