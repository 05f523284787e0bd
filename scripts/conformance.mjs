#!/usr/bin/env node
// @ts-check
/**
 * Runs the official MCP conformance suite (server scenarios) three times:
 *   1. "direct"      — against the fixture server (test/fixtures/everything-server.mjs) over HTTP;
 *   2. "via hub"     — against the same fixture spawned over stdio by `patchbay serve`,
 *      at http://127.0.0.1:<port>/mcp/fixture;
 *   3. "via profile" — through the same hub's aggregated endpoint of a profile that holds only
 *      the fixture, with prefixing off: http://127.0.0.1:<port>/mcp/@fixture (docs/profiles.md).
 * A scenario that passes direct but fails via the hub or the profile is a hub bug: exit 1.
 * A scenario that fails direct (or did not run direct) is a fixture bug, not a hub bug, but it
 * still counts as failed: nothing was verified for it, so it must not pass the run: exit 1.
 *
 *   node scripts/conformance.mjs [--scenario NAME]... [--direct-only] [--no-profile] [--hub-url URL] [--verbose]
 *
 * --hub-url takes the full MCP endpoint of a running hub (it must run with --no-auth:
 * the suite cannot send a token). The suite's CLI needs Node >= 22; when the running
 * Node is older, a Node 22 binary is installed once into .cache/node22 from the npm registry.
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

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE22_VERSION = '22.23.3';
const NODE22_DIR = join(ROOT, '.cache', 'node22');
const SUITE_CLI = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
const FIXTURE = join(ROOT, 'test', 'fixtures', 'everything-server.mjs');
const HUB_BIN = join(ROOT, 'bin', 'patchbay.js');

const DEADLINE = Date.now() + 5 * 60_000; // the whole run, install included
const STARTUP_TIMEOUT_MS = 15_000;
const KILL_GRACE_MS = 3_000;
// Passing scenarios take well under 15 s (server-sse-polling may read a stream for 10 s).
const SCENARIO_TIMEOUT_MS = 30_000;

/** @typedef {{ id: string, name: string, description?: string, status: string, errorMessage?: string, details?: unknown }} Check */
/** @typedef {{ scenario: string, checks: Check[] | null, error?: string }} ScenarioResult */
/** @typedef {{ ok: boolean, warnings: number, failed: Check[], error?: string }} Verdict */

class RunError extends Error {}

// ───────────────────────── process bookkeeping ─────────────────────────

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** Children spawned as process-group leaders (POSIX), whose whole group is reaped. */
const groupLeaders = new WeakSet();
/** @type {string[]} */
const tempDirs = [];

/**
 * Spawns a child that is tracked for cleanup.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 */
function track(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.once('error', () => children.delete(child));
  return child;
}

