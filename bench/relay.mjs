#!/usr/bin/env node
// @ts-check
/**
 * The relay direction: a stdio MCP client reaching a remote Streamable HTTP server (the SDK's own
 * server, bench/sdk-http-server.mjs, echo tool) through
 *
 *   direct             no bridge: the SDK client's own Streamable HTTP transport (the floor;
 *                      nothing is spawned, so its "cold start" is connect + first call)
 *   hub-http           the SDK client over HTTP to a running hub → the remote (no relay; the
 *                      relay's own share is relay-hub minus this)
 *   relay-hub          `patchbay relay echo` → a running hub → the remote (configured as
 *                      {type: "http", url})
 *   relay-hub-start    the same with no hub running: the relay starts it (cold start only)
 *   relay-url          `patchbay relay --url <remote>`: an engine embedded in the relay
 *   mcp-remote         `mcp-remote <remote> --transport http-only` (pinned, in bench/.peers/mcp-remote)
 *
 * Three workloads, the first two driven by the official SDK v2 client:
 *   cold start   spawn → first tools/call result, fresh process each run
 *   latency      sequential small echo calls on one connection, after a warm-up
 *   exit         (relay-hub, relay-url, mcp-remote) a fresh process answers initialize and one
 *                tools/call, then its stdin is closed: the time until the process has exited, per
 *                run (p50 and max). A process still running after EXIT_WAIT_MS is killed by its
 *                pid and recorded as "did not exit within" that.
 *
 *   npm run build && node bench/relay.mjs [--quick] [--only a,b] [--runs N] [--calls N] [--skip-install] [--verbose]
 *
 * --verbose shows the bridges' stderr. bench/run.mjs runs the same (its `relay` workload) through
 * `runRelayBench()`, and puts `relayChecks()` in its Targets table.
 *
 * Results: tables on stdout, JSON in bench/results/relay-<timestamp>.json. Missed targets do not
 * fail the run; a target that errors does (exit 1), except mcp-remote when it cannot be installed.
 * Everything listens on 127.0.0.1; every process started is stopped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cpuSnapshot, foreignCpuPct, killAllSync, startProcess, stopProcess } from './lib/proc.mjs';
import { liftAbortListenerLimit } from './lib/sdk-client.mjs';
import { beside, exitSummary, exitText, fmt, formatChecks, judge, judgeExit, table } from './lib/targets.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(BENCH, '..');
const SDK_HTTP = path.join(BENCH, 'sdk-http-server.mjs');
const PEER_DIR = path.join(BENCH, '.peers', 'mcp-remote');
const MCP_REMOTE_VERSION = '0.15.1';
const RESULTS = path.join(BENCH, 'results');
const NODE = process.execPath;

/** Every target, in the order they run. */
export const RELAY_TARGETS = ['direct', 'hub-http', 'relay-hub', 'relay-app', 'relay-hub-start', 'relay-url', 'mcp-remote'];
/** How long a process may take to exit after its stdin closed before it is killed (and recorded as not exiting). */
export const EXIT_WAIT_MS = 3000;
/** The issue's relay targets. */
export const RELAY_GOALS = { p50VsMcpRemote: 0.6, overHubHttpMs: 0.3, hubCallsVsMcpRemote: 2, urlCallsVsMcpRemote: 1.5, hubStartMs: 150, urlStartMs: 400, exitMs: 500 };
/** Percent of the machine's CPU used by other processes above which a figure is flagged †. */
const FOREIGN_WARN = 10;
const ANSWER_TIMEOUT_MS = 30_000;
/** Unmeasured calls on each path (straight to the remote, through the hub, through a relay) before the first target. */
const WARM_CALLS = 2000;

// Whoever runs this (the CLI below or bench/run.mjs): temp dirs, and a hub a relay started on its
// own (detached, so not in proc.mjs's books), are gone on exit whatever happened.
/** @type {Set<string>} */
const tempDirs = new Set();
/** @type {Set<string>} data dirs where a relay may have started a hub */
const startHomes = new Set();
process.on('exit', () => {
  for (const home of startHomes) killStartedHubSync(home);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(/** @type {string} */ prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// processes

/** Starts a process that prints `listening <port>` and resolves with the port. */
async function startListening(/** @type {string} */ name, /** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env = process.env) {
  /** @type {(port: number) => void} */
  let found = () => undefined;
  const port = new Promise((resolve) => (found = resolve));
  const proc = startProcess(name, NODE, args, {
    env,
    onLine: (line) => {
      const m = /listening (\d+)/.exec(line);
      if (m) found(Number(m[1]));
    },
  });
  const p = await Promise.race([port, proc.exited.then(() => 0), sleep(15_000).then(() => 0)]);
  if (!p) {
    await stopProcess(proc);
    throw new Error(`${name} did not start: ${proc.tail.join('\n')}`);
  }
  return { proc, port: /** @type {number} */ (p) };
}

/** A data dir whose config has the remote as server `echo`, on a free port. */
function hubHome(/** @type {string} */ remoteUrl) {
  const home = tempDir('patchbay-bench-relay-');
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ mcpServers: { echo: { type: 'http', url: remoteUrl } }, hub: { port: 0 }, inspector: { history: false } }));
  return home;
}

