/**
 * `patchbay relay` runs from the relay-only bundle (dist/main/cli/relay, scripts/build-electron.mjs)
 * when it is current: bin/patchbay.js then answers exactly as the compiled CLI does. (Its relay
 * starting a hub — bin/patchbay.js found relative to itself — is what test/relay/relay-hub.test.ts
 * does through bin/patchbay.js, which then runs the bundle.) Real processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';

const BUNDLE = path.join(REPO_ROOT, 'dist', 'main', 'cli', 'relay', 'patchbay-relay.mjs');
const BIN = path.join(REPO_ROOT, 'bin', 'patchbay.js');
const MAIN = path.join(REPO_ROOT, 'dist', 'main', 'cli', 'main.js');

/** Whether the launcher would run the bundle: it exists and is at least as new as the compiled CLI. */
function bundleIsCurrent(): boolean {
  return existsSync(BUNDLE) && existsSync(MAIN) && statSync(BUNDLE).mtimeMs >= statSync(MAIN).mtimeMs;
}

/**
 * The compiled CLI current with src/ (ensureBuilt), then the bundle current with it: rebuilt by
 * scripts/build-electron.mjs (a few seconds) when it is missing or older, e.g. after a tsc-only
 * rebuild. `npm test` builds both before the tests, so there this rebuilds nothing.
 */
function ensureBundle(): void {
  ensureBuilt();
  if (bundleIsCurrent()) return;
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-electron.mjs')], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 170_000 });
  if (build.status !== 0 || !bundleIsCurrent()) {
    throw new Error(`scripts/build-electron.mjs did not leave a current ${path.relative(REPO_ROOT, BUNDLE)} (${build.error?.message ?? `exit ${build.status ?? build.signal}`}):\n${build.stdout}${build.stderr}`);
  }
}

function run(entry: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, PATCHBAY_HOME: path.join(REPO_ROOT, 'no-such-home-for-this-test') } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the relay-only bundle', () => {
  beforeAll(() => ensureBundle(), 180_000);

  it('answers relay --help, a usage error and a missing server exactly as the compiled modules do', () => {
    for (const args of [['relay', '--help'], ['relay', '--bogus'], ['relay', 'echo', '--no-start'], ['relay', 'bad id!']]) {
      expect(run(BIN, args), args.join(' ')).toEqual(run(MAIN, args));
    }
  });

  it('is what bin/patchbay.js loads for relay: one file of the relay, none of the other commands', () => {
    // The launcher imports the bundle and calls its runRelayProcess; the bundle holds no other
    // command (their modules would be loaded at start).
    const text = readFileSync(BUNDLE, 'utf8');
    expect(text).toMatch(/export \{[^}]*runRelayProcess/);
    for (const other of ['src/main/cli/commands/serve.ts', 'src/main/cli/commands/export.ts', 'src/main/cli/run-cli.ts']) expect(text).not.toContain(`// ${other}`);
    expect(readFileSync(BIN, 'utf8')).toContain('dist/main/cli/relay/patchbay-relay.mjs');
  });
});
