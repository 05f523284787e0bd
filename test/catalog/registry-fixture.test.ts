/**
 * The fixture registry run standalone, as other tests and the e2e suite start it: one JSON line
 * with its URL on stdout, serving until SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';

describe('fixture registry, standalone', () => {
  it('prints its URL, serves, and exits on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(FIXTURES_DIR, 'registry', 'fixture-registry.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    onCleanup(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const lines = createInterface({ input: child.stdout });
    const [line] = (await once(lines, 'line')) as [string];
    const { url } = JSON.parse(line) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v0.1/servers/io.github.patchbay-test%2Fremote-weather/versions/latest`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { server: { name: string } }).server.name).toBe('io.github.patchbay-test/remote-weather');
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });
});
