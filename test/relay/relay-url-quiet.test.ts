/**
 * `patchbay relay --url` says nothing on a normal start (issue 17 item 12): its stderr lands in
 * the client's log (Claude Desktop's `mcp-server-<name>.log`), where "created a new hub token"
 * at every start was noise. At the default log level, with a real relay and a real remote.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { EVERYTHING_SERVER } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';
import { initialize, relayEnv, requireBuild, spawnRelay, tempHome, textOf } from './relay-helpers.js';

beforeAll(requireBuild);

describe('patchbay relay --url at the default log level', () => {
  it('writes nothing to stderr on a normal start, call and exit', async () => {
    const remote = spawn(process.execPath, [EVERYTHING_SERVER, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    onCleanup(() => remote.kill('SIGKILL'));
    let err = '';
    remote.stderr.setEncoding('utf8');
    remote.stderr.on('data', (d: string) => (err += d));
    const url = (await waitFor(() => /^listening (\S+)$/m.exec(err), 'the fixture to listen'))[1]!;
    const home = await tempHome();
    const env = relayEnv(home);
    delete env.PATCHBAY_LOG_LEVEL;
    const relay = spawnRelay(home, ['--url', url], env);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'quiet' } } });
    expect(textOf(await relay.answer(1, 30_000))).toBe('quiet');
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    expect(relay.stderr()).toBe('');
  }, 60_000);
});
