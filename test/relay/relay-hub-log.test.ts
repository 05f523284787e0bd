/**
 * The hub a relay starts in the background logs to `<data dir>/logs/hub.log`: a file on disk,
 * so it must not hold the one-time UI login link `patchbay serve` prints on a terminal (issue 17
 * item 12). Real relay and hub processes from the built CLI.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hubLog, initialize, requireBuild, spawnRelay, tempHome } from './relay-helpers.js';

beforeAll(requireBuild);

describe('the hub a relay starts', () => {
  it('writes no login link (nor the token) to its log file, only where the UI is', async () => {
    const home = await tempHome();
    const relay = spawnRelay(home, ['fx']);
    relay.write(initialize(0));
    expect((await relay.answer(0, 30_000)).result).toBeDefined();
    const log = hubLog(home);
    expect(log).toContain('started by patchbay relay');
    expect(log).toMatch(/UI: http:\/\/127\.0\.0\.1:\d+\/ui\/ {2}\(log in with the hub token\)/);
    expect(log).not.toContain('login?token=');
    const token = (await readFile(path.join(home, 'hub-token'), 'utf8')).trim();
    expect(log).not.toContain(token);
  }, 60_000);
});
