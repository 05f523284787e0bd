// @ts-check
/**
 * The memory workload: memory per idle session of the hub (shared mode, capture on, then off)
 * and of the floor (sdk-http), measured the same way with the same N; and whether memory returns
 * flat after sessions come and go. Run once per run, not against each target.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { r2 } from '../lib/figures.mjs';
import { BENCH, NODE, REPO } from '../lib/paths.mjs';
import { rssKiB, socketCount, startProcess, stopProcess } from '../lib/proc.mjs';
import { withTimeout } from '../lib/sdk-client.mjs';
import { startHub } from '../targets/hub.mjs';
import { startSdkHttpServer } from '../targets/servers.mjs';

/**
 * The three measurements, one after another: the hub with capture on, with it off (what "memory
 * flat" is judged on), and the floor. A failure is recorded as that measurement's `error`.
 * @param {import('./config.mjs').OnceContext} ctx
 */
export async function memoryRuns({ cfg, quiet, errors }) {
  /** @type {any} the default hub (capture on) */
  let memory;
  /** @type {any} the same with the inspector's capture off (what "memory flat" is judged on) */
  let memoryNoCapture;
  /** @type {any} the floor (sdk-http), measured the same way with the same N */
  let memoryFloor;
  const variants = /** @type {const} */ (['capture on', 'capture off', 'floor']);
  for (const variant of variants) {
    await quiet();
    // The floor gets the N the hub was measured with (fewer if opening them hit the time cap).
    const n = variant === 'floor' && memory?.sessions > 0 ? memory.sessions : cfg.memN;
    console.error(
      variant === 'floor'
        ? `bench: floor (sdk-http) memory per idle session, ${n} sessions …`
        : `bench: hub memory per idle session (shared mode, ${variant}) …`,
    );
    /** @type {any} */
    let m;
    try {
      m = await memoryWorkload(
        variant === 'floor'
          ? (extra) => startSdkHttpServer(false, extra)
          : startHub({
              shared: true,
              inspector: variant === 'capture on' ? undefined : { enabled: false },
            }),
        cfg,
        n,
      );
      console.error(`bench:   memory: ${m.kbPerSession} KB/session (RSS), flat: ${m.flat}`);
    } catch (err) {
      m = { error: /** @type {Error} */ (err).message };
      errors.push(`memory (${variant}): ${/** @type {Error} */ (err).message}`);
    }
    if (variant === 'capture on') memory = m;
    else if (variant === 'capture off') memoryNoCapture = m;
    else memoryFloor = m;
  }
  return { memory, memoryNoCapture, memoryFloor };
}

/**
 * Memory per idle session of one server process: the hub (shared mode, in its own process) or
 * the floor (the SDK's own server), measured the same way. The process is started with
 * `--expose-gc` and the mem-probe preload (a full GC and `process.memoryUsage()` over IPC); its
 * RSS is read from /proc. Each idle session is a real SDK client (in a holder process,
 * bench/lib/session-holder.mjs) that has initialized, and so holds its standalone GET stream
 * open, and then does nothing. Repeated cycles of open-all / close-all show whether memory
 * returns flat.
 * @param {import('../targets/common.mjs').Target['start']} start  the server to measure
 * @param {import('./config.mjs').WorkloadConfig} cfg
 * @param {number} [sessions]      idle sessions per cycle (default: --mem-sessions)
 */
