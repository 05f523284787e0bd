/**
 * End to end, the way Claude Desktop does it: export to a temporary Claude Desktop config, then
 * launch exactly the command, args and env written there as a stdio MCP client would, and
 * complete initialize + tools/call through the relay and the hub to the fixture server.
 *
 * The written command is the real one (node + bin/patchbay.js), which runs the compiled CLI, so
 * the CLI is built first (as src/main/cli/cli.test.ts does).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { everythingServer } from '../helpers/server-entries.js';
import { withTimeout } from '../helpers/waits.js';
import { tempMachine } from './client-fixtures.js';
import { startClientsEngine, valueOf } from './engine-fixture.js';
import { ensureBuilt } from '../helpers/built.js';

beforeAll(() => ensureBuilt(), 180_000);

/** A stdio MCP client on a child process: newline-delimited JSON-RPC, each answer awaited with a deadline. */
function stdioClient(child: ChildProcessWithoutNullStreams): { request(message: Record<string, unknown>): Promise<Record<string, unknown>>; notify(message: Record<string, unknown>): void } {
  const waiting = new Map<unknown, (m: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    waiting.get(message.id)?.(message);
  });
  return {
    request: (message) =>
      withTimeout(
        new Promise((resolve) => {
          waiting.set(message.id, resolve);
          child.stdin.write(JSON.stringify(message) + '\n');
        }),
        20_000,
        `the answer to ${String(message.method)}`,
      ),
    notify: (message) => child.stdin.write(JSON.stringify(message) + '\n'),
  };
}

describe('Claude Desktop end to end', () => {
  it('runs exactly the exported command and reaches the fixture server through the hub', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    // The default launcher: this Node binary and this checkout's bin/patchbay.js.
    const hub = await startClientsEngine(machine, { fixture: everythingServer() });
    const outcome = valueOf(await hub.call<{ written: boolean; file: string }>('clients.export', { client: 'claude-desktop' }));
    expect(outcome.written).toBe(true);

    const config = JSON.parse(await readFile(outcome.file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> };
    const entry = config.mcpServers.fixture!;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([path.join(REPO_ROOT, 'bin', 'patchbay.js'), 'relay', 'fixture']);

    // Claude Desktop starts the entry with its own (minimal) environment plus the entry's env.
    const child = spawn(entry.command, entry.args, {
      env: { PATH: process.env.PATH ?? '', HOME: machine.host.home, ...entry.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    onCleanup(() => {
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const mcp = stdioClient(child);
    try {
      const init = await mcp.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-desktop-e2e', version: '1.0.0' } },
      });
      expect(init.result).toMatchObject({ protocolVersion: '2025-06-18' });
      mcp.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const call = await mcp.request({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'through the relay' } } });
      expect(JSON.stringify(call.result)).toContain('through the relay');
      // It went through this test's hub (not a hub the relay started on its own).
      expect(hub.engine.servers().find((s) => s.id === 'fixture')?.sessions).toBe(1);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nrelay stderr:\n${stderr}`);
    }
    // The relay exits when its client closes stdin.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await withTimeout(exited, 10_000, 'the relay to exit on stdin EOF');
  });
});
