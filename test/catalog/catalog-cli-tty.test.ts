/**
 * `patchbay add` at a terminal: it asks for each required value left (a secret without echo),
 * shows what will run, and installs only once confirmed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/main/cli/command.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { cli } from '../helpers/cli-io.js';
import { catalogHub } from './catalog-hub.js';

function terminal(): PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void } {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
}

/** `patchbay add` of the remote weather server at a terminal: types the key, answers the confirmation. */
async function addAtTerminal(dataDir: string, confirm: 'y' | 'n'): Promise<{ code: number; err: string }> {
  const tty = terminal();
  const run = cli(dataDir, { stdin: tty as unknown as CliIo['stdin'] });
  const done = runCli(['add', 'io.github.patchbay-test/remote-weather'], run.io);
  await vi.waitFor(() => expect(run.err()).toContain('X-Api-Key (The tenant\'s API key): '));
  tty.write('wk-typed\r');
  await vi.waitFor(() => expect(run.err()).toContain('Install? [y/N] '));
  tty.write(`${confirm}\n`);
  return { code: await done, err: run.err() };
}

describe('patchbay add on a terminal', () => {
  it('asks for the missing secret without echo, confirms, installs; a "no" writes nothing', async () => {
    const { hub } = await catalogHub();
    const configFile = path.join(hub.dataDir, 'config.json');
    const before = await readFile(configFile, 'utf8');

    const no = await addAtTerminal(hub.dataDir, 'n');
    expect(no.code).toBe(1);
    expect(no.err).toContain('will connect to:\n  https://demo.weather.example/mcp\n  X-Api-Key: ${secret:remote-weather.X-Api-Key}\n');
    expect(no.err).not.toContain('wk-typed');
    expect(await readFile(configFile, 'utf8')).toBe(before);
    expect(await hub.engine.secrets.list()).toEqual([]);

    const yes = await addAtTerminal(hub.dataDir, 'y');
    expect(yes.code, yes.err).toBe(0);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('wk-typed');
  });
});
