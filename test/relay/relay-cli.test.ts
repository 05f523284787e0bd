/** The relay's command line: usage errors (exit 2, values never echoed), help, and the fast path. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/cli/command.js';
import { relayMain } from '../../src/main/cli/commands/relay.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { setLogSink } from '../../src/main/core/log/logger.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pb-relay-cli-'));
  setLogSink(() => undefined);
});
afterEach(async () => {
  setLogSink(undefined);
  await rm(home, { recursive: true, force: true });
});

function io(out: { stdout: string; stderr: string }): CliIo {
  return {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    env: { PATCHBAY_HOME: home },
    platform: process.platform,
    homedir: home,
    cwd: home,
  };
}

async function run(args: string[], entry: 'runCli' | 'relayMain' = 'runCli'): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const code = entry === 'runCli' ? await runCli(['relay', ...args], io(out)) : await relayMain(args, io(out));
  return { code, ...out };
}

describe('patchbay relay command line', () => {
  it.each([
    [['@'], 'SERVER must be a server id'],
    [['fx', '--url', 'http://127.0.0.1:1/mcp'], 'give either SERVER or --url, not both'],
    [['--url', 'ftp://example.com/mcp'], '--url must be an http(s) URL'],
    [['fx', '--header', 'X-A: b'], '--header is only for --url'],
    [['--url', 'http://127.0.0.1:1/mcp', '--header', 'no colon here'], '--header must look like "Name: value"'],
    [['--url', 'http://127.0.0.1:1/mcp', '--transport', 'websocket'], '--transport must be auto, http or sse'],
    [['--url', 'http://127.0.0.1:1/mcp', '--client-secret', 'hunter2-secret'], '--client-secret needs --client-id'],
    [['--url', 'http://127.0.0.1:1/mcp', '--client-id', 'a', '--client-metadata-url', 'https://a.example/c.json'], 'not both'],
    [['--url', 'http://127.0.0.1:1/mcp', '--client-metadata-url', 'http://a.example/c.json'], 'must be an https URL'],
    [['--url', 'http://127.0.0.1:1/mcp', '--no-start'], '--no-start applies to SERVER'],
    [['../etc'], 'SERVER must be a server id'],
  ])('refuses %j with exit 2', async (args, message) => {
    for (const entry of ['runCli', 'relayMain'] as const) {
      const result = await run(args, entry);
      expect(result.code, entry).toBe(2);
      expect(result.stderr, entry).toContain(message);
      expect(result.stderr, entry).toContain("Run 'patchbay relay --help' for usage.");
      expect(result.stderr, entry).not.toContain('hunter2-secret');
      expect(result.stdout, entry).toBe('');
    }
  });

  it('documents every flag in its help, from either entry point', async () => {
    for (const entry of ['runCli', 'relayMain'] as const) {
      const { code, stdout } = await run(['--help'], entry);
      expect(code).toBe(0);
      for (const flag of ['--url', '--header', '--transport', '--client-id', '--client-secret', '--client-metadata-url', '--no-start', '--data-dir']) expect(stdout).toContain(flag);
    }
  });

  it('exits 0 without starting anything when stdin closes before any message', async () => {
    const result = await run(['fx']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });
});
