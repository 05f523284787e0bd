// @ts-check
/**
 * Shared helpers for the scripts that run the official MCP conformance suite
 * (scripts/conformance-sets.mjs today; scripts/conformance.mjs and scripts/conformance-client.mjs
 * hold their own copies of the same ideas and could import these instead):
 *
 * - child processes that are tracked and always stopped (`track`, `stop`, `stopAll`), temp dirs
 *   removed at the end (`makeTempDir`, `cleanup`), signals handled (`installSignalHandlers`);
 * - a Node >= 22 binary for the suite's CLI, installed once into .cache/node22 from the npm
 *   registry when the running Node is older (`ensureNode22`);
 * - the systems under test: the fixture server over HTTP (`startHttpFixture`) and
 *   `patchbay serve --no-auth` on a temp data dir with a given config (`startHub`);
 * - (in conformance-prime.mjs) a hub's upstream first reached by a client of a given era;
 * - one run of the suite's CLI, killed on a deadline or when no scenario starts for a while
 *   (`runSuiteCli`), and the saved `checks.json` files (`findChecks`, `readChecks`);
 * - the counting rule of issue 14 (`verdict`): a scenario passes only when its checks have at
 *   least one SUCCESS and no FAILURE.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NODE22_VERSION = '22.23.3';
export const NODE22_DIR = join(ROOT, '.cache', 'node22');
export const HUB_BIN = join(ROOT, 'bin', 'patchbay.js');
export const KILL_GRACE_MS = 3_000;

export class RunError extends Error {}

/**
 * @typedef {{ id: string, name?: string, description?: string, status: string, errorMessage?: string, details?: unknown }} Check
 * @typedef {{ ok: boolean, successes: number, failures: Check[], warnings: Check[], error?: string }} Verdict
 */

// ───────────────────────── process bookkeeping ─────────────────────────

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** Children spawned as process-group leaders (POSIX), whose whole group is reaped. */
const groupLeaders = new WeakSet();
/** @type {string[]} */
const tempDirs = [];
let interrupted = false;

export function wasInterrupted() {
  return interrupted;
}

/**
 * Spawns a child that is tracked for cleanup. `group: true` makes it a process-group leader
 * (POSIX) whose leftover group members are killed when it stops.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { group?: boolean }} options
 */
export function track(command, args, options) {
  const { group = false, ...spawnOptions } = options;
  const asGroup = group && process.platform !== 'win32';
  const child = spawn(command, args, { ...spawnOptions, detached: asGroup });
  if (asGroup) groupLeaders.add(child);
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.once('error', () => children.delete(child));
  return child;
}

/** @param {import('node:child_process').ChildProcess} child */
export function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} ms
 * @returns {Promise<boolean>} whether it exited in time
 */
export function waitExit(child, ms) {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolveWait) => {
    const onExit = () => {
      clearTimeout(timer);
      resolveWait(true);
    };
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolveWait(false);
    }, ms);
    child.once('exit', onExit);
  });
}

/**
 * Stops a child: stdin closed and SIGTERM, then SIGKILL after a grace period. A group leader's
 * group (e.g. the hub's own stdio servers) is killed too if it lingers.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<{ orphans: boolean }>}
 */
export async function stop(child) {
  const group = groupLeaders.has(child);
  if (!exited(child)) {
    child.stdin?.end();
    child.kill('SIGTERM');
    if (!(await waitExit(child, KILL_GRACE_MS))) {
      child.kill('SIGKILL');
      await waitExit(child, KILL_GRACE_MS);
    }
  }
  if (!group || child.pid === undefined) return { orphans: false };
  const pgid = child.pid;
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; alive() && waited < KILL_GRACE_MS; waited += 100) await delay(100);
  if (!alive()) return { orphans: false };
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
  return { orphans: true };
}

/** Stops every tracked child (in parallel). */
export async function stopAll() {
  await Promise.all([...children].map((c) => stop(c).catch(() => undefined)));
}