/** @param {import('node:child_process').ChildProcess} child */
function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Stops a child: SIGTERM, then SIGKILL after a grace period. A detached child is a process
 * group leader; its group (e.g. the hub's own stdio servers) is killed too if it lingers.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<{ orphans: boolean }>}
 */
async function stop(child) {
  const group = groupLeaders.has(child);
  if (!exited(child)) {
    child.stdin?.end();
    child.kill('SIGTERM');
    const done = await waitExit(child, KILL_GRACE_MS);
    if (!done) {
      child.kill('SIGKILL');
      await waitExit(child, KILL_GRACE_MS);
    }
  }
  if (!group || child.pid === undefined) return { orphans: false };
  // Give the group's other members (children the leader told to stop) a moment to exit.
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

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} ms
 * @returns {Promise<boolean>} whether it exited in time
 */
function waitExit(child, ms) {
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

async function cleanup() {
  await Promise.all([...children].map((c) => stop(c).catch(() => undefined)));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\nconformance: ${signal} received, stopping child processes…\n`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ───────────────────────── helpers ─────────────────────────

/** @param {string} prefix */
function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function remainingMs() {
  return DEADLINE - Date.now();
}

/** @returns {Promise<number>} a free TCP port on 127.0.0.1 */
function freePort() {
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

/** @param {number} ms */
function delay(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Keeps the last `limit` characters written to a stream, for error reports.
 * @param {import('node:stream').Readable | null} stream
 * @param {(chunk: string) => void} [onChunk]
 */
function tail(stream, onChunk, limit = 8000) {
  const state = { text: '' };
  stream?.setEncoding('utf8');
  stream?.on('data', (/** @type {string} */ chunk) => {
    state.text = (state.text + chunk).slice(-limit);
    onChunk?.(chunk);
  });
  return state;
}

// ───────────────────────── Node 22 ─────────────────────────

/** @returns {string} path of a Node >= 22 binary */
function ensureNode22() {
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
      `conformance: installing ${pkg}@${NODE22_VERSION} into ${relative(ROOT, NODE22_DIR)} (the suite needs Node >= 22)…`,
    );
    mkdirSync(NODE22_DIR, { recursive: true });
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
        timeout: Math.min(180_000, remainingMs()),
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

// ───────────────────────── the system under test ─────────────────────────

/** Starts the fixture over HTTP on a free loopback port; resolves to its MCP URL. */
async function startFixture() {
  const child = track(process.execPath, [FIXTURE, '--http', '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  return new Promise((resolveUrl, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => fail(`did not print "listening <url>" within ${STARTUP_TIMEOUT_MS} ms`),
      STARTUP_TIMEOUT_MS,
    );
    /** @param {string} why */
    function fail(why) {
      clearTimeout(timer);
      reject(new RunError(`fixture server ${why}.\n--- fixture stderr ---\n${buffer.trim()}`));
    }
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (/** @type {string} */ chunk) => {
      buffer += chunk;
      const match = /^listening (\S+)$/m.exec(buffer);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('error', (error) => fail(`could not be spawned: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited early (${signal ?? `code ${code}`})`));
  });
}

/**
 * Starts `patchbay serve` with a temp PATCHBAY_HOME whose config runs the fixture over stdio,
 * and a profile of only the fixture, unprefixed.
 * @returns {Promise<{ url: string, profileUrl: string, child: import('node:child_process').ChildProcess, stderr: { text: string }, secretFindings: { lines: string[] } }>}
 */
async function startHub() {
  if (!existsSync(join(ROOT, 'dist', 'main', 'cli', 'main.js'))) {
    throw new RunError(
      'the hub is not built (dist/main/cli/main.js is missing): run `npm run build` first',
    );
  }
  const home = makeTempDir('patchbay-conformance-home-');
  const config = {
    mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } },
    profiles: { fixture: { servers: ['fixture'], prefix: false } },
  };
  writeFileSync(join(home, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const port = await freePort();
  const groupKill = process.platform !== 'win32';
  const child = track(process.execPath, [HUB_BIN, 'serve', '--port', String(port), '--no-auth'], {
    cwd: ROOT,
    env: { ...process.env, PATCHBAY_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: groupKill, // own process group, so its children can be reaped if it leaves any
  });
  if (groupKill) groupLeaders.add(child);
  const stdout = tail(child.stdout);
  // Secret checks run on every message at their default (`warn`): the suite's traffic holds no
  // secret, so any finding is a false positive (issue 25) and fails the run.
  const secretFindings = { lines: /** @type {string[]} */ ([]) };
  const stderr = tail(child.stderr, (chunk) => {
    for (const line of chunk.split('\n')) if (line.includes('secret-check')) secretFindings.lines.push(line);
  });
  /** @type {string | undefined} */
  let spawnError;
  child.once('error', (error) => {
    spawnError = error.message;
  });

  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < STARTUP_TIMEOUT_MS) {
    if (spawnError || exited(child)) break;
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 200) return { url: `${base}/mcp/fixture`, profileUrl: `${base}/mcp/@fixture`, child, stderr, secretFindings };
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  const state = spawnError
    ? `could not be spawned: ${spawnError}`
    : exited(child)
      ? `exited early (${child.signalCode ?? `code ${child.exitCode}`})`
      : `did not answer 200 on GET ${base}/health within ${STARTUP_TIMEOUT_MS / 1000} s`;
  throw new RunError(
    `hub ${state}.\n--- hub stderr ---\n${stderr.text.trim() || '(empty)'}\n--- hub stdout ---\n${stdout.text.trim() || '(empty)'}`,
  );
}

// ───────────────────────── the suite ─────────────────────────

/**
 * Runs the suite against `url` and collects per-scenario results from the `-o` directory
 * (`server-<scenario>-<timestamp>/checks.json`).
 *
 * With `scenarios` null the whole active suite runs in one CLI process (fast); a scenario that
 * stalls for SCENARIO_TIMEOUT_MS gets that process killed — a lost message costs the suite's
 * client 60 s per request — and the scenarios of `expected` that had not run yet then run one
 * CLI process each, under the same cap. With a list, every scenario gets its own process.
 * @param {string} node22
 * @param {string} url
 * @param {{ scenarios: string[] | null, expected?: string[] }} plan
 * @param {string} label
 * @param {boolean} verbose
 * @returns {Promise<Map<string, ScenarioResult>>}
 */
async function runSuite(node22, url, plan, label, verbose) {
  const outDir = makeTempDir(`conformance-${label}-`);
  /** @type {string[]} scenarios in the order they ran */
  const ran = [];
  /** @type {Map<string, string>} why a scenario has no saved result */
  const problems = new Map();
  let queue = plan.scenarios ?? [];

  if (plan.scenarios === null) {
    const run = await runCli(node22, ['--url', url, '-o', outDir], verbose, {
      timeoutMs: remainingMs() - 5_000,
      stallMs: SCENARIO_TIMEOUT_MS,
    });
    ran.push(...run.started);
    const current = run.started.at(-1);
    if (run.killed && current) problems.set(current, run.killed);
    for (const m of (run.stdout + run.stderr).matchAll(/Failed to run scenario (\S+?):?\s(.*)/g)) {
      if (m[1]) problems.set(m[1], `the scenario threw: ${m[2] ?? ''}`.trim());
    }
    if (ran.length === 0) {
      const output = (run.stdout + run.stderr).slice(-3000);
      throw new RunError(`the ${label} suite run did not start any scenario. Output:\n${output}`);
    }
    queue = run.killed ? (plan.expected ?? []).filter((s) => !ran.includes(s)) : [];
  }
  for (const scenario of queue) {
    ran.push(scenario);
    const budget = Math.min(SCENARIO_TIMEOUT_MS, remainingMs() - 5_000);
    if (budget <= 0) {
      problems.set(scenario, 'not run: the 5-minute budget was used up');
      continue;
    }
    const args = ['--url', url, '--scenario', scenario, '-o', outDir];
    const run = await runCli(node22, args, verbose, { timeoutMs: budget });
    if (/Unknown scenario|Validation error/.test(run.stderr)) {
      throw new RunError(`the suite rejected its arguments:\n${run.stderr.trim()}`);
    }
    if (run.killed) problems.set(scenario, run.killed);
    else if (run.stderr.trim())
      problems.set(scenario, run.stderr.trim().split('\n').slice(-3).join(' / '));
  }

  /** @type {Map<string, ScenarioResult>} */
  const saved = new Map();
  for (const file of findChecks(outDir)) {
    const dirName = relative(outDir, dirname(file)).replace(/\\/g, '/');
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(dirName);
    if (match?.[1]) {
      saved.set(match[1], { scenario: match[1], checks: JSON.parse(readFileSync(file, 'utf8')) });
    }
  }
  /** @type {Map<string, ScenarioResult>} */
  const results = new Map();
  for (const scenario of [...ran, ...saved.keys()]) {
    if (results.has(scenario)) continue;
    const error = problems.get(scenario) ?? 'the suite saved no result for this scenario';
    results.set(scenario, saved.get(scenario) ?? { scenario, checks: null, error });
  }
  return results;
}

/**
 * One run of the suite's CLI (`server` command). Killed after `timeoutMs`, or when no new
 * scenario starts for `stallMs`.
 * @param {string} node22
 * @param {string[]} args
 * @param {boolean} verbose
 * @param {{ timeoutMs: number, stallMs?: number }} limits
 * @returns {Promise<{ stdout: string, stderr: string, started: string[], killed?: string }>}
 */
async function runCli(node22, args, verbose, limits) {
  const child = track(node22, [SUITE_CLI, 'server', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  /** @type {string[]} */
  const started = [];
  let lastStart = Date.now();
  let lines = '';
  const out = tail(
    child.stdout,
    (chunk) => {
      if (verbose) process.stderr.write(chunk);
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
    verbose ? (chunk) => process.stderr.write(chunk) : undefined,
    200_000,
  );

  /** @type {string | undefined} */
  let killed;
  const deadline = Date.now() + Math.max(limits.timeoutMs, 0);
  while (!exited(child)) {
    if (Date.now() > deadline)
      killed = `killed after ${Math.round(limits.timeoutMs / 1000)} s (time limit)`;
    else if (limits.stallMs && Date.now() - lastStart > limits.stallMs) {
      killed = `killed: still running after ${Math.round(limits.stallMs / 1000)} s`;
    }
    if (killed) {
      await stop(child);
      break;
    }
    await waitExit(child, 250);
  }
  if (interrupted) throw new RunError('interrupted');
  return { stdout: out.text, stderr: err.text, started, killed };
}

/** @param {string} dir @returns {string[]} */
function findChecks(dir) {
  /** @type {string[]} */
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findChecks(path));
    else if (entry.name === 'checks.json') found.push(path);
  }
  return found;
}

/** @param {ScenarioResult | undefined} result @returns {Verdict | undefined} */
function verdict(result) {
  if (!result) return undefined;
  if (!result.checks) return { ok: false, warnings: 0, failed: [], error: result.error };
  const failed = result.checks.filter((c) => c.status === 'FAILURE');
  const warnings = result.checks.filter((c) => c.status === 'WARNING').length;
  return { ok: failed.length === 0, warnings, failed };
}

/** @param {Verdict | undefined} v */
function cell(v) {
  if (!v) return '-';
  if (!v.ok) return v.error ? 'FAIL (no result)' : `FAIL (${v.failed.length})`;
  return v.warnings > 0 ? `pass (${v.warnings} warn)` : 'pass';
}

/**
 * @param {string} scenario
 * @param {string} where
 * @param {Verdict} v
 */
function describeFailure(scenario, where, v) {
  const lines = [`  ✗ ${scenario} (${where})`];
  if (v.error) lines.push(`      ${v.error}`);
  for (const check of v.failed) {
    lines.push(`      - [${check.id}] ${check.description ?? check.name}`);
    if (check.errorMessage) lines.push(`        error: ${check.errorMessage}`);
    if (check.details !== undefined)
      lines.push(`        details: ${JSON.stringify(check.details).slice(0, 600)}`);
  }
  return lines.join('\n');
}

// ───────────────────────── main ─────────────────────────

function parseArgs() {
  const argv = process.argv.slice(2);
  const opts = {
    scenarios: /** @type {string[]} */ ([]),
    directOnly: false,
    noProfile: false,
    hubUrl: /** @type {string | undefined} */ (undefined),
    verbose: false,
    installOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new RunError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--scenario') opts.scenarios.push(value());
    else if (arg === '--direct-only') opts.directOnly = true;
    else if (arg === '--no-profile') opts.noProfile = true;
    else if (arg === '--hub-url') opts.hubUrl = value();
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--install-only') opts.installOnly = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'usage: node scripts/conformance.mjs [--scenario NAME]... [--direct-only] [--no-profile] [--hub-url URL] [--verbose]\n' +
          '       node scripts/conformance.mjs --install-only   (only make sure the Node 22 binary the suite needs is in .cache/node22)',
      );
      process.exit(0);
    } else throw new RunError(`unknown argument: ${arg}`);
  }
  if (opts.hubUrl) {
    const host = new URL(opts.hubUrl).hostname;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host))
      throw new RunError('--hub-url must point at a loopback address');
  }
  return opts;
}

async function main() {
  const opts = parseArgs();
  const node22 = ensureNode22();
  if (opts.installOnly) {
    console.error(`conformance: Node 22 for the suite: ${relative(ROOT, node22) || node22}`);
    return 0;
  }

  const fixtureUrl = await startFixture();
  console.error(`conformance: direct run against ${fixtureUrl}`);
  const subset = opts.scenarios.length > 0 ? opts.scenarios : null;
  const direct = await runSuite(node22, fixtureUrl, { scenarios: subset }, 'direct', opts.verbose);
  for (const child of [...children]) await stop(child); // the fixture is no longer needed

  /** @type {Map<string, ScenarioResult> | undefined} */
  let viaHub;
  /** @type {Map<string, ScenarioResult> | undefined} */
  let viaProfile;
  let hubOrphans = false;
  /** @type {string[]} */
  let secretFalsePositives = [];
  if (!opts.directOnly) {
    let hubUrl = opts.hubUrl;
    /** @type {Awaited<ReturnType<typeof startHub>> | undefined} */
    let hub;
    if (!hubUrl) {
      hub = await startHub();
      hubUrl = hub.url;
    }
    console.error(`conformance: hub run against ${hubUrl}`);
    const plan = { scenarios: subset, expected: [...direct.keys()] };
    viaHub = await runSuite(node22, hubUrl, plan, 'hub', opts.verbose);
    if (hub && !opts.noProfile) {
      console.error(`conformance: profile run against ${hub.profileUrl}`);
      viaProfile = await runSuite(node22, hub.profileUrl, plan, 'profile', opts.verbose);
    }
    if (hub) hubOrphans = (await stop(hub.child)).orphans;
    if (hub) secretFalsePositives = hub.secretFindings.lines;
  }

  // ── report ──
  const names = [...new Set([...direct.keys(), ...(viaHub?.keys() ?? [])])];
  const rows = names.map((name) => ({
    name,
    direct: verdict(direct.get(name)),
    hub: verdict(viaHub?.get(name)),
    profile: verdict(viaProfile?.get(name)),
  }));
  const width = Math.max('scenario'.length, ...names.map((n) => n.length));
  const colW = 18;
  console.log(`\n${'scenario'.padEnd(width)} | ${'direct'.padEnd(colW)} | ${'via hub'.padEnd(colW)} | via profile`);
  console.log(`${'-'.repeat(width)}-|-${'-'.repeat(colW)}-|-${'-'.repeat(colW)}-|-${'-'.repeat(colW)}`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)} | ${cell(row.direct).padEnd(colW)} | ${(viaHub ? cell(row.hub) : 'skipped').padEnd(colW)} | ${viaProfile ? cell(row.profile) : 'skipped'}`,
    );
  }

  // A scenario with no direct result (it ran only via the hub, e.g. after the direct run was
  // killed) was not verified against the fixture either, so it fails like a fixture bug.
  const fixtureBugs = rows.filter((r) => !r.direct?.ok);
  if (fixtureBugs.length > 0) {
    console.log(
      `\nFAIL DIRECTLY, i.e. in the fixture, not in the hub (fix test/fixtures/everything-server.mjs):`,
    );
    for (const r of fixtureBugs) {
      const v = r.direct ?? { ok: false, warnings: 0, failed: [], error: 'not run directly' };
      console.log(describeFailure(r.name, 'direct: in the fixture, not the hub', v));
    }
  }

  if (!viaHub) {
    const passed = rows.filter((r) => r.direct?.ok).length;
    console.log(`\nconformance: ${passed} passed, ${rows.length - passed} failed`);
    return fixtureBugs.length > 0 ? 1 : 0;
  }

  // A scenario counts against the hub only when it passes direct but not via the hub (or the profile).
  const regressions = rows.filter((r) => r.direct?.ok && (!r.hub?.ok || (viaProfile && !r.profile?.ok)));
  if (regressions.length > 0) {
    console.log(`\nPass direct but FAIL via hub or via profile:`);
    for (const r of regressions) {
      if (!r.hub?.ok) {
        console.log(describeFailure(r.name, 'via hub', r.hub ?? { ok: false, warnings: 0, failed: [], error: 'not run via hub' }));
      }
      if (viaProfile && !r.profile?.ok) {
        console.log(describeFailure(r.name, 'via profile', r.profile ?? { ok: false, warnings: 0, failed: [], error: 'not run via profile' }));
      }
    }
  }
  if (hubOrphans)
    console.log(
      '\nnote: the hub left processes behind in its process group after it stopped (they were killed).',
    );
  // Every scenario that failed anywhere counts: a fixture bug is not the hub's fault, but the run
  // verified nothing for it, so it must not pass (nor be counted as passed).
  if (secretFalsePositives.length > 0) {
    console.log(`\nThe hub's secret checks flagged conformance traffic (false positives):\n${secretFalsePositives.slice(0, 10).join('\n')}`);
  }
  const failed = fixtureBugs.length + regressions.length + (secretFalsePositives.length > 0 ? 1 : 0);
  const split =
    fixtureBugs.length > 0
      ? ` (${fixtureBugs.length} directly, in the fixture; ${regressions.length} via hub or profile only)`
      : '';
  console.log(`\nconformance: ${rows.length - failed} passed, ${failed} failed${split}`);
  return failed > 0 ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (interrupted) exitCode = 130;
  else if (error instanceof RunError) console.error(`conformance: ${error.message}`);
  else console.error('conformance: unexpected error:', error);
  if (!interrupted) exitCode = 1;
} finally {
  await cleanup();
}
if (!interrupted) process.exit(exitCode);