async function startHub(/** @type {string} */ bin, /** @type {string} */ home) {
  const proc = startProcess('hub', NODE, [bin, 'serve', '--data-dir', home], { env: { ...process.env, PATCHBAY_LOG_LEVEL: 'warn' } });
  for (let i = 0; i < 300; i++) {
    if (existsSync(path.join(home, 'hub.json'))) return proc;
    if (proc.done) break;
    await sleep(50);
  }
  await stopProcess(proc);
  throw new Error(`the hub did not start: ${proc.tail.join('\n')}`);
}

/** The pid in a data dir's hub discovery file, if any. @param {string} home */
function startedHubPid(home) {
  try {
    const pid = JSON.parse(readFileSync(path.join(home, 'hub.json'), 'utf8')).pid;
    return typeof pid === 'number' && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Stops a hub a relay started on its own (detached: not ours to track), by its discovery file. */
async function stopStartedHub(/** @type {string} */ home) {
  const pid = startedHubPid(home);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}

/** Last-resort (process 'exit'): SIGKILL the hub a relay started in `home`, by its pid. */
function killStartedHubSync(/** @type {string} */ home) {
  const pid = startedHubPid(home);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

// ---------------------------------------------------------------------------------------------
// mcp-remote, pinned, in its own prefix under bench/.peers

/** @param {{ skipInstall: boolean, log: (line: string) => void }} o @returns {{ bin?: string, reason?: string }} */
function ensureMcpRemote(o) {
  const pkgFile = path.join(PEER_DIR, 'node_modules', 'mcp-remote', 'package.json');
  const installed = () => {
    try {
      return JSON.parse(readFileSync(pkgFile, 'utf8'));
    } catch {
      return undefined;
    }
  };
  if (installed()?.version !== MCP_REMOTE_VERSION && !o.skipInstall) {
    mkdirSync(PEER_DIR, { recursive: true });
    writeFileSync(
      path.join(PEER_DIR, 'package.json'),
      JSON.stringify({ name: 'patchbay-bench-relay-peers', private: true, description: 'Installed by bench/relay.mjs; not part of the project.', dependencies: { 'mcp-remote': MCP_REMOTE_VERSION } }, null, 2) + '\n',
    );
    o.log(`bench: installing mcp-remote@${MCP_REMOTE_VERSION} into ${path.relative(REPO, PEER_DIR)}`);
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--prefix', PEER_DIR, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEER_DIR, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) return { reason: (r.stderr || r.error?.message || `npm exited with ${r.status}`).trim().split('\n').slice(-2).join(' ') };
  }
  const pkg = installed();
  if (pkg?.version !== MCP_REMOTE_VERSION) return { reason: pkg ? `installed ${pkg.version}, pinned ${MCP_REMOTE_VERSION}` : 'not installed (node bench/relay.mjs installs it)' };
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['mcp-remote'];
  return rel ? { bin: path.join(PEER_DIR, 'node_modules', 'mcp-remote', rel) } : { reason: 'mcp-remote has no bin' };
}

// ---------------------------------------------------------------------------------------------
// targets

/**
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {boolean} [coldOnly]
 * @property {boolean} [exit]    measure the exit after stdin closes
 * @property {{ args: string[], env: () => Record<string, string> }} [stdio]  the process a stdio target spawns
 * @property {() => import('@modelcontextprotocol/client').Transport} transport
 * @property {() => Promise<void>} [beforeRun]   e.g. stop the hub the previous run started
 * @property {string} [unavailable]
 */

/**
 * @param {{ bin: string, appRelay: string, remoteUrl: string, relayHome: string, startHome: string, mcpRemote: { bin?: string, reason?: string }, verbose: boolean }} c
 * @returns {Target[]}
 */
function targets(c) {
  const env = (/** @type {Record<string, string>} */ extra) => ({ ...getDefaultEnvironment(), PATCHBAY_LOG_LEVEL: 'warn', ...extra });
  /** A stdio target: the process it spawns, and an SDK transport that spawns it. */
  const stdio = (/** @type {string[]} */ args, /** @type {() => Record<string, string>} */ extra) => {
    return {
      stdio: { args, env: () => env(extra()) },
      transport: () => new StdioClientTransport({ command: NODE, args, env: env(extra()), stderr: c.verbose ? 'inherit' : 'ignore' }),
    };
  };
  const authDir = tempDir('patchbay-bench-mcp-remote-');
  return [
    { id: 'direct', label: 'SDK client → remote (no bridge)', transport: () => new StreamableHTTPClientTransport(new URL(c.remoteUrl)) },
    {
      id: 'hub-http',
      label: 'SDK client → hub → remote (no relay: what the relay adds is relay-hub minus this)',
      transport: () => {
        const hub = JSON.parse(readFileSync(path.join(c.relayHome, 'hub.json'), 'utf8'));
        const token = readFileSync(path.join(c.relayHome, 'hub-token'), 'utf8').trim();
        return new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp/echo`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
      },
    },
    { id: 'relay-hub', label: 'patchbay relay echo → hub → remote', exit: true, ...stdio([c.bin, 'relay', 'echo'], () => ({ PATCHBAY_HOME: c.relayHome })) },
    // The desktop app's relay: the same relay bundled into one file (scripts/build-electron.mjs),
    // which an export from the app writes into Claude Desktop's config (run there by the app's
    // executable as Node); here run by Node. What differs from relay-hub is loading one file
    // instead of the CLI's modules.
    ...(existsSync(c.appRelay)
      ? [{ id: 'relay-app', label: 'the desktop app\'s bundled relay (dist/relay/patchbay-relay.mjs) → hub → remote', exit: true, ...stdio([c.appRelay, 'relay', 'echo', '--data-dir', c.relayHome, '--no-start'], () => ({})) }]
      : [{ id: 'relay-app', label: 'the desktop app\'s bundled relay', unavailable: `not built (${c.appRelay}): npm run build`, ...stdio([c.appRelay], () => ({})) }]),
    {
      id: 'relay-hub-start',
      label: 'patchbay relay echo, no hub running (it starts one)',
      coldOnly: true,
      beforeRun: () => stopStartedHub(c.startHome),
      ...stdio([c.bin, 'relay', 'echo'], () => ({ PATCHBAY_HOME: c.startHome })),
    },
    // A fresh data dir for every process (every run starts from nothing).
    { id: 'relay-url', label: 'patchbay relay --url (embedded engine)', exit: true, ...stdio([c.bin, 'relay', '--url', c.remoteUrl], () => ({ PATCHBAY_HOME: tempDir('patchbay-bench-url-') })) },
    {
      id: 'mcp-remote',
      label: `mcp-remote ${MCP_REMOTE_VERSION} --transport http-only`,
      exit: true,
      ...(c.mcpRemote.bin ? {} : { unavailable: c.mcpRemote.reason ?? 'not installed' }),
      ...stdio([c.mcpRemote.bin ?? '', c.remoteUrl, '--transport', 'http-only', '--allow-http'], () => ({ MCP_REMOTE_CONFIG_DIR: authDir })),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// workloads

/** @param {number[]} sorted @param {number} q */
const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const r2 = (/** @type {number} */ x) => Math.round(x * 100) / 100;

/** @param {number[]} samples */
function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { n: samples.length, p50: r2(pct(sorted, 0.5)), p95: r2(pct(sorted, 0.95)), min: r2(sorted[0] ?? NaN), max: r2(sorted[sorted.length - 1] ?? NaN), mean: r2(mean) };
}

/**
 * @template T
 * @param {Promise<T>} p @param {number} ms @param {string} what @returns {Promise<T>}
 */
async function withTimeout(p, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    return await Promise.race([p, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Spawn (or connect) → first tools/call result, a fresh process each run. @param {Target} t @param {number} runs */
async function coldStart(t, runs) {
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < runs; i++) {
    await t.beforeRun?.();
    const client = new Client({ name: 'bench-relay', version: '1.0.0' });
    const started = performance.now();
    try {
      await withTimeout(client.connect(t.transport()), ANSWER_TIMEOUT_MS, 'initialize');
      await client.callTool({ name: 'echo', arguments: { text: 'cold' } }, { timeout: ANSWER_TIMEOUT_MS });
      samples.push(performance.now() - started);
    } finally {
      await client.close();
    }
  }
  return stats(samples);
}

/** Sequential small calls on one connection. @param {Target} t @param {number} calls @param {number} warmup */
async function latency(t, calls, warmup) {
  const client = new Client({ name: 'bench-relay', version: '1.0.0' });
  try {
    const transport = t.transport();
    await withTimeout(client.connect(transport), ANSWER_TIMEOUT_MS, 'initialize');
    // The warm-up's thousands of calls on one HTTP session (lib/sdk-client.mjs says why).
    liftAbortListenerLimit(transport);
    for (let i = 0; i < warmup; i++) await client.callTool({ name: 'echo', arguments: { text: 'warm' } }, { timeout: ANSWER_TIMEOUT_MS });
    /** @type {number[]} */
    const samples = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } }, { timeout: ANSWER_TIMEOUT_MS });
      samples.push(performance.now() - started);
      if (/** @type {Array<{ text?: string }>} */ (result.content)[0]?.text !== `call ${i}`) throw new Error(`${t.id}: wrong echo`);
    }
    return stats(samples);
  } finally {
    await client.close();
  }
}

/**
 * `sessions` clients at once (each its own bridge process, or its own HTTP client), each calling
 * echo in a loop: completed calls per second during a fixed window after a warm-up.
 * @param {Target} t @param {number} sessions @param {number} warmupMs @param {number} windowMs
 */
async function throughput(t, sessions, warmupMs, windowMs) {
  /** @type {Client[]} */
  const clients = [];
  try {
    for (let i = 0; i < sessions; i++) {
      const client = new Client({ name: 'bench-relay', version: '1.0.0' });
      clients.push(client);
    }
    await withTimeout(Promise.all(clients.map((c) => c.connect(t.transport()))), ANSWER_TIMEOUT_MS * 2, 'initialize (throughput)');
    let counting = false;
    let done = 0;
    let stop = false;
    const loops = clients.map(async (client, i) => {
      for (let n = 0; !stop; n++) {
        const result = await client.callTool({ name: 'echo', arguments: { text: `t${i}-${n}` } }, { timeout: ANSWER_TIMEOUT_MS });
        if (/** @type {Array<{ text?: string }>} */ (result.content)[0]?.text !== `t${i}-${n}`) throw new Error(`${t.id}: wrong echo`);
        if (counting && !stop) done++;
      }
    });
    const failed = Promise.all(loops).then(() => undefined);
    await Promise.race([sleep(warmupMs), failed]);
    counting = true;
    const started = performance.now();
    await Promise.race([sleep(windowMs), failed]);
    const elapsed = performance.now() - started;
    const counted = done;
    stop = true;
    await withTimeout(failed, ANSWER_TIMEOUT_MS, 'the last calls (throughput)');
    return { sessions, windowMs: Math.round(elapsed), calls: counted, perSecond: Math.round((counted / elapsed) * 1000) };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }
}

/**
 * Newline-delimited JSON-RPC over a process's stdin/stdout: requests matched to their answers
 * by id. Anything else on stdout (notifications, requests to the client) is ignored.
 * @param {import('./lib/proc.mjs').Proc} proc
 */
function lineRpc(proc) {
  let nextId = 1;
  /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  let buffer = '';
  proc.child.stdout?.on('data', (/** @type {string | Buffer} */ chunk) => {
    buffer += String(chunk);
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      /** @type {any} */
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      const waiter = typeof m?.id === 'number' && m.method === undefined ? pending.get(m.id) : undefined;
      if (!waiter) continue;
      pending.delete(m.id);
      if (m.error) waiter.reject(new Error(`error ${m.error.code}: ${m.error.message}`));
      else waiter.resolve(m.result);
    }
  });
  void proc.exited.then(({ code, signal }) => {
    for (const w of pending.values()) w.reject(new Error(`${proc.name} exited (${signal ?? code}) before answering: ${proc.tail.slice(-5).join(' | ')}`));
    pending.clear();
  });
  const write = (/** @type {object} */ message) => proc.child.stdin?.write(JSON.stringify(message) + '\n');
  return {
    /** @param {string} method @param {object} params @returns {Promise<any>} */
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        write({ jsonrpc: '2.0', id, method, params });
      });
    },
    /** @param {string} method */
    notify(method) {
      write({ jsonrpc: '2.0', method });
    },
  };
}

/**
 * One run of the exit workload: a fresh process answers initialize and one tools/call, then its
 * stdin is closed. Returns ms from the close to the process's exit, or undefined when it had not
 * exited after `waitMs` (it is then killed by its pid). Exported to check the harness itself
 * (a server that ignores its stdin closing must read as not exiting).
 * @param {Pick<Target, 'id' | 'stdio'>} t @param {number} waitMs
 */
export async function exitRun(t, waitMs) {
  const spec = /** @type {NonNullable<Target['stdio']>} */ (t.stdio);
  const proc = startProcess(`${t.id} (exit run)`, NODE, spec.args, { env: spec.env(), stdin: true });
  try {
    const rpc = lineRpc(proc);
    await withTimeout(
      rpc.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-relay-exit', version: '1.0.0' } }),
      ANSWER_TIMEOUT_MS,
      `${t.id}: initialize`,
    );
    rpc.notify('notifications/initialized');
    const result = await withTimeout(rpc.request('tools/call', { name: 'echo', arguments: { text: 'last call' } }), ANSWER_TIMEOUT_MS, `${t.id}: tools/call`);
    if (result?.content?.[0]?.text !== 'last call') throw new Error(`${t.id}: wrong echo: ${JSON.stringify(result).slice(0, 200)}`);
    const exitedAt = proc.exited.then(() => performance.now());
    const closedAt = performance.now();
    proc.child.stdin?.end();
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const at = await Promise.race([exitedAt, new Promise((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)))]);
    clearTimeout(timer);
    return at === undefined ? undefined : /** @type {number} */ (at) - closedAt;
  } finally {
    // Still running (it did not exit in time, or the run failed): killed by its pid, then its group.
    await stopProcess(proc, proc.done ? {} : { signal: 'SIGKILL', graceMs: 2000 });
  }
}

/** @param {Target} t @param {number} runs @param {number} waitMs */
async function exitTimes(t, runs, waitMs) {
  /** @type {Array<number | undefined>} */
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await exitRun(t, waitMs));
  return exitSummary(samples, waitMs);
}

// ---------------------------------------------------------------------------------------------

/**
 * @typedef {object} RelayTargetResult
 * @property {string} label
 * @property {ReturnType<typeof stats>} [cold]
 * @property {ReturnType<typeof stats>} [latency]
 * @property {{ sessions: number, windowMs: number, calls: number, perSecond: number }} [throughput]
 * @property {ReturnType<typeof exitSummary>} [exit]
 * @property {number} [foreignCpuPct]  other processes' share of the CPU while it was measured
 * @property {string} [unavailable]
 * @property {string} [error]
 */
/**
 * @typedef {object} RelayResults
 * @property {string} date
 * @property {boolean} quick
 * @property {{ node: string, platform: string, cpus: number, load: number[] }} machine
 * @property {number} runs
 * @property {number} calls
 * @property {number} warmup
 * @property {number} [sessions]
 * @property {number} exitWaitMs
 * @property {Record<string, RelayTargetResult>} results
 * @property {boolean} failed  a target errored
 */

/**
 * Runs the relay bench and returns its figures (nothing printed but progress lines).
 * @param {object} [options]
 * @param {boolean} [options.quick]        3 runs and 100 calls instead of 10 and 1000
 * @param {string[]} [options.only]        these targets only (RELAY_TARGETS)
 * @param {number} [options.runs]          cold starts and exit runs per target
 * @param {number} [options.calls]         latency calls per target
 * @param {number} [options.warmup]        unmeasured calls before them, on the same connection
 * @param {number} [options.sessions]      clients at once for the throughput workload (default 16; 0: none)
 * @param {boolean} [options.skipInstall]  do not install mcp-remote (its row reads unavailable)
 * @param {boolean} [options.verbose]      the bridges' stderr on this process's stderr
 * @param {string} [options.build]         a directory with bin/ and dist/ (default: this checkout)
 * @param {(line: string) => void} [options.log]  progress lines (default: stderr)
 * @returns {Promise<RelayResults>}
 */
export async function runRelayBench(options = {}) {
  const log = options.log ?? ((/** @type {string} */ line) => console.error(line));
  const quick = options.quick === true;
  const runs = options.runs ?? (quick ? 3 : 10);
  const calls = options.calls ?? (quick ? 100 : 1000);
  const warmup = options.warmup ?? Math.min(50, calls);
  const sessions = options.sessions ?? 16;
  const build = options.build ?? REPO;
  const bin = path.join(build, 'bin', 'patchbay.js');
  if (!existsSync(path.join(build, 'dist', 'main', 'cli', 'commands', 'relay.js'))) throw new Error(`not built (no dist/main/cli/commands/relay.js in ${build}): run \`npm run build\` first`);
  const only = options.only ? new Set(options.only) : undefined;
  for (const id of only ?? []) if (!RELAY_TARGETS.includes(id)) throw new Error(`unknown relay target '${id}' (known: ${RELAY_TARGETS.join(', ')})`);

  /** @type {Record<string, RelayTargetResult>} */
  const results = {};
  let failed = false;
  /** @type {Awaited<ReturnType<typeof startListening>> | undefined} */
  let remote;
  /** @type {import('./lib/proc.mjs').Proc | undefined} */
  let hub;
  /** Temp dirs made before this run (another run's): this one removes only its own. */
  const tempsBefore = new Set(tempDirs);
  /** @type {string | undefined} */
  let startHome;
  try {
    remote = await startListening('remote', [SDK_HTTP, '--port', '0']);
    const remoteUrl = `http://127.0.0.1:${remote.port}/mcp`;
    const relayHome = hubHome(remoteUrl);
    startHome = hubHome(remoteUrl);
    startHomes.add(startHome);
    hub = await startHub(bin, relayHome);
    const mcpRemote = only && !only.has('mcp-remote') ? { reason: 'not selected' } : ensureMcpRemote({ skipInstall: options.skipInstall === true, log });
    const list = targets({ bin, appRelay: path.join(build, 'dist', 'relay', 'patchbay-relay.mjs'), remoteUrl, relayHome, startHome, mcpRemote, verbose: options.verbose === true }).filter((t) => !only || only.has(t.id));
    log(`bench: relay direction, remote ${remoteUrl}; ${runs} cold starts, ${calls} calls and ${runs} exits per target`);
    // The hub and the remote are long-running processes: warm their code first, unmeasured, on
    // each path the targets take (straight, the hub's HTTP door, a relay's requests), so the first
    // target measured does not pay for their JIT warm-up and the ones after it do not profit from
    // it (without this, whichever relay ran first measured 10-100 % slower than the same relay later).
    const warmers = targets({ bin, appRelay: '', remoteUrl, relayHome, startHome, mcpRemote: {}, verbose: false }).filter((t) => t.id === 'direct' || t.id === 'hub-http' || t.id === 'relay-hub');
    log(`bench: warming the hub and the remote (${WARM_CALLS} calls on each path, not measured)…`);
    for (const t of warmers) await latency(t, quick ? WARM_CALLS / 5 : WARM_CALLS, 0);
    for (const t of list) {
      /** @type {RelayTargetResult} */
      const r = { label: t.label };
      results[t.id] = r;
      if (t.unavailable) {
        r.unavailable = t.unavailable;
        log(`bench: relay ${t.id} unavailable: ${t.unavailable}`);
        continue;
      }
      const cpu0 = cpuSnapshot();
      try {
        log(`bench: relay ${t.id} cold start…`);
        r.cold = await coldStart(t, runs);
        if (!t.coldOnly) {
          log(`bench: relay ${t.id} latency…`);
          r.latency = await latency(t, calls, warmup);
          if (sessions > 0) {
            log(`bench: relay ${t.id} throughput (${sessions} sessions)…`);
            r.throughput = await throughput(t, sessions, quick ? 500 : 1000, quick ? 2000 : 5000);
          }
        }
        if (t.exit && t.stdio) {
          log(`bench: relay ${t.id} exit after stdin closes…`);
          r.exit = await exitTimes(t, runs, EXIT_WAIT_MS);
        }
      } catch (err) {
        failed = true;
        r.error = err instanceof Error ? err.message : String(err);
        log(`bench: relay ${t.id} failed: ${r.error}`);
      }
      r.foreignCpuPct = foreignCpuPct(cpu0, cpuSnapshot());
    }
  } finally {
    if (startHome) {
      await stopStartedHub(startHome);
      startHomes.delete(startHome);
    }
    if (hub) await stopProcess(hub);
    if (remote) await stopProcess(remote.proc);
    for (const dir of tempDirs) {
      if (tempsBefore.has(dir)) continue;
      rmSync(dir, { recursive: true, force: true });
      tempDirs.delete(dir);
    }
  }
  const machine = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: os.cpus().length, load: os.loadavg().map(r2) };
  return { date: new Date().toISOString(), quick, machine, runs, calls, warmup, sessions, exitWaitMs: EXIT_WAIT_MS, results, failed };
}

/**
 * The relay's tables (Markdown), as bench/run.mjs and this file's CLI print them.
 * @param {RelayResults} res
 */
export function formatRelay(res) {
  const rows = Object.entries(res.results);
  const mr = res.results['mcp-remote'];
  const flag = (/** @type {RelayTargetResult} */ r) => (r.foreignCpuPct !== undefined && r.foreignCpuPct > FOREIGN_WARN ? '†' : '');
  const status = (/** @type {RelayTargetResult} */ r) => (r.unavailable ? `unavailable: ${r.unavailable}` : r.error ? `error: ${r.error.replace(/\s+/g, ' ').slice(0, 100)}` : '–');
  const ms = (/** @type {number | undefined} */ x) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));
  const vs = (/** @type {number | undefined} */ x, /** @type {number | undefined} */ ref) => (x !== undefined && ref !== undefined && ref > 0 ? `${(x / ref).toFixed(2)}×` : '–');
  const out = [];
  out.push(`Cold start: spawn → first tools/call result (ms; ${res.runs} runs, a fresh process each)\n`);
  out.push(
    table(
      ['target', 'what', 'p50', 'p95', 'min', 'max', 'mean', 'p50 vs mcp-remote'],
      rows.map(([id, r]) =>
        r.cold
          ? [`${id}${flag(r)}`, r.label, ms(r.cold.p50), ms(r.cold.p95), ms(r.cold.min), ms(r.cold.max), ms(r.cold.mean), vs(r.cold.p50, mr?.cold?.p50)]
          : [`${id}${flag(r)}`, r.label, status(r), '', '', '', '', ''],
      ),
      { left: 2 },
    ),
  );
  out.push(`\nPer-call latency: sequential echo calls on one connection (ms; ${res.calls} calls after ${res.warmup} warm-up)\n`);
  out.push(
    table(
      ['target', 'calls', 'p50', 'p95', 'mean', 'p50 vs mcp-remote'],
      rows.flatMap(([id, r]) => {
        if (r.latency) return [[`${id}${flag(r)}`, r.latency.n, ms(r.latency.p50), ms(r.latency.p95), ms(r.latency.mean), vs(r.latency.p50, mr?.latency?.p50)]];
        if (r.cold && !r.error) return []; // cold start only
        return [[`${id}${flag(r)}`, status(r), '', '', '', '']];
      }),
    ),
  );
  if (rows.some(([, r]) => r.throughput)) {
    out.push(`\nThroughput: ${res.sessions} sessions at once, each its own bridge process (or HTTP client), calling echo in a loop (calls/s)\n`);
    out.push(
      table(
        ['target', 'calls', 'window ms', 'calls/s', 'vs mcp-remote'],
        rows.flatMap(([id, r]) => (r.throughput ? [[`${id}${flag(r)}`, r.throughput.calls, r.throughput.windowMs, r.throughput.perSecond, vs(r.throughput.perSecond, mr?.throughput?.perSecond)]] : [])),
      ),
    );
  }
  out.push(
    `\nExit: after a first answered tools/call, the process's stdin is closed; time until it has exited (ms; ${res.runs} runs, a fresh process each; killed by its pid after ${res.exitWaitMs} ms)\n`,
  );
  out.push(
    table(
      ['target', 'runs', 'exited', 'p50', 'max', 'note'],
      rows.flatMap(([id, r]) => {
        const x = r.exit;
        if (x) return [[`${id}${flag(r)}`, x.n, x.exited, ms(x.p50), ms(x.max), x.notExited ? `did not exit within ${x.waitMs} ms in ${x.notExited} of ${x.n} runs (killed)` : '']];
        if (r.unavailable || r.error) return [[`${id}${flag(r)}`, status(r), '', '', '', '']];
        return [];
      }),
      { align: 'lrrrrl' },
    ),
  );
  const noisy = rows.filter(([, r]) => flag(r)).map(([id, r]) => `${id} ${r.foreignCpuPct}%`);
  if (noisy.length) out.push(`\n\`†\` other processes used over ${FOREIGN_WARN}% of the CPU meanwhile (${noisy.join(', ')}): noisy, re-run.`);
  return out.join('\n');
}

/**
 * The issue's relay targets, judged (rows for the Targets table).
 * @param {RelayResults | undefined} res @param {{ missing?: string }} [o]
 * @returns {import('./lib/targets.mjs').Check[]}
 */
export function relayChecks(res, o = {}) {
  const r = res?.results ?? {};
  const why = (/** @type {string} */ id) => {
    const x = r[id];
    return !x ? (o.missing ?? 'not run') : x.unavailable ? `unavailable: ${x.unavailable}` : x.error ? 'error, see above' : 'not run';
  };
  const mr = r['mcp-remote'];
  const cold = (/** @type {string} */ id) => {
    const c = r[id]?.cold;
    return c ? `p50 ${fmt(c.p50)} ms, max ${fmt(c.max)} ms (${c.n} runs)${mr?.cold ? `; mcp-remote p50 ${fmt(mr.cold.p50)} ms` : ''}` : undefined;
  };
  const G = RELAY_GOALS;
  const hubHttp = r['hub-http']?.latency?.p50;
  return [
    judge({ target: 'relay-hub: tools/call p50 ≤ hub-http p50 + 0.3 ms', value: r['relay-hub']?.latency?.p50, unit: 'ms', dir: '<=', limit: hubHttp !== undefined ? hubHttp + G.overHubHttpMs : NaN, goal: `≤ hub-http p50 + ${G.overHubHttpMs} ms`, measured: r['relay-hub']?.latency ? `${fmt(r['relay-hub'].latency.p50)} ms (hub-http ${hubHttp !== undefined ? fmt(hubHttp) : '–'} ms)` : undefined, missing: why('relay-hub') }),
    judge({ target: 'relay-hub: calls/s at 16 relays ≥ 2× mcp-remote', value: r['relay-hub']?.throughput?.perSecond, unit: 'calls/s', dir: '>=', ratioGoal: G.hubCallsVsMcpRemote, ref: mr?.throughput?.perSecond, refName: 'mcp-remote', missing: why('relay-hub') }),
    judge({ target: 'relay-url: calls/s at 16 relays ≥ 1.5× mcp-remote', value: r['relay-url']?.throughput?.perSecond, unit: 'calls/s', dir: '>=', ratioGoal: G.urlCallsVsMcpRemote, ref: mr?.throughput?.perSecond, refName: 'mcp-remote', missing: why('relay-url') }),
    judge({ target: 'relay-hub: tools/call p50 ≤ 0.6× mcp-remote', value: r['relay-hub']?.latency?.p50, unit: 'ms', dir: '<=', ratioGoal: G.p50VsMcpRemote, ref: mr?.latency?.p50, refName: 'mcp-remote', missing: why('relay-hub') }),
    judge({ target: 'relay-url: tools/call p50 ≤ 0.6× mcp-remote', value: r['relay-url']?.latency?.p50, unit: 'ms', dir: '<=', ratioGoal: G.p50VsMcpRemote, ref: mr?.latency?.p50, refName: 'mcp-remote', missing: why('relay-url') }),
    judge({ target: 'relay-app (the desktop app\'s relay): tools/call p50 ≤ 0.6× mcp-remote', value: r['relay-app']?.latency?.p50, unit: 'ms', dir: '<=', ratioGoal: G.p50VsMcpRemote, ref: mr?.latency?.p50, refName: 'mcp-remote', missing: why('relay-app') }),
    judge({ target: 'relay start to first answer, hub running (relay-hub, p50)', value: r['relay-hub']?.cold?.p50, unit: 'ms', dir: '<=', limit: G.hubStartMs, measured: cold('relay-hub'), missing: why('relay-hub') }),
    judge({ target: 'relay start to first answer, hub running (relay-app, the desktop app\'s relay, p50)', value: r['relay-app']?.cold?.p50, unit: 'ms', dir: '<=', limit: G.hubStartMs, measured: cold('relay-app'), missing: why('relay-app') }),
    judge({ target: '`relay --url` start to first answer (relay-url, p50)', value: r['relay-url']?.cold?.p50, unit: 'ms', dir: '<=', limit: G.urlStartMs, measured: cold('relay-url'), missing: why('relay-url') }),
    judgeExit('relay-hub gone within 500 ms of its stdin closing (every run)', r['relay-hub']?.exit, G.exitMs, { missing: why('relay-hub') }),
    judgeExit('relay-app gone within 500 ms of its stdin closing (every run)', r['relay-app']?.exit, G.exitMs, { missing: why('relay-app') }),
    judgeExit('relay-url gone within 500 ms of its stdin closing (every run)', r['relay-url']?.exit, G.exitMs, { missing: why('relay-url') }),
    beside({ target: 'mcp-remote exit after its stdin closes (beside the two above)', goal: 'no target', measured: mr?.exit ? exitText(mr.exit) : `– (${why('mcp-remote')})`, ratio: '–', result: 'for comparison' }),
  ];
}

// ---------------------------------------------------------------------------------------------
// old build vs new in one run

/**
 * Runs the bench `repeat` times for each of two builds, alternating (baseline, then this
 * checkout), prints the headline figures side by side (every round, then the median), and returns
 * this checkout's last round.
 * @param {Parameters<typeof runRelayBench>[0]} common @param {string} baselineDir @param {number} repeat
 */
async function compareBuilds(common, baselineDir, repeat) {
  /** @type {Array<{ build: string, res: RelayResults }>} */
  const rounds = [];
  /** @type {RelayResults | undefined} */
  let last;
  for (let i = 0; i < Math.max(1, repeat); i++) {
    for (const [name, dir] of /** @type {const} */ ([['base', baselineDir], ['new', REPO]])) {
      console.error(`bench: round ${i + 1}, ${name} (${dir})`);
      const res = await runRelayBench({ ...common, build: dir });
      rounds.push({ build: name, res });
      if (name === 'new') last = res;
    }
  }
  const ids = [...new Set(rounds.flatMap((r) => Object.keys(r.res.results)))];
  /** @type {Array<[string, (r: RelayTargetResult) => number | undefined]>} */
  const figures = [
    ['cold p50 ms', (r) => r.cold?.p50],
    ['call p50 ms', (r) => r.latency?.p50],
    ['calls/s', (r) => r.throughput?.perSecond],
    ['exit max ms', (r) => r.exit?.max],
  ];
  const median = (/** @type {number[]} */ xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? /** @type {number} */ (s[Math.floor((s.length - 1) / 2)]) : undefined;
  };
  const rows = [];
  for (const id of ids) {
    for (const [name, get] of figures) {
      const per = (/** @type {string} */ build) =>
        rounds
          .filter((r) => r.build === build)
          .map((r) => (r.res.results[id] ? get(r.res.results[id]) : undefined))
          .filter((x) => x !== undefined && Number.isFinite(x));
      const base = /** @type {number[]} */ (per('base'));
      const now = /** @type {number[]} */ (per('new'));
      if (!base.length && !now.length) continue;
      const mb = median(base);
      const mn = median(now);
      rows.push([id, name, base.map((x) => fmt(x)).join(' / ') || '–', now.map((x) => fmt(x)).join(' / ') || '–', mb !== undefined ? fmt(mb) : '–', mn !== undefined ? fmt(mn) : '–', mb && mn ? `${(mn / mb).toFixed(2)}×` : '–']);
    }
  }
  console.log(`\nOld build vs new, alternating rounds (base: ${baselineDir}; new: ${REPO})\n`);
  console.log(table(['target', 'figure', 'base (each round)', 'new (each round)', 'base median', 'new median', 'new / base'], rows, { left: 2 }));
  return /** @type {RelayResults} */ (last);
}

// ---------------------------------------------------------------------------------------------
// CLI

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      runs: { type: 'string' },
      calls: { type: 'string' },
      warmup: { type: 'string' },
      sessions: { type: 'string' },
      'baseline-dir': { type: 'string' },
      repeat: { type: 'string' },
      'skip-install': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (opts.help) {
    console.log(`usage: node bench/relay.mjs [--quick] [--only ${RELAY_TARGETS.join(',')}] [--runs N] [--calls N] [--warmup N] [--sessions N] [--baseline-dir DIR [--repeat N]] [--skip-install] [--verbose]`);
    process.exit(0);
  }
  process.on('exit', killAllSync);
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => process.exit(130));
  const common = {
    quick: opts.quick,
    only: opts.only?.split(',').map((s) => s.trim()).filter(Boolean),
    runs: opts.runs !== undefined ? Number(opts.runs) : undefined,
    calls: opts.calls !== undefined ? Number(opts.calls) : undefined,
    warmup: opts.warmup !== undefined ? Number(opts.warmup) : undefined,
    sessions: opts.sessions !== undefined ? Number(opts.sessions) : undefined,
    skipInstall: opts['skip-install'],
    verbose: opts.verbose,
  };
  const baselineDir = opts['baseline-dir'];
  (baselineDir !== undefined ? compareBuilds(common, path.resolve(baselineDir), Number(opts.repeat ?? 1)) : runRelayBench(common)).then(
    (res) => {
      console.log(`\n${formatRelay(res)}`);
      console.log(`\nTargets (issue 17)\n\n${formatChecks(relayChecks(res))}`);
      mkdirSync(RESULTS, { recursive: true });
      const file = path.join(RESULTS, `relay-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`);
      writeFileSync(file, JSON.stringify({ ...res, checks: relayChecks(res) }, null, 2) + '\n');
      console.log(`\nbench: results in ${path.relative(REPO, file)} (load average at the end: ${res.machine.load.join(', ')})`);
      process.exit(res.failed ? 1 : 0);
    },
    (err) => {
      console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
