/**
 * Helpers for the relay's integration tests: temp data dirs with the everything fixture, relay
 * processes spawned from the built CLI (as an MCP client would), and the cleanup of the hubs
 * they start in the background (detached, so they are not children of the test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { onCleanup } from '../helpers/cleanup.js';
import { childrenOf, cmdline, hasProc, isAlive, killQuietly } from '../helpers/processes.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';

export const BIN = path.join(REPO_ROOT, 'bin', 'patchbay.js');

/** The relay runs from dist/: fail with the fix rather than a confusing spawn error. */
export function requireBuild(): void {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'main', 'cli', 'commands', 'relay.js'))) {
    throw new Error('the CLI is not built (dist/main/cli/commands/relay.js is missing): run `npm run build` first');
  }
}

/** A temp data dir whose config serves the everything fixture as `fx`, on a free port. */
export async function tempHome(extraConfig: Record<string, unknown> = {}): Promise<string> {
  const home = await tempDir('patchbay-relay-test-');
  // Registered after the dir's removal, so it runs before it: the hubs stop, then the dir goes.
  onCleanup(() => stopHubsOf(home));
  const config = { mcpServers: { fx: everythingServer() }, hub: { port: 0 }, ...extraConfig };
  await writeFile(path.join(home, 'config.json'), JSON.stringify(config, null, 2));
  return home;
}

export function relayEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, PATCHBAY_HOME: home, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn' };
}

export interface HubRecord {
  pid: number;
  port: number;
  url: string;
}

export async function hubRecord(home: string): Promise<HubRecord | undefined> {
  try {
    return JSON.parse(await readFile(path.join(home, 'hub.json'), 'utf8')) as HubRecord;
  } catch {
    return undefined;
  }
}

/** Pids of `patchbay serve` processes for this data dir (Linux only; empty elsewhere). */
export function servePids(home: string): number[] {
  if (!hasProc()) return [];
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      const cmd = cmdline(pid);
      return cmd.includes(BIN) && cmd.includes(' serve') && cmd.includes(home) && isAlive(pid);
    });
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const child of childrenOf(pid)) out.push(child, ...descendants(child));
  return out;
}

/** Stops every hub started for this data dir: SIGTERM (it stops its children), then SIGKILL. */
export async function stopHubsOf(home: string): Promise<void> {
  const record = await hubRecord(home);
  const pids = new Set(servePids(home));
  if (record && isAlive(record.pid)) pids.add(record.pid);
  for (const pid of pids) await stopProcess(pid);
}

export async function stopProcess(pid: number): Promise<void> {
  const family = descendants(pid);
  killQuietly(pid, 'SIGTERM');
  try {
    await waitFor(() => !isAlive(pid), `process ${pid} to stop`, 5000);
  } catch {
    killQuietly(pid, 'SIGKILL');
  }
  for (const child of family) if (isAlive(child)) killQuietly(child, 'SIGKILL');
}

/** A relay process with its stdout read as JSON-RPC lines. */
export interface RelayProcess {
  child: ChildProcess;
  /** Every stdout line, parsed (a line that is not JSON fails the test that reads it). */
  messages: Array<Record<string, unknown>>;
  /** Lines on stdout that were not JSON-RPC messages (must stay empty). */
  junk: string[];
  stderr(): string;
  write(message: Record<string, unknown>): void;
  answer(id: number | string, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited(): Promise<number | null>;
}

export function spawnRelay(home: string, args: string[], env: Record<string, string> = relayEnv(home)): RelayProcess {
  const child = spawn(process.execPath, [BIN, 'relay', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // As a client would: close stdin and let it clean up (its session, the temp dir of --url).
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    await exit;
    clearTimeout(timer);
  });
  const messages: Array<Record<string, unknown>> = [];
  const junk: string[] = [];
  let err = '';
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    // Only the new chunk is searched for line ends: a 50 MB line arrives in hundreds of chunks.
    if (!chunk.includes('\n')) {
      buffer += chunk;
      return;
    }
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        if (value.jsonrpc === '2.0') messages.push(value);
        else junk.push(line);
      } catch {
        junk.push(line);
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (err += chunk));
  return {
    child,
    messages,
    junk,
    stderr: () => err,
    write: (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n'),
    answer: (id, timeoutMs = 20_000) =>
      waitFor(() => messages.find((m) => m.id === id && !('method' in m)), `the relay's answer to request ${id} (stderr: ${err.slice(-500)})`, timeoutMs),
    exited: () => exit,
  };
}

export function initialize(id: number | string = 0): Record<string, unknown> {
  return { id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'relay-test', version: '1' } } };
}

/** The text of a tools/call answer. */
export function textOf(answer: Record<string, unknown>): string {
  const result = answer.result as { content?: Array<{ text?: string }> } | undefined;
  if (!result) throw new Error(`expected a result, got ${JSON.stringify(answer)}`);
  return result.content?.[0]?.text ?? '';
}

export function hubLog(home: string): string {
  try {
    return readFileSync(path.join(home, 'logs', 'hub.log'), 'utf8');
  } catch {
    return '';
  }
}
