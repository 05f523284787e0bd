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
 * Two workloads, driven by the official SDK v2 client:
 *   cold start   spawn → first tools/call result, fresh process each run
 *   latency      sequential small echo calls on one connection, after a warm-up
 *
 *   npm run build && node bench/relay.mjs [--quick] [--only a,b] [--runs N] [--calls N] [--skip-install] [--verbose]
 *
 * --verbose shows the bridges' stderr.
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
import { killAllSync, startProcess, stopProcess } from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(BENCH, '..');
const BIN = path.join(REPO, 'bin', 'patchbay.js');
const SDK_HTTP = path.join(BENCH, 'sdk-http-server.mjs');
const PEER_DIR = path.join(BENCH, '.peers', 'mcp-remote');
const MCP_REMOTE_VERSION = '0.15.1';
const RESULTS = path.join(BENCH, 'results');
const NODE = process.execPath;

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string' },
    calls: { type: 'string' },
    'skip-install': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log('usage: node bench/relay.mjs [--quick] [--only direct,hub-http,relay-hub,relay-hub-start,relay-url,mcp-remote] [--runs N] [--calls N] [--skip-install] [--verbose]');
  process.exit(0);
}
const RUNS = Number(opts.runs ?? (opts.quick ? 3 : 10));
const CALLS = Number(opts.calls ?? (opts.quick ? 100 : 1000));
const WARMUP = Math.min(50, CALLS);

process.on('exit', killAllSync);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => process.exit(130));

