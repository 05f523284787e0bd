#!/usr/bin/env node
// @ts-check
/**
 * Runs the official MCP conformance suite's client scenarios against the relay: for each
 * scenario the suite starts its test server and runs test/fixtures/conformance-client-driver.mjs
 * (an SDK client on stdio) with the server's URL; the driver spawns
 * `patchbay relay --url <that URL>` and performs the scenario's steps through it.
 *
 *   node scripts/conformance-client.mjs [--scenario NAME]... [--jobs N] [--verbose]
 *
 * Without --scenario it runs every client scenario of spec versions 2025-11-25 and 2025-03-26
 * (the suite's own list, read with `list`). Prints a table and
 * `conformance-client: N passed, M failed`; exit 1 when any failed. The suite's CLI needs
 * Node >= 22: a Node 22 binary is installed once into .cache/node22 (as scripts/conformance.mjs
 * does); the relay and the driver run on the Node running this script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE22_VERSION = '22.23.3';
const NODE22_DIR = join(ROOT, '.cache', 'node22');
const SUITE_CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const DRIVER = join(ROOT, 'test', 'fixtures', 'conformance-client-driver.mjs');
const SPEC_VERSIONS = ['2025-11-25', '2025-03-26'];
/** Per scenario; passing ones take a few seconds (sse-retry waits for its retry delay). */
const SCENARIO_TIMEOUT_MS = 30_000;

class RunError extends Error {}

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** @type {string[]} */
const tempDirs = [];

function parseArgs() {
  const argv = process.argv.slice(2);
  const opts = { scenarios: /** @type {string[]} */ ([]), jobs: 1, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new RunError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--scenario') opts.scenarios.push(value());
    else if (arg === '--jobs') opts.jobs = Math.max(1, Number(value()) || 1);
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--help' || arg === '-h') {
      console.log('usage: node scripts/conformance-client.mjs [--scenario NAME]... [--jobs N] [--verbose]');
      process.exit(0);
    } else throw new RunError(`unknown argument: ${arg}`);
  }
  return opts;
}

/** @returns {string} a Node >= 22 binary for the suite's CLI */
function ensureNode22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const plat = { linux: 'linux', darwin: 'darwin', win32: 'win' }[/** @type {string} */ (process.platform)];
  const arch = { x64: 'x64', arm64: 'arm64' }[/** @type {string} */ (process.arch)];
  if (!plat || !arch) throw new RunError(`no Node 22 package for ${process.platform}-${process.arch}; run this script with Node >= 22`);
  const pkg = `node-${plat}-${arch}`;
  const pkgDir = join(NODE22_DIR, 'node_modules', pkg);
  if (!existsSync(pkgDir)) {
    console.error(`conformance-client: installing ${pkg}@${NODE22_VERSION} into ${relative(ROOT, NODE22_DIR)} (the suite needs Node >= 22)…`);
    mkdirSync(NODE22_DIR, { recursive: true });
    if (!existsSync(join(NODE22_DIR, 'package.json'))) writeFileSync(join(NODE22_DIR, 'package.json'), '{"private":true}\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${NODE22_VERSION}`], {
      cwd: NODE22_DIR,
      stdio: 'inherit',
      shell: process.platform === 'win32',
      timeout: 180_000,
    });
    if (r.status !== 0 || !existsSync(pkgDir)) {
      throw new RunError(`could not install ${pkg}@${NODE22_VERSION}; run \`npm install --no-save --no-package-lock ${pkg}@${NODE22_VERSION}\` in ${NODE22_DIR}`);
    }
  }
  const binary = [join(pkgDir, 'bin', 'node'), join(pkgDir, 'bin', 'node.exe'), join(pkgDir, 'node.exe')].find((c) => existsSync(c));
  if (!binary) throw new RunError(`${pkg} is installed but has no node binary`);
  return binary;
}

