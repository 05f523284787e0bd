/**
 * `patchbay profiles …` against a running hub (found through the data dir's hub.json): list,
 * create, show with token costs and client-limit warnings, toggles, membership, approve.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/cli/command.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';
import { alphaServer, betaServer } from './profile-harness.js';

async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    env: { PATCHBAY_HOME: dataDir },
    platform: 'linux',
    homedir: dataDir,
    cwd: dataDir,
  };
  return { code: await runCli(args, io), ...out };
}

describe('patchbay profiles', () => {
  it('lists, creates, shows costs and warnings, toggles, changes members and approves', async () => {
    const hub = await startHub({
      // beta with 12 more tools: the default profile then has more than Cursor's 40.
      servers: { everything: everythingServer(), alpha: alphaServer(), beta: betaServer({ env: { MINI_GENERATED_TOOLS: '12' } }) },
      config: { profiles: { work: { servers: ['alpha', 'beta'], description: 'Day job' } } },
    });
    const dir = hub.dataDir;

    const list = await cli(dir, 'profiles', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^PROFILE +SERVERS +SESSIONS +TOOLS +URL\n/);
    expect(list.stdout).toContain(`default  everything,alpha,beta  0         -      ${hub.url}/mcp\n`);
    expect(list.stdout).toContain(`${hub.url}/mcp/@work`);

    const created = await cli(dir, 'profiles', 'create', 'notes', '--servers', 'alpha', '--no-prefix');
    expect(created.stderr).toBe(`patchbay: created; profile 'notes' is at ${hub.url}/mcp/@notes\n`);
    const notes = await cli(dir, 'profiles', 'show', 'notes');
    expect(notes.code, notes.stderr).toBe(0);
    expect(notes.stdout).toMatch(/^alpha +up +7\/7 +\d+/m);
    expect(notes.stdout).toMatch(/^add +alpha +on +pinned +\d+$/m);
    expect(notes.stdout).toMatch(/^totals: 7 tools exposed, \d+ tokens of tool definitions \(o200k_base\)$/m);

    const all = JSON.parse((await cli(dir, 'profiles', 'show', 'default', '--json')).stdout) as { totals: { tools: number; tokens: number }; warnings: Array<{ client: string }> };
    expect(all.totals.tools).toBeGreaterThan(40);
    expect(all.warnings.map((w) => w.client)).toContain('Cursor');
    expect((await cli(dir, 'profiles', 'show', 'default')).stdout).toMatch(/^ {2}! Cursor: \d+ tools > 40: /m);

    expect((await cli(dir, 'profiles', 'disable', 'work', 'beta', 'lookup.item')).code).toBe(0);
    const work = await cli(dir, 'profiles', 'show', 'work');
    expect(work.stdout).toMatch(/^beta__lookup_item_[a-z2-7]{6} +beta +lookup\.item +off +- +\d+$/m);
    expect(work.stdout).toMatch(/^beta +up +17\/18 /m);
    expect((await cli(dir, 'profiles', 'enable', 'work', 'beta', 'lookup.item')).code).toBe(0);

    expect((await cli(dir, 'profiles', 'add', 'work', 'everything')).stderr).toContain("added 'everything'");
    expect(hub.engine.config.get().profiles?.work?.servers).toEqual({ alpha: {}, beta: {}, everything: {} });
    expect((await cli(dir, 'profiles', 'remove', 'work', 'everything')).code).toBe(0);

    const nothing = await cli(dir, 'profiles', 'approve', 'work');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("No changed tools to approve in profile 'work'.");
    const wrong = await cli(dir, 'profiles', 'set', 'work', '--hold', 'sometimes');
    expect(wrong.code).toBe(2);
    expect((await cli(dir, 'profiles', 'delete', 'notes')).stderr).toContain("deleted profile 'notes'");
  });

  it('turns on-demand tools on and off, pins and unpins, and decides per client (issue 26)', async () => {
    const hub = await startHub({ servers: { alpha: alphaServer(), beta: betaServer() }, config: { profiles: { work: { servers: ['alpha', 'beta'] } } } });
    const dir = hub.dataDir;
    const on = await cli(dir, 'profiles', 'update', 'work', '--on-demand', '--pin', 'alpha__echo', '--pin', 'beta__who*', '--client', 'cursor=off');
    expect(on.code, on.stderr).toBe(0);
    expect(on.stderr).toBe(`patchbay: updated; profile 'work' is at ${hub.url}/mcp/@work\n`);
    expect(hub.engine.config.get().profiles?.work?.onDemand).toEqual({ pinned: ['alpha__echo', 'beta__who*'], clients: { cursor: false } });
    const shown = await cli(dir, 'profiles', 'show', 'work');
    expect(shown.stdout).toMatch(/^on-demand tools: on \(cursor off\); with them 5 tools \(pinned alpha__echo, beta__who\* \+ 3 meta-tools\), \d+ tokens$/m);
    const view = JSON.parse((await cli(dir, 'profiles', 'show', 'work', '--json')).stdout) as { members: Array<{ tools: Array<{ exposedName: string; onDemandPinned?: boolean; onDemandPinnedBy?: string }> }> };
    const tool = (name: string) => view.members.flatMap((m) => m.tools).find((t) => t.exposedName === name);
    expect(tool('alpha__echo')).toMatchObject({ onDemandPinned: true });
    expect(tool('alpha__echo')?.onDemandPinnedBy).toBeUndefined();
    expect(tool('beta__whoami')).toMatchObject({ onDemandPinned: true, onDemandPinnedBy: 'beta__who*' });
    expect(tool('alpha__add')?.onDemandPinned).toBeUndefined();

    // A tool a pattern pins cannot be unpinned alone: the answer names the pattern.
    const byGlob = await cli(dir, 'profiles', 'set', 'work', '--unpin', 'beta__whoami');
    expect(byGlob.code).toBe(1);
    expect(byGlob.stderr).toContain('pinned by the pattern "beta__who*"');
    // set is the same command; back to every tool, nothing pinned, cursor following the profile: no block left.
    const off = await cli(dir, 'profiles', 'set', 'work', '--all-tools', '--unpin', 'alpha__echo', '--unpin', 'beta__who*', '--client', 'cursor=default');
    expect(off.code, off.stderr).toBe(0);
    expect(hub.engine.config.get().profiles?.work).toEqual({ servers: ['alpha', 'beta'] });
    expect((await cli(dir, 'profiles', 'show', 'work')).stdout).toMatch(/^on-demand tools: off; with them 3 tools \(3 meta-tools\), \d+ tokens$/m);

    for (const args of [['--on-demand', '--all-tools'], ['--client', 'cursor'], ['--client', 'cursor=maybe'], ['--pin', ' ']]) {
      const bad = await cli(dir, 'profiles', 'update', 'work', ...args);
      expect(bad.code, args.join(' ')).toBe(2);
    }
    expect((await cli(dir, 'profiles', 'update', 'work')).stderr).toContain('--on-demand, --all-tools, --pin, --unpin or --client');
    // The API checks what the CLI cannot: a client id is lower-case letters, digits, ".", "_" and "-".
    const badId = await cli(dir, 'profiles', 'update', 'work', '--client', 'My Editor=on');
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain("'My Editor' is not a client id");
  });

  it('documents every subcommand in its help', async () => {
    const help = await cli('/nowhere', 'profiles', '--help');
    expect(help.code).toBe(0);
    for (const sub of ['list', 'show', 'create', 'set', 'update', 'delete', 'add', 'remove', 'enable', 'disable', 'approve']) expect(help.stdout).toContain(`patchbay profiles ${sub}`);
    const update = await cli('/nowhere', 'profiles', 'update', '--help');
    for (const flag of ['--on-demand', '--all-tools', '--pin TOOL', '--unpin TOOL', '--client ID=on|off|default']) expect(update.stdout).toContain(flag);
  });
});
