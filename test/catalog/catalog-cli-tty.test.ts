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

describe('patchbay add on a terminal', () => {
  it('asks for the missing secret without echo, confirms, installs; a "no" writes nothing', async () => {
    const { hub } = await catalogHub();
    const configFile = path.join(hub.dataDir, 'config.json');
    const before = await readFile(configFile, 'utf8');

    const declined = terminal();
    const no = cli(hub.dataDir, { stdin: declined as unknown as CliIo['stdin'] });
    const first = runCli(['add', 'io.github.patchbay-test/remote-weather'], no.io);
    await vi.waitFor(() => expect(no.err()).toContain('X-Api-Key (The tenant\'s API key): '));
    declined.write('wk-typed\r');
    await vi.waitFor(() => expect(no.err()).toContain('Install? [y/N] '));
    declined.write('n\n');
    expect(await first).toBe(1);
    expect(no.err()).toContain('will connect to:\n  https://demo.weather.example/mcp\n  X-Api-Key: ${secret:remote-weather.X-Api-Key}\n');
    expect(no.err()).not.toContain('wk-typed');
    expect(await readFile(configFile, 'utf8')).toBe(before);
    expect(await hub.engine.secrets.list()).toEqual([]);

    const accepted = terminal();
    const yes = cli(hub.dataDir, { stdin: accepted as unknown as CliIo['stdin'] });
    const second = runCli(['add', 'io.github.patchbay-test/remote-weather'], yes.io);
    await vi.waitFor(() => expect(yes.err()).toContain('X-Api-Key'));
    accepted.write('wk-typed\r');
    await vi.waitFor(() => expect(yes.err()).toContain('Install? [y/N] '));
    accepted.write('y\n');
    expect(await second, yes.err()).toBe(0);
    expect(await hub.engine.secrets.get('remote-weather.X-Api-Key')).toBe('wk-typed');
  });
});