/** Stops every child and removes every temp dir. */
export async function cleanup() {
  await stopAll();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * On SIGINT/SIGTERM/SIGHUP: stop the children, remove the temp dirs, exit 130.
 * @param {string} label prefix of the message
 */
export function installSignalHandlers(label) {
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      process.stderr.write(`\n${label}: ${signal} received, stopping child processes…\n`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}

/** @param {string} prefix */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

// ───────────────────────── small helpers ─────────────────────────

/** @param {number} ms */
export function delay(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Keeps the last `limit` characters written to a stream, for error reports.
 * @param {import('node:stream').Readable | null | undefined} stream
 * @param {(chunk: string) => void} [onChunk]
 * @param {number} [limit]
 */
export function tail(stream, onChunk, limit = 8000) {
  const state = { text: '' };
  stream?.setEncoding('utf8');
  stream?.on('data', (/** @type {string} */ chunk) => {
    state.text = (state.text + chunk).slice(-limit);
    onChunk?.(chunk);
  });
  return state;
}

// ───────────────────────── Node 22 ─────────────────────────

/**
 * A Node >= 22 binary for the suite's CLI: this Node when it is new enough, else
 * `node-<platform>-<arch>@NODE22_VERSION` installed once into .cache/node22 (the `node@22`
 * meta-package is not used: it relies on an install script).
 * @param {{ label: string, timeoutMs?: number }} opts
 * @returns {string}
 */
export function ensureNode22({ label, timeoutMs = 180_000 }) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const plat = { linux: 'linux', darwin: 'darwin', win32: 'win' }[
    /** @type {string} */ (process.platform)
  ];
  const arch = { x64: 'x64', arm64: 'arm64' }[/** @type {string} */ (process.arch)];
  if (!plat || !arch || (plat === 'win' && arch !== 'x64')) {
    throw new RunError(
      `no Node 22 package for ${process.platform}-${process.arch}; run this script with Node >= 22 instead`,
    );
  }
  const pkg = `node-${plat}-${arch}`;
  const pkgDir = join(NODE22_DIR, 'node_modules', pkg);
  if (!existsSync(pkgDir)) {
    console.error(
      `${label}: installing ${pkg}@${NODE22_VERSION} into ${relative(ROOT, NODE22_DIR)} (the suite needs Node >= 22)…`,
    );
    mkdirSync(NODE22_DIR, { recursive: true });
    if (!existsSync(join(NODE22_DIR, 'package.json')))
      writeFileSync(join(NODE22_DIR, 'package.json'), '{"private":true}\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(
      npm,
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${pkg}@${NODE22_VERSION}`,
      ],
      {
        cwd: NODE22_DIR,
        stdio: 'inherit',
        shell: process.platform === 'win32',
        timeout: timeoutMs,
      },
    );
    if (result.error || result.status !== 0 || !existsSync(pkgDir)) {
      const why = result.error
        ? result.error.message
        : `npm exited with ${result.status ?? result.signal}`;
      throw new RunError(
        `could not install ${pkg}@${NODE22_VERSION} (${why}).\n` +
          `  Fix: run \`npm install --no-save --no-package-lock ${pkg}@${NODE22_VERSION}\` in ${NODE22_DIR}, or run this script with Node >= 22.`,
      );
    }
  }
  const candidates = [
    join(pkgDir, 'bin', 'node'),
    join(pkgDir, 'bin', 'node.exe'),
    join(pkgDir, 'node.exe'),
  ];
  const binary = candidates.find((c) => existsSync(c));
  if (!binary)
    throw new RunError(
      `${pkg} is installed but has no node binary (looked for ${candidates.join(', ')})`,
    );
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const major = Number(String(probe.stdout).trim().replace(/^v/, '').split('.')[0]);
  if (probe.status !== 0 || !(major >= 22)) {
    throw new RunError(
      `${binary} does not run as Node >= 22 (${probe.error?.message ?? (probe.stderr || probe.stdout).trim()})`,
    );
  }
  return binary;
}

// ───────────────────────── systems under test ─────────────────────────

/**
 * Starts a fixture server in HTTP mode on a free loopback port (it must print
 * `listening <url>` on stderr); resolves to its MCP URL and the child.
 * @param {string} script
 * @param {string[]} [extraArgs]
 * @param {number} [startupMs]
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess, stderr: { text: string } }>}
 */
export async function startHttpFixture(script, extraArgs = [], startupMs = 15_000) {
  const child = track(
    process.execPath,
    [script, '--http', '--port', '0', '--host', '127.0.0.1', ...extraArgs],
    { cwd: ROOT, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const stderr = { text: '' };
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(
      () => fail(`did not print "listening <url>" within ${startupMs} ms`),
      startupMs,
    );
    /** @param {string} why */
    function fail(why) {
      clearTimeout(timer);
      reject(new RunError(`fixture server ${why}.\n--- fixture stderr ---\n${stderr.text.trim()}`));
    }
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (/** @type {string} */ chunk) => {
      stderr.text = (stderr.text + chunk).slice(-8000);
      const match = /^listening (\S+)$/m.exec(stderr.text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('error', (error) => fail(`could not be spawned: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited early (${signal ?? `code ${code}`})`));
  });
  return { url: /** @type {string} */ (url), child, stderr };
}

/**
 * Starts `patchbay serve --no-auth` (the built dist/) with a temp data dir holding `config`.
 * @param {unknown} config the config.json to write
 * @param {{ startupMs?: number }} [opts]
 * @returns {Promise<{ base: string, child: import('node:child_process').ChildProcess, home: string, stderr: { text: string }, stdout: { text: string }, secretFindings: string[] }>}
 */
export async function startHub(config, opts = {}) {
  const startupMs = opts.startupMs ?? 15_000;
  if (!existsSync(join(ROOT, 'dist', 'main', 'cli', 'main.js'))) {
    throw new RunError(
      'the hub is not built (dist/main/cli/main.js is missing): run `npm run build` first',
    );
  }
  const home = makeTempDir('patchbay-conformance-home-');
  writeFileSync(join(home, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const port = await freePort();
  const child = track(process.execPath, [HUB_BIN, 'serve', '--port', String(port), '--no-auth'], {
    cwd: ROOT,
    env: { ...process.env, PATCHBAY_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
    group: true, // its own process group, so children it leaves behind can be reaped
  });
  const stdout = tail(child.stdout);
  // The secret checks run on every message at their default (`warn`): the suites' traffic holds
  // no secret, so each line they log is a false positive (issue 25) the run reports.
  /** @type {string[]} */
  const secretFindings = [];
  const stderr = tail(child.stderr, (chunk) => {
    for (const line of chunk.split('\n')) if (line.includes('secret-check')) secretFindings.push(line);
  });
  /** @type {string | undefined} */
  let spawnError;
  child.once('error', (error) => {
    spawnError = error.message;
  });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < startupMs) {
    if (spawnError || exited(child)) break;
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 200) return { base, child, home, stderr, stdout, secretFindings };
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  const state = spawnError
    ? `could not be spawned: ${spawnError}`
    : exited(child)
      ? `exited early (${child.signalCode ?? `code ${child.exitCode}`})`
      : `did not answer 200 on GET ${base}/health within ${startupMs / 1000} s`;
  throw new RunError(
    `hub ${state}.\n--- hub stderr ---\n${stderr.text.trim() || '(empty)'}\n--- hub stdout ---\n${stdout.text.trim() || '(empty)'}`,
  );
}

// ───────────────────────── the suite's CLI ─────────────────────────

/**
 * One run of the suite's CLI. Killed after `timeoutMs`, or (with `stallMs`) when no new
 * scenario starts for that long; `started` lists the scenarios in the order they began
 * (from its `=== Running scenario: NAME ===` lines).
 * @param {string} node22
 * @param {string} cli path of the suite's dist/index.js
 * @param {string[]} args
 * @param {{ timeoutMs: number, stallMs?: number, verbose?: boolean, env?: NodeJS.ProcessEnv }} limits
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, started: string[], killed?: string }>}
 */
export async function runSuiteCli(node22, cli, args, limits) {
  const child = track(node22, [cli, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...limits.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stopping it also stops a client it runs (shell, client, relay).
    group: true,
  });
  /** @type {string[]} */
  const started = [];
  let lastStart = Date.now();
  let lines = '';
  const out = tail(
    child.stdout,
    (chunk) => {
      if (limits.verbose) process.stderr.write(chunk);
      lines += chunk;
      for (const m of lines.matchAll(/=== Running scenario: (\S+) ===\n/g)) {
        started.push(m[1] ?? '');
        lastStart = Date.now();
      }
      lines = lines.slice(lines.lastIndexOf('\n') + 1);
    },
    2_000_000,
  );
  const err = tail(
    child.stderr,
    limits.verbose ? (chunk) => process.stderr.write(chunk) : undefined,
    400_000,
  );
  /** @type {string | undefined} */
  let killed;
  const deadline = Date.now() + Math.max(limits.timeoutMs, 0);
  while (!exited(child)) {
    if (Date.now() > deadline)
      killed = `killed after ${Math.round(limits.timeoutMs / 1000)} s (time limit)`;
    else if (limits.stallMs && Date.now() - lastStart > limits.stallMs) {
      killed = `killed: no scenario finished within ${Math.round(limits.stallMs / 1000)} s`;
    }
    if (killed) {
      await stop(child);
      break;
    }
    await waitExit(child, 250);
  }
  if (interrupted) throw new RunError('interrupted');
  return { code: child.exitCode, stdout: out.text, stderr: err.text, started, killed };
}

/** @param {string} dir @returns {string[]} every checks.json under dir */
export function findChecks(dir) {
  /** @type {string[]} */
  const found = [];
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findChecks(path));
    else if (entry.name === 'checks.json') found.push(path);
  }
  return found;
}

/** @param {string} file @returns {Check[]} */
export function readChecks(file) {
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  return Array.isArray(parsed) ? parsed : [];
}

/**
 * The counting rule: a scenario passes only when its checks have at least one SUCCESS and no
 * FAILURE (WARNING, INFO and SKIPPED are reported, not decisive). No checks at all is a failure.
 * @param {Check[] | null | undefined} checks
 * @param {string} [error] why there are no checks
 * @returns {Verdict}
 */
export function verdict(checks, error) {
  if (!checks) return { ok: false, successes: 0, failures: [], warnings: [], error };
  const successes = checks.filter((c) => c.status === 'SUCCESS').length;
  const failures = checks.filter((c) => c.status === 'FAILURE');
  const warnings = checks.filter((c) => c.status === 'WARNING');
  const ok = successes > 0 && failures.length === 0 && !error;
  return {
    ok,
    successes,
    failures,
    warnings,
    error: error ?? (successes === 0 && failures.length === 0 ? 'no SUCCESS check' : undefined),
  };
}
