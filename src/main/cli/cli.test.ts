/**
 * The real thing: the compiled CLI run as a child process (`node bin/patchbay.js …`), the way
 * users and MCP clients run it, against a temp PATCHBAY_HOME.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../../test/helpers/built.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repo, 'bin', 'patchbay.js');
let home: string;

beforeAll(async () => {
  ensureBuilt();
  home = await mkdtemp(path.join(tmpdir(), 'pb-cli-e2e-'));
}, 180_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function patchbay(args: string[], input?: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env: { ...process.env, PATCHBAY_HOME: home, PATCHBAY_LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('patchbay (built CLI)', () => {
  it('--help lists every command and exits 0', async () => {
    const result = await patchbay(['--help']);
    expect(result.code).toBe(0);
    for (const command of [
      'serve',
      'secrets set NAME',
      'secrets list',
      'secrets delete NAME',
      'config path',
      'config check',
    ]) {
      expect(result.stdout).toContain(`  ${command}`);
    }
    for (const flag of [
      '--config FILE',
      '--port N',
      '--host H',
      '--no-auth',
      '--data-dir DIR',
      '--version',
    ])
      expect(result.stdout).toContain(flag);
  });

  it('serve --help documents every flag without starting anything', async () => {
    const result = await patchbay(['serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'patchbay serve [--config FILE] [--port N] [--host H] [--no-auth] [--data-dir DIR]',
    );
    expect(result.stdout).toContain('Examples:');
    expect(await readdir(home)).toEqual([]);
  });

  it('stores a secret piped on stdin; list shows the name, never the value', async () => {
    const value = 'ghp_valueThatMustNotLeak_42';
    const set = await patchbay(['secrets', 'set', 'GITHUB_TOKEN'], `${value}\n`);
    expect(set.code).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(value);
    if (process.platform !== 'win32')
      expect((await stat(path.join(home, 'secrets.json'))).mode & 0o777).toBe(0o600);

    const list = await patchbay(['secrets', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('GITHUB_TOKEN\n');
    expect(list.stdout + list.stderr).not.toContain(value);
  });

  it('refuses a value passed as an extra argument, without echoing or storing it', async () => {
    const result = await patchbay(['secrets', 'set', 'ARGV_SECRET', 'sk-from-argv-999']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the value is read from stdin');
    expect(result.stderr).toContain("Run 'patchbay secrets set --help'");
    expect(result.stdout + result.stderr).not.toContain('sk-from-argv-999');
    expect((await patchbay(['secrets', 'list'])).stdout).not.toContain('ARGV_SECRET');
  });

  it('config check prints each problem with its JSON path and exits 1', async () => {
    const file = path.join(home, 'broken.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 3] },
          'my-api': { url: 'https://x.example/mcp', headers: { 'X-Key': 5 } },
        },
      }),
    );
    const result = await patchbay(['config', 'check', '--config', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${file}: 2 problems`);
    expect(result.stdout).toContain('  $.mcpServers.fs.args[1]: must be a string, got a number');
    expect(result.stdout).toContain(
      '  $.mcpServers["my-api"].headers["X-Key"]: headers values must be strings',
    );
  });

  it('config check reports malformed JSON with line and column', async () => {
    const file = path.join(home, 'syntax.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "fs": { "command": "npx" },\n  }\n}\n');
    const result = await patchbay(['config', 'check', '--config', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('$: invalid JSON at line 3, column 31: trailing comma');
  });

  it('exits 2 on an unknown command, with a hint to --help', async () => {
    const result = await patchbay(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.stderr).toContain("Run 'patchbay --help' for usage.");
  });
});