/** The suite's client scenarios for the spec versions we target, in its own order. */
function suiteScenarios(/** @type {string} */ node22) {
  const r = spawnSync(node22, [SUITE_CLI, 'list'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new RunError(`the suite's list command failed: ${(r.stderr || r.stdout).trim()}`);
  const text = r.stdout + r.stderr;
  const section = text.slice(text.indexOf('Client scenarios'));
  /** @type {string[]} */
  const names = [];
  for (const m of section.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)) {
    const versions = (m[2] ?? '').split(',');
    if (m[1] && versions.some((v) => SPEC_VERSIONS.includes(v))) names.push(m[1]);
  }
  if (names.length === 0) throw new RunError(`found no client scenarios in the suite's list:\n${text.slice(0, 2000)}`);
  return names;
}

/**
 * One scenario in its own suite process and output dir.
 * @param {string} node22 @param {string} scenario @param {boolean} verbose
 * @returns {Promise<{ scenario: string, ok: boolean, failed: Array<{ id: string, name?: string, description?: string, status: string, errorMessage?: string }>, note?: string, seconds: number }>}
 */
function runScenario(node22, scenario, verbose) {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-client-'));
  tempDirs.push(outDir);
  const started = Date.now();
  // The suite splits --command on spaces and runs it through a shell: quote the paths.
  const command = `"${process.execPath}" "${DRIVER}"`;
  const args = [SUITE_CLI, 'client', '--command', command, '--scenario', scenario, '--timeout', String(SCENARIO_TIMEOUT_MS), '-o', outDir];
  return new Promise((resolveRun) => {
    const child = spawn(node22, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    const collect = (/** @type {Buffer} */ chunk) => {
      output += chunk.toString();
      if (verbose) process.stderr.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // The suite waits for the client's pipes to close and then stops its server: give it room.
    const killer = setTimeout(() => child.kill('SIGKILL'), SCENARIO_TIMEOUT_MS + 60_000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      children.delete(child);
      const checks = readChecks(outDir);
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      /** @type {string | undefined} */
      let note;
      if (/CLIENT TIMED OUT/.test(output)) note = 'the client timed out';
      else if (/CLIENT EXITED WITH ERROR/.test(output)) note = 'the client exited with an error';
      else if (checks.length === 0) note = `no checks saved: ${output.trim().split('\n').slice(-3).join(' / ')}`;
      resolveRun({ scenario, ok: code === 0 && checks.length > 0, failed, note, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** @param {string} dir @returns {Array<{ id: string, name?: string, description?: string, status: string, errorMessage?: string }>} */
function readChecks(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'checks.json') {
      return JSON.parse(readFileSync(join(entry.parentPath ?? entry.path, entry.name), 'utf8'));
    }
  }
  return [];
}

async function main() {
  const opts = parseArgs();
  if (!existsSync(join(ROOT, 'dist', 'main', 'cli', 'main.js'))) throw new RunError('the CLI is not built: run `npm run build` first');
  const node22 = ensureNode22();
  const scenarios = opts.scenarios.length > 0 ? opts.scenarios : suiteScenarios(node22);
  console.error(`conformance-client: ${scenarios.length} client scenarios against patchbay relay --url`);
  /** @type {Awaited<ReturnType<typeof runScenario>>[]} */
  const results = [];
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: Math.min(opts.jobs, queue.length) }, async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        const r = await runScenario(node22, s, opts.verbose);
        console.error(`  ${r.ok ? 'pass' : 'FAIL'}  ${s} (${r.seconds.toFixed(1)} s)`);
        results.push(r);
      }
    }),
  );
  results.sort((a, b) => scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario));

  const width = Math.max('scenario'.length, ...results.map((r) => r.scenario.length));
  console.log(`\n${'scenario'.padEnd(width)} | result`);
  console.log(`${'-'.repeat(width)}-|-${'-'.repeat(30)}`);
  for (const r of results) {
    const cell = r.ok ? 'pass' : `FAIL${r.failed.length ? ` (${r.failed.length} check${r.failed.length > 1 ? 's' : ''})` : ''}`;
    console.log(`${r.scenario.padEnd(width)} | ${cell}`);
  }
  const failures = results.filter((r) => !r.ok);
  if (failures.length > 0) {
    console.log('\nFailures:');
    for (const r of failures) {
      console.log(`  ✗ ${r.scenario}${r.note ? `: ${r.note}` : ''}`);
      for (const c of r.failed) console.log(`      - [${c.status}] ${c.id}: ${c.errorMessage ?? c.description ?? c.name ?? ''}`);
    }
  }
  console.log(`\nconformance-client: ${results.length - failures.length} passed, ${failures.length} failed`);
  return failures.length > 0 ? 1 : 0;
}

let exitCode = 1;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}
try {
  exitCode = await main();
} catch (error) {
  console.error(error instanceof RunError ? `conformance-client: ${error.message}` : error);
} finally {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
