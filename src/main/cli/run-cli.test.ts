import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '../core/index.js';
import type { CliIo } from './command.js';
import { runCli } from './run-cli.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pb-cli-'));
  setLogSink(() => undefined);
});
afterEach(async () => {
  setLogSink(undefined);
  await rm(home, { recursive: true, force: true });
});

/** Runs the CLI in-process against real files, capturing its output. */
async function run(
  args: string[],
  stdin = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { PATCHBAY_HOME: home },
    platform: process.platform,
    homedir: home,
    cwd: home,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('runCli', () => {
  it('shows help on stdout with exit 0 in all three forms', async () => {
    for (const args of [
      ['--help'],
      ['help', 'secrets', 'set'],
      ['secrets', 'set', '--help'],
      ['secrets', '--help'],
      ['help', 'config'],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toContain('Usage:');
    }
  });

  it.each([
    [['nope'], "unknown command 'nope'"],
    [['serv'], "did you mean 'serve'?"],
    [[], 'missing command'],
    [['--bogus'], "unknown option '--bogus'"],
    [['secrets'], 'missing subcommand'],
    [['secrets', 'frob'], "unknown 'secrets' subcommand 'frob'"],
    [['secrets', 'set'], 'missing NAME'],
    [['secrets', 'set', 'bad name'], 'invalid NAME'],
    [['secrets', 'list', 'extra'], 'takes no arguments'],
    [['config', 'check', '--config'], "option '--config' needs a value"],
    [['config', 'check', '--config='], '--config must not be empty'],
    [['serve', '--port', 'abc'], '--port must be a whole number'],
    [['serve', '--no-auth', '--host', '0.0.0.0'], '--no-auth is only allowed on a loopback host'],
    [['help', 'nope'], "unknown command 'nope'"],
  ])('exits 2 with a message and a --help hint for %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/Run 'patchbay( [a-z ]+)? --help' for usage\./);
  });

  it('never echoes what might be a secret in a usage error', async () => {
    for (const args of [
      ['secrets', 'set', 'NAME', 'sk-live-123'],
      ['secrets', 'set', 'NAME', '--value=sk-live-123'],
      ['sk-live-123 with spaces'],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stdout + result.stderr).not.toContain('sk-live-123');
    }
  });

  it('stores a piped secret and lists its name only', async () => {
    expect((await run(['secrets', 'set', 'TOKEN'], 'tok-value-1\n')).code).toBe(0);
    const stored = JSON.parse(await readFile(path.join(home, 'secrets.json'), 'utf8'));
    expect(stored).toEqual({ version: 1, secrets: { TOKEN: 'tok-value-1' } });
    const list = await run(['secrets', 'list']);
    expect(list).toMatchObject({ code: 0, stdout: 'TOKEN\n' });
  });

  it('strips one trailing newline only, and refuses an empty value', async () => {
    await run(['secrets', 'set', 'MULTI'], 'line1\nline2\n\n');
    expect(JSON.parse(await readFile(path.join(home, 'secrets.json'), 'utf8')).secrets.MULTI).toBe(
      'line1\nline2\n',
    );
    const empty = await run(['secrets', 'set', 'EMPTY'], '\n');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('refusing to store an empty value');
  });

  it('deletes a secret, exiting 1 when there is none', async () => {
    await run(['secrets', 'set', 'GONE'], 'value');
    expect((await run(['secrets', 'delete', 'GONE'])).code).toBe(0);
    const again = await run(['secrets', 'delete', 'GONE']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no secret named 'GONE'");
  });

  it('honours --data-dir over PATCHBAY_HOME', async () => {
    const other = path.join(home, 'other');
    expect((await run(['config', 'path', '--data-dir', other])).stdout).toBe(
      `${path.join(other, 'config.json')}\n`,
    );
    expect((await run(['config', 'path'])).stdout).toBe(`${path.join(home, 'config.json')}\n`);
  });

  it('checks a config: OK, problems with JSON paths, and missing-secret warnings', async () => {
    const file = path.join(home, 'config.json');
    expect((await run(['config', 'check'])).stdout).toContain('no config file yet');

    await writeFile(
      file,
      JSON.stringify({ mcpServers: { gh: { command: 'npx', env: { T: '${secret:GH}' } } } }),
    );
    const ok = await run(['config', 'check']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('OK, 1 server (gh)');
    expect(ok.stdout).toContain("warning: $.mcpServers.gh.env.T: secret 'GH' is not set");

    await writeFile(
      file,
      JSON.stringify({ mcpServers: { gh: { command: 1 }, x: { url: 'https://x', command: 'y' } } }),
    );
    const bad = await run(['config', 'check', '--config', 'config.json']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('2 problems');
    expect(bad.stdout).toContain('  $.mcpServers.gh.command: must be a string, got a number');
    expect(bad.stdout).toContain('  $.mcpServers.x: has both "command"');
  });

});
