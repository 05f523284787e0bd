/**
 * PROTOCOL F (P29–P31): stdio framing, shutdown, child environment. The login-shell PATH part of
 * P31 lives in stdio-login-path.test.ts: the engine asks the shell once per process.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setLogLevel, setLogSink, type LogRecord } from '../../src/main/core/log/logger.js';
import { onCleanup } from '../helpers/cleanup.js';
import { toolCall } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { fixtureChildren, isAlive } from '../helpers/processes.js';
import { everythingServer, PROBE_SERVER, probeServer, type ServerEntry } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { setEnv } from '../helpers/env.js';
import { skipNote, WINDOWS } from '../helpers/skip-note.js';

/** Captures the engine's log records for this test. */
function captureLogs(level: Parameters<typeof setLogLevel>[0] = 'debug'): LogRecord[] {
  const records: LogRecord[] = [];
  setLogSink((r) => records.push(r));
  setLogLevel(level);
  onCleanup(() => {
    setLogSink(undefined);
    setLogLevel('warn');
  });
  return records;
}


/**
 * The probe fixture under a small Node parent that writes `SIGTERM` to the file `signalLog` when
 * it gets one. The engine signals a child's whole process group, so the parent hears every
 * SIGTERM of the shutdown path; it exits when the probe does.
 */
function signalWitness(signalLog: string, env: Record<string, string> = {}): ServerEntry {
  const script = [
    "const { appendFileSync } = require('node:fs');",
    "const { spawn } = require('node:child_process');",
    "process.on('SIGTERM', () => appendFileSync(process.env.SIGNAL_LOG, 'SIGTERM\\n'));",
    "const probe = spawn(process.execPath, [process.argv[1]], { stdio: 'inherit' });",
    "probe.on('exit', (code) => process.exit(code ?? 1));",
  ].join('\n');
  return { command: process.execPath, args: ['-e', script, PROBE_SERVER], env: { SIGNAL_LOG: signalLog, ...env }, warmSpare: false };
}

/** POSIX names the hub may pass on (child-env.ts) — the "minimal inherited set". */
const MINIMAL = new Set([
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ',
  'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
]);