/** @type {string[]} */
const tempDirs = [];
function tempDir(/** @type {string} */ prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
process.on('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

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
  if (!p) throw new Error(`${name} did not start: ${proc.tail.join('\n')}`);
  return { proc, port: /** @type {number} */ (p) };
}

/** A data dir whose config has the remote as server `echo`, on a free port. */
function hubHome(/** @type {string} */ remoteUrl) {
  const home = tempDir('patchbay-bench-relay-');
  writeFileSync(path.join(home, 'config.json'), JSON.stringify({ mcpServers: { echo: { type: 'http', url: remoteUrl } }, hub: { port: 0 }, inspector: { history: false } }));
  return home;
}

async function startHub(/** @type {string} */ home) {
  const proc = startProcess('hub', NODE, [BIN, 'serve', '--data-dir', home], { env: { ...process.env, PATCHBAY_LOG_LEVEL: 'warn' } });
  for (let i = 0; i < 300; i++) {
    if (existsSync(path.join(home, 'hub.json'))) return proc;
    if (proc.done) break;
    await sleep(50);
  }
  throw new Error(`the hub did not start: ${proc.tail.join('\n')}`);
}

/** Stops a hub a relay started on its own (detached: not ours to track), by its discovery file. */
async function stopStartedHub(/** @type {string} */ home) {
  const file = path.join(home, 'hub.json');
  if (!existsSync(file)) return;
  const { pid } = JSON.parse(readFileSync(file, 'utf8'));
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
  process.kill(pid, 'SIGKILL');
}

// ---------------------------------------------------------------------------------------------
// mcp-remote, pinned, in its own prefix under bench/.peers

/** @returns {{ bin?: string, reason?: string }} */
function ensureMcpRemote() {
  const pkgFile = path.join(PEER_DIR, 'node_modules', 'mcp-remote', 'package.json');
  const installed = () => {
    try {
      return JSON.parse(readFileSync(pkgFile, 'utf8'));
    } catch {
      return undefined;
    }
  };
  if (installed()?.version !== MCP_REMOTE_VERSION && !opts['skip-install']) {
    mkdirSync(PEER_DIR, { recursive: true });
    writeFileSync(
      path.join(PEER_DIR, 'package.json'),
      JSON.stringify({ name: 'patchbay-bench-relay-peers', private: true, description: 'Installed by bench/relay.mjs; not part of the project.', dependencies: { 'mcp-remote': MCP_REMOTE_VERSION } }, null, 2) + '\n',
    );
    console.error(`bench: installing mcp-remote@${MCP_REMOTE_VERSION} into ${path.relative(REPO, PEER_DIR)}`);
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--prefix', PEER_DIR, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEER_DIR, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) return { reason: (r.stderr || r.error?.message || `npm exited with ${r.status}`).trim().split('\n').slice(-2).join(' ') };
  }
  const pkg = installed();
  if (pkg?.version !== MCP_REMOTE_VERSION) return { reason: pkg ? `installed ${pkg.version}, pinned ${MCP_REMOTE_VERSION}` : 'not installed' };
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
 * @property {() => import('@modelcontextprotocol/client').Transport} transport
 * @property {() => Promise<void>} [beforeRun]   e.g. stop the hub the previous run started
 * @property {string} [unavailable]
 */

/** @param {string} remoteUrl @param {string} relayHome @param {string} startHome @param {{ bin?: string, reason?: string }} mcpRemote @returns {Target[]} */
function targets(remoteUrl, relayHome, startHome, mcpRemote) {
  const env = (/** @type {Record<string, string>} */ extra) => ({ ...getDefaultEnvironment(), PATCHBAY_LOG_LEVEL: 'warn', ...extra });
  const stdio = (/** @type {string[]} */ args, /** @type {Record<string, string>} */ extra) =>
    new StdioClientTransport({ command: NODE, args, env: env(extra), stderr: opts.verbose ? 'inherit' : 'ignore' });
  const authDir = tempDir('patchbay-bench-mcp-remote-');
  return [
    { id: 'direct', label: 'SDK client → remote (no bridge)', transport: () => new StreamableHTTPClientTransport(new URL(remoteUrl)) },
    {
      id: 'hub-http',
      label: 'SDK client → hub → remote (no relay: what the relay adds is relay-hub minus this)',
      transport: () => {
        const hub = JSON.parse(readFileSync(path.join(relayHome, 'hub.json'), 'utf8'));
        const token = readFileSync(path.join(relayHome, 'hub-token'), 'utf8').trim();
        return new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp/echo`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
      },
    },
    { id: 'relay-hub', label: 'patchbay relay echo → hub → remote', transport: () => stdio([BIN, 'relay', 'echo'], { PATCHBAY_HOME: relayHome }) },
    {
      id: 'relay-hub-start',
      label: 'patchbay relay echo, no hub running (it starts one)',
      coldOnly: true,
      beforeRun: () => stopStartedHub(startHome),
      transport: () => stdio([BIN, 'relay', 'echo'], { PATCHBAY_HOME: startHome }),
    },
    { id: 'relay-url', label: 'patchbay relay --url (embedded engine)', transport: () => stdio([BIN, 'relay', '--url', remoteUrl], { PATCHBAY_HOME: tempDir('patchbay-bench-url-') }) },
    {
      id: 'mcp-remote',
      label: `mcp-remote ${MCP_REMOTE_VERSION} --transport http-only`,
      ...(mcpRemote.bin ? {} : { unavailable: mcpRemote.reason ?? 'not installed' }),
      transport: () => stdio([mcpRemote.bin ?? '', remoteUrl, '--transport', 'http-only', '--allow-http'], { MCP_REMOTE_CONFIG_DIR: authDir }),
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
  return { n: samples.length, p50: r2(pct(sorted, 0.5)), p95: r2(pct(sorted, 0.95)), min: r2(sorted[0] ?? NaN), mean: r2(mean) };
}

/** Spawn (or connect) → first tools/call result, a fresh process each run. @param {Target} t */
async function coldStart(t) {
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    await t.beforeRun?.();
    const client = new Client({ name: 'bench-relay', version: '1.0.0' });
    const started = performance.now();
    await client.connect(t.transport());
    await client.callTool({ name: 'echo', arguments: { text: 'cold' } });
    samples.push(performance.now() - started);
    await client.close();
  }
  return stats(samples);
}

/** Sequential small calls on one connection. @param {Target} t */
async function latency(t) {
  const client = new Client({ name: 'bench-relay', version: '1.0.0' });
  await client.connect(t.transport());
  try {
    for (let i = 0; i < WARMUP; i++) await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
    /** @type {number[]} */
    const samples = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
      samples.push(performance.now() - started);
      if (/** @type {Array<{ text?: string }>} */ (result.content)[0]?.text !== `call ${i}`) throw new Error(`${t.id}: wrong echo`);
    }
    return stats(samples);
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(path.join(REPO, 'dist', 'main', 'cli', 'commands', 'relay.js'))) throw new Error('not built: run `npm run build` first');
  const remote = await startListening('remote', [SDK_HTTP, '--port', '0']);
  const remoteUrl = `http://127.0.0.1:${remote.port}/mcp`;
  const relayHome = hubHome(remoteUrl);
  const startHome = hubHome(remoteUrl);
  const hub = await startHub(relayHome);
  const only = opts.only ? new Set(opts.only.split(',')) : undefined;
  const list = targets(remoteUrl, relayHome, startHome, only && !only.has('mcp-remote') ? { reason: 'not selected' } : ensureMcpRemote()).filter((t) => !only || only.has(t.id));
  console.error(`bench: relay direction, remote ${remoteUrl}; ${RUNS} cold starts and ${CALLS} calls per target`);
  /** @type {Record<string, { label: string, cold?: ReturnType<typeof stats>, latency?: ReturnType<typeof stats>, unavailable?: string, error?: string }>} */
  const results = {};
  let failed = false;
  try {
    for (const t of list) {
      /** @type {(typeof results)[string]} */
      const r = { label: t.label };
      results[t.id] = r;
      if (t.unavailable) {
        r.unavailable = t.unavailable;
        console.error(`bench: ${t.id} unavailable: ${t.unavailable}`);
        continue;
      }
      try {
        console.error(`bench: ${t.id} cold start…`);
        r.cold = await coldStart(t);
        if (!t.coldOnly) {
          console.error(`bench: ${t.id} latency…`);
          r.latency = await latency(t);
        }
      } catch (err) {
        failed = true;
        r.error = err instanceof Error ? err.message : String(err);
        console.error(`bench: ${t.id} failed: ${r.error}`);
      }
    }
  } finally {
    await stopStartedHub(startHome);
    await stopProcess(hub);
    await stopProcess(remote.proc);
  }

  const rows = Object.entries(results);
  const width = Math.max(...rows.map(([id]) => id.length), 'target'.length);
  const cell = (/** @type {number | undefined} */ x) => (x === undefined ? '-' : x.toFixed(2)).padStart(9);
  console.log(`\nCold start: spawn → first tools/call result (ms, ${RUNS} runs)`);
  console.log(`${'target'.padEnd(width)}  ${'p50'.padStart(9)}${'min'.padStart(9)}${'mean'.padStart(9)}`);
  for (const [id, r] of rows) console.log(`${id.padEnd(width)}  ${r.cold ? cell(r.cold.p50) + cell(r.cold.min) + cell(r.cold.mean) : `  ${r.unavailable ?? r.error ?? '-'}`}`);
  console.log(`\nPer-call latency: sequential echo calls (ms, ${CALLS} calls after ${WARMUP} warm-up)`);
  console.log(`${'target'.padEnd(width)}  ${'p50'.padStart(9)}${'p95'.padStart(9)}${'mean'.padStart(9)}`);
  for (const [id, r] of rows) {
    if (r.latency) console.log(`${id.padEnd(width)}  ${cell(r.latency.p50)}${cell(r.latency.p95)}${cell(r.latency.mean)}`);
    else if (!r.cold || r.error || r.unavailable) console.log(`${id.padEnd(width)}    ${r.unavailable ?? r.error ?? '-'}`);
  }
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `relay-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.json`);
  const machine = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: os.cpus().length, load: os.loadavg().map(r2) };
  writeFileSync(file, JSON.stringify({ machine, runs: RUNS, calls: CALLS, results }, null, 2) + '\n');
  console.log(`\nbench: results in ${path.relative(REPO, file)} (load average at the end: ${machine.load.join(', ')})`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
