/**
 * `patchbay export <client> --profile NAME`: one entry per profile, for stdio clients (a relay
 * entry) and URL clients (/mcp/@NAME); plain exports leave profile entries alone until the
 * profile is removed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/cli/command.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

async function setup(): Promise<{ home: string; dataDir: string; run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> }> {
  const root = await tempDir('patchbay-profile-export-');
  const home = path.join(root, 'home');
  const dataDir = path.join(root, 'data');
  await mkdir(home, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  const config = {
    mcpServers: { fs: { command: 'fs-server' }, gh: { command: 'gh-server' }, web: { url: 'https://example.com/mcp' } },
    profiles: { work: { servers: ['fs', 'gh'] } },
    hub: { port: 0 },
  };
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config));
  const run = async (...args: string[]) => {
    const out = { stdout: '', stderr: '' };
    const io: CliIo = {
      stdin: Readable.from([]),
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      env: { PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1', PATH: path.dirname(process.execPath) },
      platform: 'linux',
      homedir: home,
      cwd: root,
    };
    return { code: await runCli(args, io), ...out };
  };
  return { home, dataDir, run };
}

describe('export with --profile', () => {
  it('writes one entry per profile in place of its members, and plain exports keep it until the profile goes', async () => {
    const { home, dataDir, run } = await setup();
    const file = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const names = async (): Promise<string[]> => Object.keys(JSON.parse(await readFile(file, 'utf8')).mcpServers).sort();

    expect((await run('export', 'claude-desktop')).code).toBe(0);
    expect(await names()).toEqual(['fs', 'gh', 'web']);
    const profile = await run('export', 'claude-desktop', '--profile', 'work');
    expect(profile.code, profile.stderr).toBe(0);
    expect(await names()).toEqual(['patchbay-work', 'web']);
    const entry = JSON.parse(await readFile(file, 'utf8')).mcpServers['patchbay-work'];
    expect(entry.args.slice(-2)).toEqual(['relay', '@work']);

    // A plain export adds the servers back and leaves the profile's entry alone.
    expect((await run('export', 'claude-desktop')).code).toBe(0);
    expect(await names()).toEqual(['fs', 'gh', 'patchbay-work', 'web']);
    // Once the profile is gone, a plain export drops its entry.
    const config = JSON.parse(await readFile(path.join(dataDir, 'config.json'), 'utf8'));
    delete config.profiles;
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config));
    const after = await run('export', 'claude-desktop');
    expect(after.stderr).toContain("remove    patchbay-work → @work: profile 'work' is no longer in Patchbay");
    expect(await names()).toEqual(['fs', 'gh', 'web']);
  });

  it('gives URL clients the profile endpoint, exports the default profile, and refuses unknown profiles', async () => {
    const { run } = await setup();
    const out = await run('export', 'cursor', '--profile', 'work,default', '--file', 'mcp.json', '--dry-run');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/"url": "http:\/\/127\.0\.0\.1:\d+\/mcp\/@work"/);
    expect(out.stdout).toMatch(/"url": "http:\/\/127\.0\.0\.1:\d+\/mcp\/@default"/);
    const unknown = await run('export', 'cursor', '--profile', 'nope', '--file', 'mcp.json');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("there is no profile 'nope' in Patchbay's config (profiles: default, work)");
    expect((await run('export', 'cursor', '--profile', 'work', '--servers', 'fs')).code).toBe(2);
  });
});
