/**
 * `patchbay relay <server>` as a stdio client sees it: real relay processes from the built CLI,
 * a real hub (started by the relay itself, detached, or in-process), real HTTP on loopback.
 */
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { hasProc, isAlive } from '../helpers/processes.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { BIN, hubLog, hubRecord, initialize, requireBuild, servePids, spawnRelay, tempHome, textOf } from './relay-helpers.js';
import { skipNote, WINDOWS } from '../helpers/skip-note.js';

beforeAll(requireBuild);

describe('patchbay relay <server>', () => {
  it('gives an SDK stdio client a working session when no hub is running (it starts one)', async () => {
    const home = await tempHome();
    expect(await hubRecord(home)).toBeUndefined();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'relay', 'fx'],
      env: { ...getDefaultEnvironment(), PATCHBAY_HOME: home, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'relay-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    onCleanup(() => client.close());
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'through the relay' } });
    expect(result.content).toEqual([{ type: 'text', text: 'through the relay' }]);
    expect(errors).toEqual([]);
    // The hub it started runs on its own, recorded in the data dir, logging to logs/hub.log.
    const hub = await hubRecord(home);
    expect(hub && isAlive(hub.pid)).toBe(true);
    expect(hubLog(home)).toContain('started by patchbay relay');
  });

  it('ten relays started at once share one hub', async () => {
    const home = await tempHome();
    const relays = Array.from({ length: 10 }, () => spawnRelay(home, ['fx']));
    for (const r of relays) {
      r.write(initialize(0));
      r.write({ method: 'notifications/initialized' });
      r.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    }
    for (const r of relays) expect(textOf(await r.answer(1, 30_000))).toBe('hi');
    expect(hubLog(home).match(/started by patchbay relay/g)).toHaveLength(1);
    const hub = (await hubRecord(home))!;
    if (hasProc()) expect(servePids(home)).toEqual([hub.pid]);
    for (const r of relays) expect(r.junk).toEqual([]);
  });

  it('replays initialize when the hub restarted (on another port) and goes on', async () => {
    const home = await tempHome();
    const relay = spawnRelay(home, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'whoami' } });
    const firstChild = textOf(await relay.answer(1));
    const first = (await hubRecord(home))!;
    process.kill(first.pid, 'SIGTERM');
    await waitFor(() => !isAlive(first.pid), 'the first hub to stop');
    relay.write({ id: 2, method: 'tools/call', params: { name: 'whoami' } });
    const secondChild = textOf(await relay.answer(2, 30_000));
    const second = (await hubRecord(home))!;
    expect(second.pid).not.toBe(first.pid);
    expect(secondChild).not.toBe(firstChild);
    // The client saw exactly one initialize answer: the replay's stayed inside the relay.
    expect(relay.messages.filter((m) => m.id === 0)).toHaveLength(1);
    expect(relay.junk).toEqual([]);
  });

  it('re-creates a session the hub forgot (404) by replaying initialize', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } });
    expect(textOf(await relay.answer(1))).toBe('one');
    const [session] = [...hub.engine.hub.sessions.values()];
    await session!.close();
    await waitFor(() => hub.engine.hub.sessions.size === 0, 'the session to end');
    relay.write({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'two' } } });
    expect(textOf(await relay.answer(2))).toBe('two');
    expect(hub.engine.hub.sessions.size).toBe(1);
    expect(relay.messages.filter((m) => m.id === 0)).toHaveLength(1);
  });

  it('deletes its session and exits 0 on stdin EOF', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write(initialize(0));
    await relay.answer(0);
    await waitFor(() => hub.engine.hub.sessions.size === 1, 'the session');
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    expect(hub.engine.hub.sessions.size).toBe(0);
  });

  it('answers with the last requests of a client that wrote them and closed stdin at once', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'last words' } } });
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    expect(textOf(await relay.answer(1, 1000))).toBe('last words');
  });

  it.runIf(!WINDOWS)(skipNote(WINDOWS, 'exits when its parent dies, even with stdin still open', 'the relay sees its parent die by being re-parented (its ppid changes), which Windows does not do'), async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const { spawn } = await import('node:child_process');
    // parent → relay, with the relay's stdin inherited from a pipe this test keeps open.
    const script = `const { spawn } = require('node:child_process');
      const relay = spawn(process.execPath, [${JSON.stringify(BIN)}, 'relay', 'fx'], { stdio: ['inherit', 'ignore', 'inherit'] });
      process.stdout.write(String(relay.pid) + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { env: { ...process.env, PATCHBAY_HOME: hub.dataDir }, stdio: ['pipe', 'pipe', 'inherit'] });
    onCleanup(() => parent.kill('SIGKILL'));
    const relayPid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
    onCleanup(() => {
      if (isAlive(relayPid)) process.kill(relayPid, 'SIGKILL');
    });
    parent.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...initialize(0) }) + '\n');
    await waitFor(() => hub.engine.hub.sessions.size === 1, 'the relay session');
    parent.kill('SIGKILL');
    await waitFor(() => !isAlive(relayPid), 'the orphaned relay to exit', 5000);
    await waitFor(() => hub.engine.hub.sessions.size === 0, 'the relay to delete its session', 5000);
  });

  it('with --no-start and no hub, answers initialize with an error that says what to do', async () => {
    const home = await tempHome();
    const relay = spawnRelay(home, ['fx', '--no-start']);
    relay.write(initialize(0));
    const answer = await relay.answer(0);
    expect((answer.error as { message: string }).message).toMatch(/no hub is running.*patchbay serve/);
    expect(await hubRecord(home)).toBeUndefined();
  });

  it('passes the hub error through for a server that is not configured', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['nope']);
    relay.write(initialize(0));
    const answer = await relay.answer(0);
    expect((answer.error as { message: string }).message).toContain("no server 'nope' is configured");
  });
});
