// @ts-check
/**
 * The session workload: sessions opened (initialize + initialized) and closed (DELETE) one after
 * another; and how long one echo server takes to boot, which bounds it for any target that starts
 * a child per session.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pct, r2 } from '../lib/figures.mjs';
import { NODE } from '../lib/paths.mjs';
import { RUN_MARK, cpuByRole, processCpuMs } from '../lib/proc.mjs';
import { median } from '../lib/round-stats.mjs';
import { openSession, withTimeout } from '../lib/sdk-client.mjs';

/**
 * Sequential open (initialize + initialized) and close (DELETE) of sessions.
 * @param {import('../targets/common.mjs').Running} r
 * @param {import('./config.mjs').WorkloadConfig} cfg
 */
export async function sessionsWorkload(r, cfg) {
  for (let i = 0; i < cfg.sessWarm; i++) await (await openSession(r)).close();
  /** @type {number[]} */
  const opens = [];
  /** @type {number[]} */
  const closes = [];
  const cpu0 = cpuByRole(r.proc?.pid);
  const start = performance.now();
  while (opens.length < cfg.sessN && performance.now() - start < cfg.sessMaxMs) {
    const t0 = performance.now();
    const s = await openSession(r);
    const t1 = performance.now();
    await s.close();
    opens.push(t1 - t0);
    closes.push(performance.now() - t1);
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpu1 = cpuByRole(r.proc?.pid);
  const so = [...opens].sort((a, b) => a - b);
  const sc = [...closes].sort((a, b) => a - b);
  // Where each session's CPU goes: the client, the hub (or gateway), and the children (booted,
  // spares included; a child still running counts what it used so far).
  const perSession = (/** @type {'client' | 'server' | 'children'} */ k) =>
    cpu0 && cpu1 && opens.length > 0 && cpu1[k] >= cpu0[k]
      ? Math.round((cpu1[k] - cpu0[k]) / opens.length)
      : undefined;
  return {
    sessions: opens.length,
    capped: opens.length < cfg.sessN,
    seconds: r2(elapsed),
    perSec: r2(opens.length / elapsed),
    openP50: r2(pct(so, 0.5)),
    openP99: r2(pct(so, 0.99)),
    closeP50: r2(pct(sc, 0.5)),
    cpuMsPerSession: {
      client: perSession('client'),
      server: perSession('server'),
      children: perSession('children'),
    },
  };
}

/**
 * How long one echo server takes to boot: spawn → its answer to `initialize`, wall time and the
 * CPU time it used by then (median of 5). This bounds any one-child-per-session design.
 * @param {string} file
 */
export async function measureBoot(file, n = 5) {
  /** @type {number[]} */
  const walls = [];
  /** @type {number[]} */
  const cpus = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn(NODE, [file, RUN_MARK], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const answered = new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', () =>
          reject(new Error(`${path.basename(file)} exited before answering initialize`)),
        );
      });
      child.stdin.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'patchbay-bench', version: '1.0.0' },
          },
        }) + '\n',
      );
      await withTimeout(answered, 10_000, `booting ${path.basename(file)}`);
      walls.push(performance.now() - t0);
      const cpu = processCpuMs(/** @type {number} */ (child.pid));
      if (cpu !== undefined) cpus.push(cpu);
    } finally {
      const exited = new Promise((resolve) =>
        child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve),
      );
      child.stdin.end();
      await withTimeout(exited, 5000, 'echo server exit').catch(() => child.kill('SIGKILL'));
    }
  }
  return { n, wallMs: r2(median(walls)), cpuMs: cpus.length ? r2(median(cpus)) : undefined };
}