describe('F. stdio', () => {
  describe('P29: framing', () => {
    it('P29: non-JSON and non-JSON-RPC lines on a child’s stdout are skipped and logged, not fatal', async () => {
      const logs = captureLogs('debug');
      const h = await startHub({ servers: { noisy: probeServer({ env: { PROBE_NOISY: '1' } }) } });
      const client = await connect(h, 'noisy');
      for (let i = 0; i < 5; i++) expect(await client.tool('echo', { text: `through the noise ${i}` })).toBe(`through the noise ${i}`);
      const tools = await client.request('tools/list');
      expect(tools.response.result).toBeDefined();
      const skipped = logs.filter((r) => /skip/i.test(r.message) && JSON.stringify(r).includes('this line is not JSON'));
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((r) => r.level !== 'error')).toBe(true);
      expect(logs.some((r) => /skip/i.test(r.message) && JSON.stringify(r).includes('{\\"foo\\":1}'))).toBe(true);
    });

    it('P29: a large line that reads as the answer but is not JSON is skipped too, per-session, shared and through the 2026-07-28 door', async () => {
      // The hub routes a large answer on a skim of its text (lazy-answer.ts); the skim must refuse
      // whatever JSON.parse refuses, or a broken line would go to the client as the answer.
      const logs = captureLogs('debug');
      const h = await startHub({ servers: { own: probeServer(), shared: probeServer({ shared: true }) }, engine: { capture: false } });
      const bytes = 256 * 1024;
      const expected = `the answer after five broken lines of ${bytes} bytes`;
      const MODERN = '2026-07-28';
      for (const server of ['own', 'shared']) {
        const client = await connect(h, server);
        expect(await client.tool('broken_large', { bytes })).toBe(expected);
        const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
        const res = await post(h, server, toolCall(9, 'broken_large', { bytes }, meta), { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'broken_large' } });
        const answer = (await messagesOfResponse(res, 20_000)).messages.at(-1) as { id?: unknown; result?: { content: Array<{ text: string }> } };
        expect(answer.id).toBe(9);
        expect(answer.result?.content[0]?.text).toBe(expected);
      }
      const skipped = logs.filter((r) => /skipped a non-JSON line/.test(r.message));
      expect(skipped.length).toBe(4 * 5);
      expect(skipped.every((r) => r.level === 'warn')).toBe(true);
    });

    it('P29: the everything server behind a noisy stdout still works for a whole session', async () => {
      const h = await startHub({ servers: { noisy: probeServer({ env: { PROBE_NOISY: '1' } }), fx: everythingServer() } });
      const [a, b] = await Promise.all([connect(h, 'noisy'), connect(h, 'fx')]);
      expect(await a.tool('echo', { text: 'a' })).toBe('a');
      expect(await b.tool('echo', { text: 'b' })).toBe('b');
    });

    it('P29: stderr is captured as logs (not errors) and the session goes on', async () => {
      const logs = captureLogs('debug');
      const banner = `probe banner ${process.pid}-${Date.now()}`;
      const h = await startHub({ servers: { probe: probeServer({ env: { PROBE_STDERR: banner } }) } });
      const client = await connect(h, 'probe');
      expect(await client.tool('stderr', { text: 'a line for the log' })).toBe('written');
      expect(await client.tool('echo', { text: 'after stderr' })).toBe('after stderr');
      await waitFor(() => logs.some((r) => JSON.stringify(r).includes('a line for the log')), 'the child’s stderr line to reach the log', 5000);
      const lines = logs.filter((r) => JSON.stringify(r).includes(banner) || JSON.stringify(r).includes('a line for the log'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const r of lines) expect(r.level).not.toBe('error');
    });

    it('P29: one message per line: a pretty-printed body reaches the child as one line', async () => {
      const h = await startHub({ servers: { probe: probeServer() } });
      const client = await connect(h, 'probe');
      const pretty = JSON.stringify(toolCall(40, 'echo', { text: 'line1\nline2\r\nline3\u2028end' }), null, 2);
      expect(pretty).toContain('\n');
      const res = await client.post(pretty);
      expect(res.status).toBe(200);
      const echoed = await res.text();
      expect(echoed).toContain('line1\\nline2\\r\\nline3');
      const input = JSON.parse(await client.tool('dump_input')) as string[];
      // Every line the child read is one whole JSON-RPC message.
      for (const line of input) expect(() => JSON.parse(line)).not.toThrow();
      const call = input.map((l) => JSON.parse(l) as { id?: unknown; params?: { arguments?: { text?: string } } }).find((m) => m.id === 40);
      expect(call?.params?.arguments?.text).toBe('line1\nline2\r\nline3\u2028end');
    });

    it('P29: UTF-8 round-trips, also when multi-byte characters straddle pipe chunks', async () => {
      const h = await startHub({ servers: { probe: probeServer(), fx: everythingServer() } });
      const text = 'héllo wörld — 日本語 — 🌍🚀 '.repeat(8000);
      for (const id of ['probe', 'fx']) {
        const client = await connect(h, id);
        expect(await client.tool('echo', { text })).toBe(text);
      }
    });
  });

  describe('P30: shutdown', () => {
    it('P30: after engine.close() no child remains alive (per-session, spare and shared children)', async () => {
      const h: TestHub = await startHub({ servers: { fx: everythingServer(), shared: everythingServer({ shared: true }), probe: probeServer() } });
      const clients = await Promise.all([connect(h, 'fx'), connect(h, 'fx'), connect(h, 'shared'), connect(h, 'shared'), connect(h, 'probe')]);
      const pids = await Promise.all(clients.map(async (c) => Number(await c.tool('whoami'))));
      // Include the warm spares that are up by now.
      const all = new Set([...pids, ...fixtureChildren()]);
      expect(all.size).toBeGreaterThanOrEqual(4);
      await withTimeout(h.close(), 15_000, 'engine.close()');
      const alive = [...all].filter(isAlive);
      expect(alive).toEqual([]);
      expect(fixtureChildren()).toEqual([]);
    });

    it('P30: a child that ignores stdin EOF and SIGTERM is SIGKILLed, with its process group', async () => {
      const h = await startHub({ servers: { stubborn: probeServer({ env: { PROBE_STUBBORN: '1', PROBE_GRANDCHILD: '1' }, warmSpare: false }) } });
      const client = await connect(h, 'stubborn');
      const pid = Number(await client.tool('whoami'));
      const grandchild = Number(await client.tool('grandchild'));
      expect(isAlive(pid)).toBe(true);
      expect(isAlive(grandchild)).toBe(true);
      await withTimeout(h.close(), 20_000, 'engine.close() with a stubborn child');
      expect(isAlive(pid)).toBe(false);
      await waitFor(() => !isAlive(grandchild), `grandchild ${grandchild} to die with its group`, 5000);
    });

    it('P30: DELETE of a session whose child ignores EOF and SIGTERM still ends that child', async () => {
      const h = await startHub({ servers: { stubborn: probeServer({ env: { PROBE_STUBBORN: '1' }, warmSpare: false }) } });
      const client = await connect(h, 'stubborn');
      const pid = Number(await client.tool('whoami'));
      const res = await withTimeout(client.delete(), 20_000, 'DELETE of a session with a stubborn child');
      expect(res.status).toBe(200);
      await waitFor(() => !isAlive(pid), `stubborn child ${pid} to be killed`, 15_000);
    });

    it.skipIf(WINDOWS)(skipNote(WINDOWS, 'P30: a well-behaved child is stopped by closing its stdin (no signal needed)', 'the witness counts POSIX signals'), async () => {
      const signalLog = path.join(await tempDir('patchbay-stdin-close-'), 'signals');
      const h = await startHub({ servers: { probe: signalWitness(signalLog) } });
      const client = await connect(h, 'probe');
      const pid = Number(await client.tool('whoami'));
      await h.close();
      expect(isAlive(pid)).toBe(false);
      // close() returns once the child has exited, and the child writes a SIGTERM down before it
      // exits: the stdin step alone stopped it, the SIGTERM/SIGKILL path never ran.
      expect(existsSync(signalLog) ? readFileSync(signalLog, 'utf8') : '').toBe('');
    });
  });

  describe('P31: child environment', () => {
    it('P31: the child sees the configured env plus a minimal inherited set, not the hub’s environment', async () => {
      setEnv('PATCHBAY_TEST_LEAK', '1');
      setEnv('AWS_SECRET_ACCESS_KEY', 'leaky-secret-value');
      const h = await startHub({ servers: { probe: probeServer({ env: { CONFIGURED_VAR: 'configured-value', TZ: 'Etc/UTC' } }) } });
      const client = await connect(h, 'probe');
      const env = JSON.parse(await client.tool('dump_env')) as Record<string, string>;
      expect(env.PATCHBAY_TEST_LEAK).toBeUndefined();
      expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
      expect(env.PATCHBAY_NO_LOGIN_SHELL).toBeUndefined();
      expect(env.VITEST).toBeUndefined();
      expect(env.CONFIGURED_VAR).toBe('configured-value');
      expect(env.TZ).toBe('Etc/UTC');
      const extra = Object.keys(env).filter((k) => !MINIMAL.has(k) && k !== 'CONFIGURED_VAR');
      expect(extra).toEqual([]);
      for (const name of ['HOME', 'PATH']) if (process.env[name] !== undefined) expect(env[name]).toBeTruthy();
      expect(JSON.stringify(env)).not.toContain(h.token!);
    });

    it('P31: the everything server’s env tool sees configured env, not the test process’s', async () => {
      setEnv('PATCHBAY_TEST_LEAK', '1');
      const h = await startHub({ servers: { fx: everythingServer({ env: { FIXTURE_ECHO_ENV: 'PATCHBAY_CONFIGURED', PATCHBAY_CONFIGURED: 'yes' } }) } });
      const client = await connect(h, 'fx');
      expect(await client.tool('env', { name: 'PATCHBAY_TEST_LEAK' })).toBe('');
      expect(await client.tool('env', { name: 'PATCHBAY_CONFIGURED' })).toBe('yes');
      expect(await client.tool('env', {})).toBe('yes');
    });
  });
});
