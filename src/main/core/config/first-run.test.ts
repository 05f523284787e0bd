// The first run: a fresh data dir starts with the demo server; a data dir that ran before does not.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfigValue } from './config-parse.js';
import { defaultDemoServer, seedFirstRunConfig } from './first-run.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('first run', () => {
  it('writes the demo server, marked as a demo, into a fresh data dir only', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-first-run-'));
    const paths = { configFile: path.join(dir, 'config.json'), tokenFile: path.join(dir, 'hub-token') };
    const demo = defaultDemoServer()!;
    expect(demo).toMatchObject({ command: process.execPath, demo: true });
    expect(demo.args![0]).toMatch(/[\\/]main[\\/]demo[\\/]demo-server\.js$/);

    expect(await seedFirstRunConfig(paths, demo)).toBe(true);
    const written = JSON.parse(await readFile(paths.configFile, 'utf8')) as unknown;
    expect(written).toEqual({ mcpServers: { demo: { command: process.execPath, args: demo.args, demo: true } } });
    expect(validateConfigValue(written, paths.configFile).ok).toBe(true);

    // Removed by the person, and the hub ran before (its token exists): not added again.
    await writeFile(paths.configFile, '{ "mcpServers": {} }');
    expect(await seedFirstRunConfig(paths, demo)).toBe(false);
    await rm(paths.configFile);
    await writeFile(paths.tokenFile, 'x');
    expect(await seedFirstRunConfig(paths, demo)).toBe(false);
    await expect(readFile(paths.configFile, 'utf8')).rejects.toThrow();
  });
});
