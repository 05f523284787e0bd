/**
 * A real client end to end: `patchbay export claude-desktop --profile work` (the CLI, against a
 * temp home), then exactly the command, args and env written there launched as Claude Desktop
 * would, listing the profile's tools through the relay and calling two of them on different
 * servers. Patchbay's per-server entries of the profile's members are replaced by the one entry.
 *
 * The written command runs the compiled CLI (bin/patchbay.js), so the CLI is built first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/cli/command.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { onCleanup } from '../helpers/cleanup.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';
import { alphaServer, betaServer } from './profile-harness.js';
import { ensureBuilt } from '../helpers/built.js';

beforeAll(() => ensureBuilt(), 180_000);

type Message = Record<string, unknown> & { result?: Record<string, unknown>; error?: { message: string } };

function stdioClient(child: ChildProcessWithoutNullStreams): { request(id: number, method: string, params?: Record<string, unknown>): Promise<Message>; notify(method: string): void } {
  const waiting = new Map<unknown, (m: Message) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Message;
    waiting.get(message.id)?.(message);
  });
  return {
    request: (id, method, params = {}) =>
      withTimeout(
        new Promise((resolve) => {
          waiting.set(id, resolve);
          child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
        }),
        30_000,
        `the answer to ${method}`,
      ),
    notify: (method) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n'),
  };
}

async function cli(home: string, dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    env: { PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1', PATH: path.dirname(process.execPath) },
    platform: 'linux',
    homedir: home,
    cwd: home,
  };
  return { code: await runCli(args, io), ...out };
}

describe('Claude Desktop end to end, with a profile', () => {
  it('exports one relay entry for the profile, and the launched command lists and calls tools of two servers', async () => {
    const root = await tempDir('patchbay-profile-e2e-');
    const home = path.join(root, 'home');
    const dataDir = path.join(root, 'data');
    await mkdir(home, { recursive: true });
    const hub = await startHub({
      servers: { alpha: alphaServer(), beta: betaServer(), everything: everythingServer() },
      config: { profiles: { work: { servers: ['alpha', 'beta'] } } },
      dataDir,
    });

    // First one entry per server, as before profiles; then the profile takes its members' place.
    expect((await cli(home, dataDir, 'export', 'claude-desktop')).code).toBe(0);
    const exported = await cli(home, dataDir, 'export', 'claude-desktop', '--profile', 'work');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("remove    alpha: covered by profile 'work'");
    expect(exported.stderr).toContain('add       patchbay-work → @work (stdio relay)');
    const file = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> };
    expect(Object.keys(config.mcpServers).sort()).toEqual(['everything', 'patchbay-work']);
    const entry = config.mcpServers['patchbay-work']!;
    expect(entry.args).toEqual([path.join(REPO_ROOT, 'bin', 'patchbay.js'), 'relay', '@work']);

    // Exactly what Claude Desktop runs: the entry's command, args and env, on a minimal environment.
    const child = spawn(entry.command, entry.args, { env: { PATH: process.env.PATH ?? '', HOME: home, ...entry.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    onCleanup(() => {
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const mcp = stdioClient(child);
    try {
      const init = await mcp.request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-desktop-e2e', version: '1.0.0' } });
      expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'patchbay' } });
      mcp.notify('notifications/initialized');
      const listed = await mcp.request(2, 'tools/list');
      const names = (listed.result!.tools as Array<{ name: string }>).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['alpha__echo', 'beta__echo', 'alpha__add', 'beta__whoami']));
      expect(names.some((n) => n.startsWith('everything__'))).toBe(false);
      const a = await mcp.request(3, 'tools/call', { name: 'alpha__echo', arguments: { text: 'hello' } });
      const b = await mcp.request(4, 'tools/call', { name: 'beta__echo', arguments: { text: 'hello' } });
      expect(JSON.stringify(a.result)).toContain('alpha: hello');
      expect(JSON.stringify(b.result)).toContain('beta: hello');
      // It went through this test's hub, as one aggregated session.
      expect(hub.engine.hub.sessionCounts().get('@work')).toBe(1);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nrelay stderr:\n${stderr}`);
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await withTimeout(exited, 10_000, 'the relay to exit on stdin EOF');
  });

  it('`patchbay relay` with no server relays the default profile: every enabled server as one', async () => {
    const hub = await startHub({ servers: { alpha: alphaServer(), beta: betaServer() } });
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'patchbay.js'), 'relay', '--no-start'], {
      env: { PATH: process.env.PATH ?? '', PATCHBAY_HOME: hub.dataDir, PATCHBAY_NO_LOGIN_SHELL: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    onCleanup(() => {
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const mcp = stdioClient(child);
    await mcp.request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } });
    mcp.notify('notifications/initialized');
    const names = ((await mcp.request(2, 'tools/list')).result!.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['alpha__echo', 'beta__echo']));
    expect(hub.engine.hub.sessionCounts().get('@default')).toBe(1);
  });
});
