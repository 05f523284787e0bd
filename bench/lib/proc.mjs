// @ts-check
/**
 * Process bookkeeping for the benchmark: every process it starts is tracked and stopped, by its
 * own id, when a target is done or the harness exits. Gateways run in their own process group so
 * a stop reaches what they spawned; stdio echo servers carry a per-run marker argument so that
 * any a gateway left behind (they spawn detached children of their own) can be found and stopped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

/** A unique argument appended to every echo server command line of this run. */
export const RUN_MARK = `--bench-run=${process.pid}-${Date.now().toString(36)}`;

/**
 * @typedef {object} Proc
 * @property {string} name
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {string[]} tail last lines of stdout+stderr, for error messages
 * @property {Promise<{ code: number | null, signal: string | null }>} exited
 * @property {boolean} done
 * @property {(line: string) => void} [onLine]
 */

/** @type {Set<Proc>} */
const live = new Set();

/**
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, ipc?: boolean, stdin?: boolean, onLine?: (line: string) => void }} [options]
 *   `stdin`: a pipe to the process's stdin (`proc.child.stdin`) instead of /dev/null
 * @returns {Proc}
 */
export function startProcess(name, command, args, options = {}) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [
      options.stdin ? 'pipe' : 'ignore',
      'pipe',
      'pipe',
      ...(options.ipc ? /** @type {const} */ (['ipc']) : []),
    ],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}: ${command}`);
  /** @type {Proc} */
  const proc = {
    name,
    child,
    pid: child.pid,
    tail: [],
    done: false,
    onLine: options.onLine,
    exited: new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        proc.done = true;
        live.delete(proc);
        resolve({ code, signal });
      });
    }),
  };
  const collect = (/** @type {import('node:stream').Readable | null} */ stream) => {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (/** @type {string} */ text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        proc.tail.push(line);
        if (proc.tail.length > 40) proc.tail.shift();
        proc.onLine?.(line);
      }
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  child.on('error', () => {});
  // A process that exits while the harness still writes to it must not crash the harness (EPIPE).
  child.stdin?.on('error', () => {});
  live.add(proc);
  return proc;
}

/**
 * SIGTERM (or `signal`) to the process, then SIGKILL to its group after `graceMs`.
 * @param {Proc} proc
 * @param {{ graceMs?: number, signal?: NodeJS.Signals }} [options]
 */
export async function stopProcess(proc, options = {}) {
  if (!proc.done) {
    try {
      process.kill(proc.pid, options.signal ?? 'SIGTERM');
    } catch {
      // already gone
    }
    let timer;
    const timedOut = await Promise.race([
      proc.exited.then(() => false),
      new Promise((resolve) => (timer = setTimeout(() => resolve(true), options.graceMs ?? 5000))),
    ]);
    clearTimeout(timer);
    if (timedOut) killGroup(proc.pid);
    await proc.exited;
  }
  // The group may still hold children of the process (non-detached ones).
  killGroup(proc.pid, true);
}

/** @param {number} pid @param {boolean} [quiet] */
function killGroup(pid, quiet = false) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (err) {
    if (!quiet && /** @type {NodeJS.ErrnoException} */ (err).code !== 'ESRCH') throw err;
  }
}

/** Pids of live processes whose command line carries this run's marker. */
export function markedPids() {
  /** @type {number[]} */
  const out = [];
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return out; // not Linux: nothing to sweep this way
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(RUN_MARK)) out.push(pid);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** SIGKILLs echo servers of this run that outlived their gateway. Returns how many. */
export function sweepStrays() {
  const pids = markedPids();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
  return pids.length;
}

/** Synchronous last-resort cleanup (process 'exit'). */
export function killAllSync() {
  for (const proc of live) {
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  sweepStrays();
}

/** A free TCP port on 127.0.0.1 (for peers that cannot report the port they picked). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process in KiB, from /proc (falls back to `ps`). @param {number} pid */
export function rssKiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (m) return Number(m[1]);
  } catch {
    // not Linux: ask ps
  }
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return out ? Number(out) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU accounting, to tell when something else on the machine competed with a measurement (the
 * bench often shares its cores). `cpuSnapshot()` reads the machine's busy time (/proc/stat) and
 * the CPU time of this harness and all its descendants (utime+stime+cutime+cstime, so children
 * that exited and were reaped still count). Linux only; elsewhere it returns undefined.
 */
export function cpuSnapshot() {
  try {
    const stat = readFileSync('/proc/stat', 'utf8');
    const cpu = /^cpu\s+(.+)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number);
    if (!cpu) return undefined;
    // user nice system idle iowait irq softirq steal …
    const busy =
      (cpu[0] ?? 0) + (cpu[1] ?? 0) + (cpu[2] ?? 0) + (cpu[5] ?? 0) + (cpu[6] ?? 0) + (cpu[7] ?? 0);
    /** @type {Map<number, number>} */
    const parentOf = new Map();
    /** @type {Map<number, number>} */
    const ticks = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const s = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        // f[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
        parentOf.set(Number(entry), Number(f[1]));
        ticks.set(Number(entry), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
      } catch {
        // exited meanwhile
      }
    }
    let ours = 0;
    for (const [pid, t] of ticks) {
      for (
        let p = /** @type {number | undefined} */ (pid), hops = 0;
        p !== undefined && p > 1 && hops < 64;
        p = parentOf.get(p), hops++
      ) {
        if (p === process.pid) {
          ours += t;
          break;
        }
      }
    }
    return { at: Date.now(), busy, ours };
  } catch {
    return undefined;
  }
}

/**
 * Share of the machine's CPU capacity used by processes outside this bench between two
 * snapshots, in percent (0–100). @param {ReturnType<typeof cpuSnapshot>} a @param {ReturnType<typeof cpuSnapshot>} b
 */
export function foreignCpuPct(a, b) {
  if (!a || !b || b.at <= a.at) return undefined;
  const hz = 100; // USER_HZ: 100 on every Linux this runs on
  const capacity = ((b.at - a.at) / 1000) * hz * cpus();
  const foreign = b.busy - a.busy - (b.ours - a.ours);
  return Math.max(0, Math.round((1000 * foreign) / capacity) / 10);
}

function cpus() {
  return availableParallelism();
}

/** How many sockets a process holds open (Linux; undefined elsewhere). @param {number} pid */
export function socketCount(pid) {
  try {
    let n = 0;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
      } catch {
        // closed meanwhile
      }
    }
    return n;
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) used so far by the bench's own process (the SDK client), by `serverPid` (the
 * gateway or server under test, itself only) and by every other descendant (stdio children;
 * reaped ones count through their parent's cutime/cstime). Linux only.
 * @param {number | undefined} serverPid
 */
export function cpuByRole(serverPid) {
  const hz = 100;
  /** @type {Map<number, number>} */
  const parentOf = new Map();
  /** @type {Map<number, { own: number, reaped: number }>} */
  const ticks = new Map();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const s = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        parentOf.set(Number(entry), Number(f[1]));
        ticks.set(Number(entry), {
          own: Number(f[11]) + Number(f[12]),
          reaped: Number(f[13]) + Number(f[14]),
        });
      } catch {
        // exited meanwhile
      }
    }
  } catch {
    return undefined;
  }
  const out = { client: 0, server: 0, children: 0 };
  for (const [pid, t] of ticks) {
    if (pid === process.pid) {
      out.client += t.own;
      continue; // its reaped children are earlier targets' processes
    }
    let ours = false;
    for (
      let p = parentOf.get(pid), hops = 0;
      p !== undefined && p > 1 && hops < 64;
      p = parentOf.get(p), hops++
    ) {
      if (p === process.pid) {
        ours = true;
        break;
      }
    }
    if (!ours) continue;
    if (pid === serverPid) {
      out.server += t.own;
      out.children += t.reaped;
    } else {
      out.children += t.own + t.reaped;
    }
  }
  const ms = 1000 / hz;
  return { client: out.client * ms, server: out.server * ms, children: out.children * ms };
}

/** CPU time (utime+stime) a live process has used, in ms (Linux; undefined elsewhere). @param {number} pid */
export function processCpuMs(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}
