#!/usr/bin/env node
// @ts-check
/**
 * Start-up burst (issue 17, "50 sessions opened at once"): N `initialize` requests sent to the
 * hub at the same moment, each opening a session with a child of its own, against N direct
 * spawns of the same server answering the same `initialize`. Prints, side by side, when the
 * first, the median and the last answer arrived (ms after the burst started), and the ratio of
 * the hub's last answer to the direct spawns' last.
 *
 *   node bench/burst.mjs [--sessions 50] [--server bench/echo-server.mjs] [--rounds 1] [--hub-dir DIR]
 *
 * `--server` is any stdio MCP server file run with node; it gets the run's marker argument, except
 * the conformance fixture (`--server test/fixtures/everything-server.mjs`), which refuses unknown
 * arguments and gets `--stdio`. The hub is `bin/patchbay.js serve --port 0
 * --no-auth` of this checkout (or --hub-dir) with that server, per-session children, default
 * warm pool. Both halves start from nothing (a fresh hub, no child running). Every process is
 * stopped by its pid (and the run's marker sweeps strays). Figures are printed, never asserted.
 * Also used by run.mjs (`--workloads burst`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RUN_MARK, cpuSnapshot, foreignCpuPct, markedPids, startProcess, stopProcess, sweepStrays } from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(BENCH, '..');
const NODE = process.execPath;

const INITIALIZE = (/** @type {number | string} */ id) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'patchbay-burst', version: '1.0.0' } },
});

/** @param {string} server */
function serverArgs(server) {
  return path.basename(server) === 'everything-server.mjs' ? ['--stdio'] : [RUN_MARK];
}

/** @param {number[]} xs */
function summary(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const r = (/** @type {number} */ x) => Math.round(x);
  return { n: s.length, first: r(s[0] ?? NaN), median: r(s[Math.floor((s.length - 1) / 2)] ?? NaN), last: r(s.at(-1) ?? NaN) };
}

/**
 * N children spawned at once, each sent `initialize`; ms from the burst's start to each answer.
 * @param {string} server @param {number} n
 */
async function directBurst(server, n) {
  const args = serverArgs(server);
  /** @type {import('node:child_process').ChildProcess[]} */
  const children = [];
  const t0 = performance.now();
  try {
    const answers = Array.from({ length: n }, () => {
      // Detached as the hub starts its children: each in a session of its own, which on Linux
      // with autogroup scheduling also means a CPU share of its own. Spawned otherwise, the 50
      // would share one group's share with this process and run slower than the hub's.
      const child = spawn(NODE, [server, ...args], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
      children.push(child);
      child.stdin?.write(JSON.stringify(INITIALIZE(1)) + '\n');
      return new Promise((resolve, reject) => {
        let text = '';
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (/** @type {string} */ d) => {
          text += d;
          if (text.includes('"id":1')) resolve(performance.now() - t0);
        });
        child.once('exit', () => reject(new Error(`${path.basename(server)} exited before answering initialize`)));
      });
    });
    return /** @type {number[]} */ (await Promise.all(answers));
  } finally {
    await Promise.all(
      children.map((c) => {
        if (c.exitCode !== null || c.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => c.once('exit', resolve));
        c.kill('SIGKILL');
        return exited;
      }),
    );
  }
}

/**
 * A fresh hub with `server` (per-session children); N initializes POSTed at once.
 * @param {string} server @param {number} n @param {string} build
 */
async function hubBurst(server, n, build) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-burst-'));
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { fx: { command: NODE, args: [server, ...serverArgs(server)] } } }));
  /** @type {string | undefined} */
  let url;
  const proc = startProcess('patchbay hub', NODE, [path.join(build, 'bin', 'patchbay.js'), 'serve', '--port', '0', '--no-auth'], {
    cwd: build,
    env: { ...process.env, PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1' },
    onLine: (line) => {
      const m = /hub running at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) url = m[1];
    },
  });
  try {
    for (let i = 0; !url; i++) {
      if (proc.done || i > 600) throw new Error(`the hub did not start:\n  ${proc.tail.slice(-10).join('\n  ')}`);
      await sleep(50);
    }
    const endpoint = `${url}/mcp/fx`;
    const t0 = performance.now();
    const times = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify(INITIALIZE(i)),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await res.text();
        if (!res.ok || !text.includes('"result"')) throw new Error(`initialize ${i}: HTTP ${res.status} ${text.slice(0, 300)}`);
        return performance.now() - t0;
      }),
    );
    return times;
  } finally {
    await stopProcess(proc, { graceMs: 8000 });
    for (let i = 0; i < 20 && markedPids().length > 0; i++) await sleep(100);
    sweepStrays();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One round: direct spawns, then the hub (each from nothing), with the CPU other processes used.
 * @param {{ server: string, sessions: number, build: string }} o
 */
export async function burstRound(o) {
  const a = cpuSnapshot();
  const direct = summary(await directBurst(o.server, o.sessions));
  await sleep(500);
  const hub = summary(await hubBurst(o.server, o.sessions, o.build));
  const b = cpuSnapshot();
  return { sessions: o.sessions, server: path.relative(REPO, o.server), direct, hub, lastRatio: Math.round((hub.last / direct.last) * 100) / 100, foreignCpuPct: foreignCpuPct(a, b) };
}

/** @param {Awaited<ReturnType<typeof burstRound>>} r */
export function formatBurst(r) {
  const row = (/** @type {string} */ name, /** @type {{ first: number, median: number, last: number }} */ s) =>
    `| ${name} | ${s.first} | ${s.median} | ${s.last} |`;
  return [
    `${r.sessions} initializes at once, ${r.server} (ms from the burst's start to each answer)`,
    '',
    '| | first | median | last |',
    '|---|---|---|---|',
    row('direct spawns', r.direct),
    row('through the hub', r.hub),
    '',
    `hub last / direct last: ${r.lastRatio}× (target ≤ 1.2×)${r.foreignCpuPct !== undefined && r.foreignCpuPct > 10 ? ` † other processes used ${Math.round(r.foreignCpuPct)} % of the CPU meanwhile` : ''}`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { sessions: { type: 'string' }, server: { type: 'string' }, rounds: { type: 'string' }, 'hub-dir': { type: 'string' } },
  });
  const build = path.resolve(values['hub-dir'] ?? REPO);
  if (!existsSync(path.join(build, 'dist', 'main', 'cli', 'main.js'))) throw new Error(`no build at ${build}: run npx tsc -p tsconfig.node.json`);
  const server = path.resolve(values.server ?? path.join(BENCH, 'echo-server.mjs'));
  const rounds = Number(values.rounds ?? 1);
  const onSignal = () => {
    sweepStrays();
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  for (let i = 0; i < rounds; i++) {
    const r = await burstRound({ server, sessions: Number(values.sessions ?? 50), build });
    console.log(`${rounds > 1 ? `round ${i + 1}: ` : ''}${formatBurst(r)}\n`);
  }
  sweepStrays();
}