async function memoryWorkload(start, cfg, sessions = cfg.memN) {
  const running = await start({
    nodeArgs: ['--expose-gc', '--import', path.join(BENCH, 'lib', 'mem-probe.mjs')],
    ipc: true,
  });
  const proc = /** @type {import('../lib/proc.mjs').Proc} */ (running.proc);
  /** @returns {Promise<{ rssKiB: number, heapUsedKiB: number, heapTotalKiB: number, externalKiB: number, sockets: number | undefined, gc: boolean }>} */
  const measure = async () => {
    await sleep(500);
    const usage = await withTimeout(
      new Promise((resolve) => {
        /** @param {any} m */
        const onMessage = (m) => {
          if (m?.probe !== 'mem') return;
          proc.child.off('message', onMessage);
          resolve(m);
        };
        proc.child.on('message', onMessage);
        proc.child.send({ probe: 'mem' });
      }),
      10_000,
      'memory probe',
    );
    await sleep(200);
    const u = /** @type {any} */ (usage).usage;
    const kib = (/** @type {number} */ b) => Math.round(b / 1024);
    return {
      rssKiB: rssKiB(proc.pid) ?? NaN,
      heapUsedKiB: kib(u.heapUsed),
      heapTotalKiB: kib(u.heapTotal),
      externalKiB: kib(u.external),
      sockets: socketCount(proc.pid),
      gc: /** @type {any} */ (usage).gc,
    };
  };
  /** Waits until the hub holds no more sockets than at baseline (bounded at 15 s). @param {number | undefined} baseline */
  const waitSocketsDrained = async (baseline) => {
    if (baseline === undefined) return sleep(1000);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && (socketCount(proc.pid) ?? 0) > baseline) await sleep(100);
  };
  /** A holder process with `n` idle sessions; resolves once they are open. @param {number} n */
  const hold = async (n) => {
    const holder = startProcess(
      'session holder',
      NODE,
      [
        path.join(BENCH, 'lib', 'session-holder.mjs'),
        /** @type {string} */ (running.url),
        String(n),
        String(cfg.memOpenMaxMs),
      ],
      { cwd: REPO, ipc: true },
    );
    /** @type {any[]} */
    const inbox = [];
    /** @type {(() => void) | undefined} */
    let wake;
    holder.child.on('message', (m) => {
      inbox.push(m);
      wake?.();
    });
    const next = async (/** @type {number} */ ms) => {
      const deadline = Date.now() + ms;
      while (inbox.length === 0) {
        if (holder.done)
          throw new Error(`the session holder exited: ${holder.tail.slice(-5).join(' | ')}`);
        if (Date.now() > deadline)
          throw new Error(`the session holder did not answer within ${ms} ms`);
        await new Promise((resolve) => {
          wake = () => resolve(undefined);
          setTimeout(resolve, 250);
        });
      }
      const m = inbox.shift();
      if (m.error) throw new Error(m.error);
      return m;
    };
    try {
      const opened = await next(cfg.memOpenMaxMs + 60_000);
      return {
        opened,
        close: async () => {
          holder.child.send('close');
          const closed = await next(60_000);
          await withTimeout(holder.exited, 10_000, 'session holder exit');
          return closed;
        },
        kill: () => stopProcess(holder, { graceMs: 1000 }),
      };
    } catch (err) {
      await stopProcess(holder, { graceMs: 1000 });
      throw err;
    }
  };
  try {
    // Warm up: the shared child is started and every code path has run once.
    const warm = await hold(20);
    await warm.close();
    await waitSocketsDrained(undefined);
    const baseline = await measure();
    const cycles = [];
    let target = sessions;
    let slow = '';
    for (let c = 0; c < cfg.memCycles; c++) {
      const h = await hold(target);
      try {
        if (h.opened.opened < target) {
          slow = `opening ${target} sessions took over ${cfg.memOpenMaxMs / 1000} s; measured with ${h.opened.opened}`;
          target = h.opened.opened;
        }
        const withSessions = await measure();
        const closed = await h.close();
        await waitSocketsDrained(baseline.sockets);
        const after = await measure();
        cycles.push({
          sessions: h.opened.opened,
          openSeconds: r2(h.opened.seconds),
          closeSeconds: r2(closed.seconds),
          open: withSessions,
          closed: after,
        });
      } finally {
        await h.kill();
      }
    }
    const first = cycles[0];
    const last = cycles[cycles.length - 1];
    if (!first || !last) throw new Error('no memory cycle ran');
    const n = first.sessions;
    const kbPerSession = (first.open.rssKiB - baseline.rssKiB) / n;
    const heapKbPerSession = (first.open.heapUsedKiB - baseline.heapUsedKiB) / n;
    // Flat = what the sessions used is given back and nothing accumulates. Judged on the live JS
    // heap (after a full GC, with no session and no connection left), per session so that it
    // scales with the count: after the last cycle at most 2 KiB per session is still held over
    // the baseline, and the last cycle added at most 0.25 KiB per session (earlier cycles also
    // warm up JIT code and tables; the floors absorb a few hundred KiB of that noise). RSS is
    // reported next to it, but it keeps its high-water mark (V8 keeps the grown heap committed
    // and malloc keeps freed pages), so it is not what a leak check can read.
    const heapGrowthKiB = last.closed.heapUsedKiB - baseline.heapUsedKiB;
    const prev = cycles[cycles.length - 2] ?? { closed: baseline };
    const heapCreepLastKiB = last.closed.heapUsedKiB - prev.closed.heapUsedKiB;
    const heapCreepPerCycleKiB =
      cycles.length > 1
        ? Math.round((last.closed.heapUsedKiB - first.closed.heapUsedKiB) / (cycles.length - 1))
        : heapGrowthKiB;
    const rssResidueKiB = last.closed.rssKiB - baseline.rssKiB;
    const rssCreepKiB = last.closed.rssKiB - prev.closed.rssKiB;
    const flat =
      heapGrowthKiB <= Math.max(1024, 2 * n) && heapCreepLastKiB <= Math.max(256, 0.25 * n);
    const retainedKbPerSessionCycle = r2(heapCreepLastKiB / n);
    return {
      sessions: n,
      note: slow || undefined,
      baseline,
      cycles,
      kbPerSession: r2(kbPerSession),
      heapKbPerSession: r2(heapKbPerSession),
      heapGrowthKiB,
      heapCreepPerCycleKiB,
      heapCreepLastKiB,
      retainedKbPerSessionCycle,
      rssResidueKiB,
      rssCreepKiB,
      flat,
    };
  } finally {
    await running.stop();
  }
}
