/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) in tests: the real App servers from npm
 * (`@modelcontextprotocol/server-basic-react` and `-budget-allocator`, pinned in package.json, run
 * over stdio), the app fixture (test/fixtures/app-server.mjs: an app-only tool, both eras), and a
 * raw stdio exchange with a server or a relay, line by line as the bytes came.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { onCleanup } from '../helpers/cleanup.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import type { ServerEntry } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';

const require = createRequire(import.meta.url);

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME = 'text/html;profile=mcp-app';
/** What a host that renders apps declares (ext-apps' McpUiClientCapabilities). */
export const UI_CAPABILITIES = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME] } } };

/** A real App server from npm, over stdio (its `--stdio` switch). */
export function npmAppServer(pkg: 'server-basic-react' | 'server-budget-allocator'): ServerEntry {
  // Its main entry (dist/server.js) sits beside the CLI (dist/index.js); package.json is not exported.
  const bin = path.join(path.dirname(require.resolve(`@modelcontextprotocol/${pkg}`)), 'index.js');
  return { command: process.execPath, args: [bin, '--stdio'] };
}

export function appFixture(o: { era?: 'auto' | 'modern' | 'legacy'; app?: string } = {}): ServerEntry {
  return { command: process.execPath, args: [path.join(FIXTURES_DIR, 'app-server.mjs'), '--era', o.era ?? 'auto', '--app', o.app ?? 'board'] };
}

/** A process spoken to in newline-delimited JSON-RPC, its stdout kept as the raw lines. */
export interface RawStdio {
  send(message: Record<string, unknown>): void;
  /** The raw line of the answer to request `id`. */
  answerLine(id: number | string, timeoutMs?: number): Promise<string>;
  stderr(): string;
}

export function rawStdio(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): RawStdio {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    await exited;
    clearTimeout(timer);
  });
  const lines: string[] = [];
  let buffer = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return {
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    answerLine: (id, timeoutMs = 20_000) =>
      waitFor(
        () =>
          lines.find((line) => {
            const m = JSON.parse(line) as Record<string, unknown>;
            return m.id === id && !('method' in m);
          }),
        `the answer to request ${JSON.stringify(id)} (stderr: ${err.slice(-400)})`,
        timeoutMs,
      ),
    stderr: () => err,
  };
}

export function initializeWithUi(id: number | string = 0): Record<string, unknown> {
  return { id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: UI_CAPABILITIES, clientInfo: { name: 'app-host-test', version: '1' } } };
}

/** The tools/list, then the first UI tool's resource read, as raw lines (ids 1 and 2). */
export async function listAndRead(io: RawStdio, uri: string): Promise<{ list: string; read: string }> {
  io.send(initializeWithUi(0));
  await io.answerLine(0);
  io.send({ method: 'notifications/initialized' });
  io.send({ id: 1, method: 'tools/list', params: {} });
  const list = await io.answerLine(1);
  io.send({ id: 2, method: 'resources/read', params: { uri } });
  const read = await io.answerLine(2, 30_000);
  return { list, read };
}
