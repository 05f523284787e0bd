#!/usr/bin/env node
// @ts-check
/**
 * Runs the official MCP conformance suite 0.2 (`@modelcontextprotocol/conformance-next`, an npm
 * alias of @modelcontextprotocol/conformance@0.2.0-alpha.12) with its frozen requirement sets,
 * `--requirements 2025-11-25` and `--requirements 2026-07-28` (issue 14), against nine targets.
 *
 * The dual-era fixture (test/fixtures/dual-era-server.mjs) is the server. Behind the hub it runs
 * with `--server-requests legacy`: its 2025 tools that ask the client (test_sampling,
 * test_elicitation, test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums) always
 * send the 2025 request (`ctx.mcpReq.send({ method: 'sampling/createMessage', … })`), as a
 * dual-era server written for 2025 does, so they work only when a 2025 client is served in the
 * 2025 era (PROTOCOL Q11, fidelity: a client is served in its own era whenever the server speaks
 * it); a hub that bridged the 2025 client to the server's 2026-07-28 era fails those four
 * scenarios of the 2025-11-25 set. Each hub upstream is first reached, before the suite starts,
 * by a client of a chosen era ("primed"), so the result never depends on which run came first,
 * and both orders are run: every hub target must score both sets in full, whichever era's
 * client reached its server first (the 2026-07-28 client, too, is to be served in its own era).
 *
 *   fixture                  the fixture over HTTP, directly (default mode: each era's own
 *                            mechanism for asking the client);
 *   fixture-legacy-requests  the fixture with `--server-requests legacy` over HTTP, directly:
 *                            the baseline of the hub targets below;
 *   hub-stdio                `patchbay serve --no-auth` (built dist/) with that fixture as a
 *                            stdio upstream, first reached by a 2026-07-28 client (a
 *                            `server/discover`), at /mcp/dual-stdio;
 *   hub-remote               the same hub with that fixture (HTTP mode, a process of its own) as
 *                            a remote upstream `{ url }`, first reached by a 2026-07-28 client,
 *                            at /mcp/dual-remote;
 *   hub-stdio-2025-first     as hub-stdio, but first reached by a 2025 client (`initialize`,
 *                            `notifications/initialized`, DELETE), at /mcp/dual-stdio-2025-first;
 *   hub-remote-2025-first    as hub-remote, first reached by a 2025 client, at
 *                            /mcp/dual-remote-2025-first;
 *   hub-stdio-sandboxed      as hub-stdio, with the fixture in its sandbox (`"sandbox": true`,
 *                            bubblewrap; issue 25), at /mcp/dual-sandboxed; skipped, saying why,
 *                            where servers cannot be sandboxed;
 *   hub-profile              the same hub's aggregated endpoint of a profile holding only a stdio
 *                            fixture of its own (`dual-profile`, the same mode, first reached by
 *                            a 2026-07-28 client), names unprefixed, at /mcp/@dual (issue 15: a
 *                            profile speaks both eras, and reaches each member in the client's);
 *   relay                    the sets' client scenarios: the suite starts its test server and
 *                            runs test/fixtures/conformance-stdio-client.mjs, an SDK client on
 *                            stdio that spawns `patchbay relay --url <that server>` and talks MCP
 *                            through it, in the era the suite asks for.
 *
 *   node scripts/conformance-sets.mjs [--target NAME]... [--set REVISION]...
 *        [--allow-short TARGET:SET]... [--jobs N] [--out DIR] [--scenario NAME]... [--verbose]
 *   node scripts/conformance-sets.mjs --install-only
 *
 * Defaults: every target, both sets, 4 suite processes at a time (--jobs): one per server
 * target and set (a `--requirements` run), then one per client scenario. The fixtures and the
 * hub are started once (one hub for every hub target: each has its own server entry, so its own
 * era facts), and the hub targets' upstreams are primed before any run starts. --scenario
 * narrows every target to those scenarios (for debugging; the score is then of that subset).
 *
 * Counting rule: a scenario passes only when its checks.json has at least one SUCCESS and no
 * FAILURE; for the relay also the stdio client must succeed (the suite's "CLIENT EXITED WITH
 * ERROR" / "CLIENT TIMED OUT", which it reports only where the scenario expects the client to
 * succeed). The sets' `not_scored` scenarios are run and reported, never counted.
 *
 * Prints a table per target and set (`2026-07-28: 37/37`) and the failing checks briefly.
 * Exits 1 when a target scores below its set, except for pairs named with --allow-short
 * (`hub-stdio:2026-07-28`; `*` matches any target or set), and on any error. --out keeps the
 * suite's result directories there (default: temp dirs, removed). The suite's CLI needs
 * Node >= 22: installed once into .cache/node22 like scripts/conformance.mjs does.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

import { parse as parseYaml } from 'yaml';

import {
  cleanup,
  ensureNode22,
  findChecks,
  installSignalHandlers,
  makeTempDir,
  readChecks,
  ROOT,
  RunError,
  runSuiteCli,
  startHttpFixture,
  startHub,
  stop,
  verdict,
  wasInterrupted,
} from './lib/conformance-kit.mjs';
import { eraOf, MODERN_VERSION, primeLegacy, primeModern } from './lib/conformance-prime.mjs';

/** @typedef {import('./lib/conformance-kit.mjs').Check} Check */
/** @typedef {import('./lib/conformance-kit.mjs').Verdict} Verdict */
/** @typedef {{ required: string[], notScored: Map<string, string> }} Leg */
/** @typedef {{ target: string, set: string, results: Map<string, Verdict>, leg: Leg, seconds: number }} SetRun */

const LABEL = 'conformance-sets';
const SUITE_DIR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance-next');
const SUITE_CLI = join(SUITE_DIR, 'dist', 'index.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'dual-era-server.mjs');
const CLIENT_DRIVER = join(ROOT, 'test', 'fixtures', 'conformance-stdio-client.mjs');
const SETS = ['2025-11-25', '2026-07-28'];
/** The fixture's mode behind the hub (and for `fixture-legacy-requests`): see the header. */
const LEGACY_REQUESTS = ['--server-requests', 'legacy'];
/**
 * The hub targets: the hub's server entry behind each, how the hub reaches it, the fixture's
 * extra arguments, the era of the client that reaches it first (`modern`: a 2026-07-28
 * `server/discover`; `legacy`: a 2025 `initialize`), always at `/mcp/<server>`, and the endpoint
 * the suite runs against (default `/mcp/<server>`).
 * @typedef {{ server: string, upstream: 'stdio' | 'remote', args: string[], first: 'modern' | 'legacy', path?: string, sandbox?: boolean }} HubTarget
 * @type {Record<string, HubTarget>}
 */
const HUB_TARGETS = {
  'hub-stdio': { server: 'dual-stdio', upstream: 'stdio', args: LEGACY_REQUESTS, first: 'modern' },
  'hub-remote': {
    server: 'dual-remote',
    upstream: 'remote',
    args: LEGACY_REQUESTS,
    first: 'modern',
  },
  'hub-stdio-2025-first': {
    server: 'dual-stdio-2025-first',
    upstream: 'stdio',
    args: LEGACY_REQUESTS,
    first: 'legacy',
  },
  'hub-remote-2025-first': {
    server: 'dual-remote-2025-first',
    upstream: 'remote',
    args: LEGACY_REQUESTS,
    first: 'legacy',
  },
  // The fixture in its sandbox (issue 25, docs/sandbox.md): the sets pass as well from inside
  // bubblewrap. Run only where a sandbox can be had (the run says so otherwise).
  'hub-stdio-sandboxed': {
    server: 'dual-sandboxed',
    upstream: 'stdio',
    args: LEGACY_REQUESTS,
    first: 'modern',
    sandbox: true,
  },
  // The profile `dual` holds only this server, unprefixed (so the suite finds its tools by name).
  'hub-profile': {
    server: 'dual-profile',
    upstream: 'stdio',
    args: LEGACY_REQUESTS,
    first: 'modern',
    path: '@dual',
  },
};
const SERVER_TARGETS = ['fixture', 'fixture-legacy-requests', ...Object.keys(HUB_TARGETS)];
const TARGETS = [...SERVER_TARGETS, 'relay'];

/**
 * Whole run, Node 22 install excluded: what is not started by then is reported as not run.
 * About 5.5 CPU-minutes in all (76 suite processes, most of them a client scenario with its
 * stdio client and relay; the 14 server runs take ~35 CPU-seconds and, passing, under 12 s each):
 * ~3 min on two idle cores, ~6.5 min on a machine loaded 6x over. A hub target whose scenarios
 * time out holds one of the --jobs slots for up to SERVER_RUN_BUDGET_MS.
 */
const TOTAL_BUDGET_MS = 9 * 60_000;
/** One server scenario; passing ones take well under 5 s (server-sse-polling reads ~2 s). */
const SERVER_SCENARIO_TIMEOUT_MS = 12_000;
/** One `--requirements` server run (37 scenarios plus the not-scored ones). */
const SERVER_RUN_BUDGET_MS = 150_000;
/** One client scenario: the suite kills the stdio client after this. */
const CLIENT_SCENARIO_TIMEOUT_MS = 30_000;

const started = Date.now();
const remainingMs = () => started + TOTAL_BUDGET_MS - Date.now();

// ───────────────────────── arguments ─────────────────────────

function usage() {
  return (
    `usage: node scripts/conformance-sets.mjs [--target ${TARGETS.join('|')}]... [--set ${SETS.join('|')}]...\n` +
    '         [--allow-short TARGET:SET]... [--jobs N] [--out DIR] [--scenario NAME]... [--verbose]\n' +
    '       node scripts/conformance-sets.mjs --install-only   (only make sure .cache/node22 has the Node the suite needs)'
  );
}

function parseArgs() {
  const argv = process.argv.slice(2);
  const opts = {
    targets: /** @type {string[]} */ ([]),
    sets: /** @type {string[]} */ ([]),
    allowShort: /** @type {Array<[string, string]>} */ ([]),
    jobs: 4,
    out: /** @type {string | undefined} */ (undefined),
    verbose: false,
    installOnly: false,
    scenarios: /** @type {string[]} */ ([]),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = () => {
      const v = argv[++i];
      if (!v) throw new RunError(`${arg} needs a value`);
      return v;
    };
    const list = () =>
      value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    if (arg === '--target') opts.targets.push(...list());
    else if (arg === '--set') opts.sets.push(...list());
    else if (arg === '--allow-short') {
      for (const pair of list()) {
        const [target, set, ...rest] = pair.split(':');
        if (!target || !set || rest.length > 0)
          throw new RunError(`--allow-short takes TARGET:SET, got "${pair}"`);
        if (target !== '*' && !TARGETS.includes(target))
          throw new RunError(`--allow-short: unknown target "${target}" (${TARGETS.join(', ')})`);
        if (set !== '*' && !SETS.includes(set))
          throw new RunError(`--allow-short: unknown set "${set}" (${SETS.join(', ')})`);
        opts.allowShort.push([target, set]);
      }
    } else if (arg === '--jobs') opts.jobs = Math.max(1, Math.min(8, Number(value()) || 1));
    else if (arg === '--out') opts.out = value();
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--install-only') opts.installOnly = true;
    else if (arg === '--scenario') opts.scenarios.push(...list());
    else if (arg === '--help' || arg === '-h') {
      console.log(usage());
      process.exit(0);
    } else throw new RunError(`unknown argument: ${arg}\n${usage()}`);
  }
  for (const t of opts.targets)
    if (!TARGETS.includes(t)) throw new RunError(`unknown target "${t}" (${TARGETS.join(', ')})`);
  for (const s of opts.sets)
    if (!SETS.includes(s)) throw new RunError(`unknown set "${s}" (${SETS.join(', ')})`);
  if (opts.targets.length === 0) opts.targets = [...TARGETS];
  if (opts.sets.length === 0) opts.sets = [...SETS];
  opts.targets = TARGETS.filter((t) => opts.targets.includes(t));
  opts.sets = SETS.filter((s) => opts.sets.includes(s));
  return opts;
}

// ───────────────────────── requirement sets ─────────────────────────

/**
 * The scenarios a requirement set names for one leg, read from the suite's own YAML.
 * @param {string} set
 * @param {'server' | 'client'} leg
 * @returns {Leg}
 */
function loadLeg(set, leg, only = /** @type {string[]} */ ([])) {
  const file = join(SUITE_DIR, 'requirements', `${set}.yaml`);
  if (!existsSync(file))
    throw new RunError(
      `${relative(ROOT, file)} is missing: run \`npm install\` (devDependency @modelcontextprotocol/conformance-next)`,
    );
  const doc = /** @type {{ server?: unknown, client?: unknown, not_scored?: unknown }} */ (
    parseYaml(readFileSync(file, 'utf8')) ?? {}
  );
  const required = Array.isArray(doc[leg]) ? doc[leg].map(String) : [];
  /** @type {Map<string, string>} */
  const notScored = new Map();
  for (const entry of Array.isArray(doc.not_scored) ? doc.not_scored : []) {
    const e = /** @type {{ scenario?: unknown, leg?: unknown, reason?: unknown }} */ (entry);
    if (e.leg === leg && typeof e.scenario === 'string')
      notScored.set(e.scenario, String(e.reason ?? ''));
  }
  if (required.length === 0) throw new RunError(`${set}.yaml names no ${leg} scenarios`);
  if (only.length === 0) return { required, notScored };
  // --scenario: a subset, for debugging (the score is then of that subset).
  for (const name of [...notScored.keys()]) if (!only.includes(name)) notScored.delete(name);
  return { required: required.filter((s) => only.includes(s)), notScored };
}

// ───────────────────────── server targets ─────────────────────────

/**
 * Runs one requirement set's server scenarios against `url`: the whole set in one CLI process
 * (`--requirements`); if that process stalls or runs out of time, the scenarios it had not
 * started run one CLI process each (`--scenario X --spec-version SET --force`, the same wire)
 * while the budget lasts.
 * @param {string} node22
 * @param {string} url
 * @param {string} target
 * @param {string} set
 * @param {Leg} leg
 * @param {{ outRoot: string | undefined, verbose: boolean, subset: boolean }} opts
 * @returns {Promise<SetRun>}
 */
async function runServerSet(node22, url, target, set, leg, opts) {
  const t0 = Date.now();
  const outDir = resultDir(opts.outRoot, `${target}-${set}`);
  const expected = [...leg.required, ...leg.notScored.keys()];
  /** @type {Map<string, string>} why a scenario has no saved result */
  const problems = new Map();
  const budget = () => Math.min(SERVER_RUN_BUDGET_MS - (Date.now() - t0), remainingMs() - 10_000);

  /** @type {string[]} scenarios left to run one CLI process each */
  let singles = expected;
  if (!opts.subset) {
    const run = await runSuiteCli(
      node22,
      SUITE_CLI,
      [
        'server',
        '--url',
        url,
        '--requirements',
        set,
        '--timeout',
        String(SERVER_SCENARIO_TIMEOUT_MS),
        '-o',
        outDir,
      ],
      { timeoutMs: budget(), stallMs: SERVER_SCENARIO_TIMEOUT_MS + 15_000, verbose: opts.verbose },
    );
    if (run.started.length === 0) {
      throw new RunError(
        `the ${target} ${set} run did not start any scenario. Output:\n${(run.stdout + run.stderr).slice(-3000)}`,
      );
    }
    const current = run.started.at(-1);
    if (run.killed && current) problems.set(current, run.killed);
    for (const m of (run.stdout + run.stderr).matchAll(/Failed to run scenario (\S+?):?\s(.*)/g)) {
      if (m[1]) problems.set(m[1], `the scenario threw: ${m[2] ?? ''}`.trim());
    }
    singles = run.killed ? expected.filter((s) => !run.started.includes(s)) : [];
  }
  for (const scenario of singles) {
    const left = budget();
    if (left < 5_000) {
      problems.set(scenario, 'not run: the time budget was used up');
      continue;
    }
    const single = await runSuiteCli(
      node22,
      SUITE_CLI,
      [
        'server',
        '--url',
        url,
        '--scenario',
        scenario,
        '--spec-version',
        set,
        '--force',
        '--timeout',
        String(SERVER_SCENARIO_TIMEOUT_MS),
        '-o',
        outDir,
      ],
      { timeoutMs: Math.min(left, SERVER_SCENARIO_TIMEOUT_MS + 15_000), verbose: opts.verbose },
    );
    if (single.killed) problems.set(scenario, single.killed);
  }

  /** @type {Map<string, Check[]>} */
  const saved = new Map();
  for (const file of findChecks(outDir)) {
    const name = relative(outDir, dirname(file)).replace(/\\/g, '/');
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(name);
    if (match?.[1]) saved.set(match[1], readChecks(file));
  }
  /** @type {Map<string, Verdict>} */
  const results = new Map();
  for (const scenario of expected) {
    const checks = saved.get(scenario);
    results.set(
      scenario,
      checks
        ? verdict(checks)
        : verdict(null, problems.get(scenario) ?? 'the suite saved no result for this scenario'),
    );
  }
  return { target, set, results, leg, seconds: (Date.now() - t0) / 1000 };
}

// ───────────────────────── relay (client scenarios) ─────────────────────────

/**
 * Runs one client scenario in its own CLI process and output dir (`client --scenario X
 * --spec-version SET --force`: the wire `--requirements` would use, with our own concurrency
 * instead of the suite's all-at-once). It passes only when the checks pass and the stdio client
 * succeeded where the scenario expects it to.
 * @param {string} node22
 * @param {string} set
 * @param {string} scenario
 * @param {{ outRoot: string | undefined, verbose: boolean }} opts
 * @returns {Promise<Verdict>}
 */
async function runClientScenario(node22, set, scenario, opts) {
  const left = remainingMs() - 10_000;
  if (left < 10_000) return verdict(null, 'not run: the time budget was used up');
  const outDir = resultDir(opts.outRoot, `relay-${set}-${scenario.replace(/\//g, '_')}`);
  // The suite splits --command on spaces and runs it through a shell: quote the paths.
  const command = `"${process.execPath}" "${CLIENT_DRIVER}"`;
  const run = await runSuiteCli(
    node22,
    SUITE_CLI,
    [
      'client',
      '--command',
      command,
      '--scenario',
      scenario,
      '--spec-version',
      set,
      '--force',
      '--timeout',
      String(CLIENT_SCENARIO_TIMEOUT_MS),
      '-o',
      outDir,
    ],
    { timeoutMs: Math.min(left, CLIENT_SCENARIO_TIMEOUT_MS + 30_000), verbose: opts.verbose },
  );
  const files = findChecks(outDir);
  const output = run.stdout + run.stderr;
  /** @type {string | undefined} */
  let error;
  if (run.killed) error = `the suite's CLI was ${run.killed}`;
  else if (/CLIENT TIMED OUT/.test(output))
    error = `the stdio client timed out (${CLIENT_SCENARIO_TIMEOUT_MS / 1000} s)`;
  else if (/CLIENT EXITED WITH ERROR/.test(output))
    error = `the stdio client failed: ${driverFailure(files[0])}`;
  else if (files.length === 0)
    error = `no checks saved: ${output.trim().split('\n').slice(-3).join(' / ')}`;
  return verdict(files[0] ? readChecks(files[0]) : null, error);
}

/**
 * The stdio client's own last words: its `failed:` line from the saved stderr.txt.
 * @param {string | undefined} checksFile
 */
function driverFailure(checksFile) {
  if (!checksFile) return 'no output saved';
  const file = join(dirname(checksFile), 'stderr.txt');
  if (!existsSync(file)) return 'no stderr saved';
  const lines = readFileSync(file, 'utf8').split('\n');
  const failed = lines.filter((l) => /\] failed: /.test(l)).at(-1);
  return (failed ?? lines.filter(Boolean).at(-1) ?? '(empty stderr)').trim().slice(0, 300);
}

// ───────────────────────── report ─────────────────────────

/**
 * @param {string | undefined} outRoot
 * @param {string} name
 */
function resultDir(outRoot, name) {
  if (!outRoot) return makeTempDir(`conformance-sets-${name.replace(/[^\w.-]/g, '_')}-`);
  const dir = join(outRoot, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** @param {SetRun} run */
function score(run) {
  const passed = run.leg.required.filter((s) => run.results.get(s)?.ok).length;
  return { passed, total: run.leg.required.length };
}

/** @param {Verdict} v */
function describe(v) {
  /** @type {string[]} */
  const lines = [];
  if (v.error) lines.push(`      ${v.error}`);
  for (const check of v.failures.slice(0, 4)) {
    const msg = (check.errorMessage ?? check.description ?? check.name ?? '').replace(/\s+/g, ' ');
    lines.push(`      - [${check.id}] ${msg.slice(0, 240)}`);
    const answered = toolError(check);
    if (answered) lines.push(`        the tool answered with an error: ${answered.slice(0, 240)}`);
  }
  if (v.failures.length > 4) lines.push(`      … and ${v.failures.length - 4} more failing checks`);
  return lines.join('\n');
}

/**
 * The text of the tool result a failing check saved, when the tool answered with an error
 * (e.g. the fixture's "Sampling failed: …" when the server could not ask the client).
 * @param {Check} check
 * @returns {string | undefined}
 */
function toolError(check) {
  const result = /** @type {{ result?: { isError?: unknown, content?: unknown } } | undefined} */ (
    check.details
  )?.result;
  if (result?.isError !== true || !Array.isArray(result.content)) return undefined;
  const text = result.content
    .map((c) => (typeof c?.text === 'string' ? c.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}

/**
 * @param {SetRun[]} runs
 * @param {Array<[string, string]>} allowShort
 * @returns {number} exit code
 */
function report(runs, allowShort) {
  const allowed = (/** @type {string} */ t, /** @type {string} */ s) =>
    allowShort.some(([at, as]) => (at === '*' || at === t) && (as === '*' || as === s));
  let short = 0;
  console.log('');
  for (const run of runs) {
    const { passed, total } = score(run);
    const notScored = [...run.leg.notScored.keys()];
    const nsPassed = notScored.filter((s) => run.results.get(s)?.ok).length;
    const tag =
      passed === total ? '' : allowed(run.target, run.set) ? '  (short, allowed)' : '  SHORT';
    if (passed < total && !allowed(run.target, run.set)) short++;
    console.log(
      `== ${run.target.padEnd(23)} ${run.set}: ${passed}/${total}${tag}   (not scored: ${nsPassed}/${notScored.length} pass; ${run.seconds.toFixed(1)} s)`,
    );
    for (const scenario of run.leg.required) {
      const v = run.results.get(scenario);
      if (v && !v.ok) console.log(`  ✗ ${scenario}\n${describe(v)}`);
    }
    const nsFailing = notScored.filter((s) => !run.results.get(s)?.ok);
    if (nsFailing.length > 0) {
      console.log(
        `  not scored, failing: ${nsFailing.map((s) => `${s} (${run.leg.notScored.get(s)})`).join(', ')}`,
      );
    }
  }
  console.log('');
  const summary = runs.map((r) => {
    const { passed, total } = score(r);
    return `${r.target} ${r.set} ${passed}/${total}`;
  });
  console.log(`${LABEL}: ${summary.join(' · ')}`);
  if (short > 0) console.log(`${LABEL}: ${short} target/set pair(s) below their set`);
  return short > 0 ? 1 : 0;
}

// ───────────────────────── main ─────────────────────────

async function main() {
  const opts = parseArgs();
  const node22 = ensureNode22({ label: LABEL });
  if (opts.installOnly) {
    console.error(`${LABEL}: Node 22 for the suite: ${relative(ROOT, node22) || node22}`);
    return 0;
  }
  if (!existsSync(SUITE_CLI)) {
    throw new RunError(
      `${relative(ROOT, SUITE_CLI)} is missing: run \`npm install\` (devDependency @modelcontextprotocol/conformance-next)`,
    );
  }
  const needsBuild = opts.targets.some((t) => !t.startsWith('fixture'));
  if (needsBuild && !existsSync(join(ROOT, 'dist', 'main', 'cli', 'main.js')))
    throw new RunError('the CLI is not built (dist/main/cli/main.js): run `npm run build` first');
  if (opts.targets.includes('hub-stdio-sandboxed')) {
    /** @type {{ sandboxSupport(): Promise<{ available: boolean, detail: string }> }} */
    const { sandboxSupport } = await import(pathToFileURL(join(ROOT, 'dist', 'main', 'core', 'sandbox', 'sandbox-support.js')).href);
    const support = await sandboxSupport();
    if (!support.available) {
      console.error(`${LABEL}: hub-stdio-sandboxed not run: servers cannot be sandboxed here (${support.detail})`);
      opts.targets = opts.targets.filter((t) => t !== 'hub-stdio-sandboxed');
    }
  }
  const outRoot = opts.out ? resolve(opts.out) : undefined;
  if (outRoot) mkdirSync(outRoot, { recursive: true });
  const subset = opts.scenarios.length > 0;

  // The systems under test. The direct targets and each remote upstream of the hub get a
  // fixture process each: runs go in parallel, and a `subscriptions/listen` trigger reaches
  // every stream open on its process.
  /** @type {Map<string, string>} target → MCP URL */
  const urls = new Map();
  if (opts.targets.includes('fixture')) urls.set('fixture', (await startHttpFixture(FIXTURE)).url);
  if (opts.targets.includes('fixture-legacy-requests')) {
    const direct = await startHttpFixture(FIXTURE, LEGACY_REQUESTS);
    urls.set('fixture-legacy-requests', direct.url);
  }
  /** @type {Awaited<ReturnType<typeof startHub>> | undefined} */
  let hub;
  /** @type {Array<[string, HubTarget]>} */
  const hubTargets = opts.targets.flatMap((t) => {
    const spec = HUB_TARGETS[t];
    return spec ? [/** @type {[string, HubTarget]} */ ([t, spec])] : [];
  });
  if (hubTargets.length > 0) {
    /** @type {Record<string, unknown>} */
    const mcpServers = {};
    for (const [, { server, upstream, args, sandbox }] of hubTargets) {
      mcpServers[server] =
        upstream === 'stdio'
          ? { command: process.execPath, args: [FIXTURE, ...args], ...(sandbox ? { sandbox: true } : {}) }
          : { url: (await startHttpFixture(FIXTURE, args)).url };
    }
    const profiled = opts.targets.includes('hub-profile');
    hub = await startHub({
      mcpServers,
      ...(profiled ? { profiles: { dual: { servers: ['dual-profile'], prefix: false } } } : {}),
    });
    const base = hub.base;
    for (const [target, { server, path }] of hubTargets) {
      urls.set(target, `${base}/mcp/${path ?? server}`);
    }
    // Each upstream is first reached by a client of its target's era, before any run starts:
    // which era's client comes first is then never a race between the two sets' runs.
    await Promise.all(
      hubTargets.map(async ([target, { server, first }]) => {
        const url = `${base}/mcp/${server}`;
        const how =
          first === 'modern'
            ? `a ${MODERN_VERSION} client first (server/discover: supportedVersions ${JSON.stringify((await primeModern(url)).supportedVersions)})`
            : `a 2025 client first (initialize at ${await primeLegacy(url)}, DELETE)`;
        console.error(
          `${LABEL}: ${target}: ${server} primed with ${how}; the hub's era for it: ${await eraOf(base, server)}`,
        );
      }),
    );
  }
  for (const [target, url] of urls) console.error(`${LABEL}: ${target} at ${url}`);

  // One queue, `jobs` at a time: the server runs first (one CLI process per target and set,
  // mostly waiting on the network), then the client scenarios one CLI process each.
  /** @type {SetRun[]} */
  const runs = [];
  /** @type {Array<() => Promise<void>>} */
  const tasks = [];
  for (const target of opts.targets.filter((t) => SERVER_TARGETS.includes(t))) {
    for (const set of opts.sets) {
      const leg = loadLeg(set, 'server', opts.scenarios);
      if (leg.required.length + leg.notScored.size === 0) continue;
      const url = /** @type {string} */ (urls.get(target));
      const slot = runs.push({ target, set, leg, results: new Map(), seconds: 0 }) - 1;
      tasks.push(async () => {
        runs[slot] = await runServerSet(node22, url, target, set, leg, {
          outRoot,
          verbose: opts.verbose,
          subset,
        });
        const { passed, total } = score(/** @type {SetRun} */ (runs[slot]));
        console.error(
          `${LABEL}: ${target} ${set}: ${passed}/${total} (${runs[slot]?.seconds.toFixed(1)} s)`,
        );
      });
    }
  }
  if (opts.targets.includes('relay')) {
    for (const set of opts.sets) {
      const leg = loadLeg(set, 'client', opts.scenarios);
      const run = { target: 'relay', set, leg, results: new Map(), seconds: 0 };
      runs.push(run);
      let first = 0;
      for (const scenario of [...leg.required, ...leg.notScored.keys()]) {
        tasks.push(async () => {
          const t0 = Date.now();
          first ||= t0;
          const v = await runClientScenario(node22, set, scenario, {
            outRoot,
            verbose: opts.verbose,
          });
          run.results.set(scenario, v);
          run.seconds = (Date.now() - first) / 1000;
          // A not-scored scenario (an extension the set lists but does not count) says so.
          const verdictWord = v.ok
            ? 'pass'
            : leg.notScored.has(scenario)
              ? 'fail (not scored)'
              : 'FAIL';
          console.error(
            `  ${verdictWord}  relay ${set} ${scenario} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
          );
        });
      }
    }
  }
  console.error(`${LABEL}: ${tasks.length} runs, ${opts.jobs} at a time`);
  const worker = async () => {
    for (let task = tasks.shift(); task !== undefined; task = tasks.shift()) await task();
  };
  await Promise.all(Array.from({ length: opts.jobs }, worker));

  if (hub) {
    const { orphans } = await stop(hub.child);
    if (orphans) console.error(`${LABEL}: note: the hub left processes in its group (killed)`);
    if (hub.secretFindings.length > 0) {
      console.log(`\nThe hub's secret checks flagged the suites' traffic (false positives):\n${hub.secretFindings.slice(0, 10).join('\n')}`);
      return 1;
    }
  }
  return report(runs, opts.allowShort);
}

installSignalHandlers(LABEL);
let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (wasInterrupted()) exitCode = 130;
  else if (error instanceof RunError) console.error(`${LABEL}: ${error.message}`);
  else console.error(`${LABEL}: unexpected error:`, error);
  if (!wasInterrupted()) exitCode = 1;
} finally {
  await cleanup();
}
if (!wasInterrupted()) process.exit(exitCode);
