/**
 * Flow control (issue 17 item 7): a stdio client that stops reading must not make the relay
 * buffer without bound, and nothing may be lost. A real relay process whose stdout is a pipe this
 * test leaves unread, a real hub (`patchbay serve`, its own process) and the probe fixture's
 * `flood` tool: tens of MiB of progress notifications on the tool call's stream. And `relay --url`,
 * whose embedded engine reaches that hub as a remote it cannot hold back: there the stdio door
 * judges the client's pace on the relay's stdout and gives the stream up past the cap.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { hasProc } from '../helpers/processes.js';
import { PROBE_SERVER } from '../helpers/server-entries.js';
import { floodHeldBack } from '../helpers/flood.js';
import { waitFor } from '../helpers/waits.js';
import { BIN, hubRecord, initialize, relayEnv, requireBuild, stopProcess, tempHome } from './relay-helpers.js';
import { skipNote } from '../helpers/skip-note.js';

beforeAll(requireBuild);

const COUNT = 4096;
const BYTES = 16 * 1024;

/** A field of /proc/<pid>/status in KiB (VmRSS now, VmHWM the peak so far). */
function procKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** A relay process spawned as a client would, its stdout collected line by line (pausable), stopped after the test. */
function spawnRelayProcess(args: string[], env: Record<string, string>) {
  const relay = spawn(process.execPath, [BIN, 'relay', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => relay.once('exit', (code) => resolve(code)));
  onCleanup(async () => {
    if (relay.exitCode !== null || relay.signalCode !== null) return;
    relay.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  relay.stderr.setEncoding('utf8');
  relay.stderr.on('data', (d: string) => (stderr += d));
  const lines: string[] = [];
  let buffer = '';
  relay.stdout.setEncoding('utf8');
  relay.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  const send = (message: Record<string, unknown>): void => void relay.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  return { relay, exited, lines, send, stderr: () => stderr };
}

describe('relay flow control', () => {
  it.runIf(hasProc())(skipNote(!hasProc(), 'pauses the hub while its client does not read, keeps its memory bounded, and loses nothing', 'the relay\'s memory is read from /proc, which this system lacks'), async () => {
    const home = await tempHome({ mcpServers: { probe: { command: process.execPath, args: [PROBE_SERVER] } } });
    const env = relayEnv(home);
    // The hub in a process of its own, so that what it holds is not counted anywhere here.
    const hub = spawn(process.execPath, [BIN, 'serve', '--data-dir', home], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    onCleanup(() => stopProcess(hub.pid!));
    await waitFor(() => hubRecord(home), 'the hub to write hub.json', 20_000);

    const { relay, exited, lines, send, stderr } = spawnRelayProcess(['probe'], env);
    send(initialize(0));
    send({ method: 'notifications/initialized' });
    await waitFor(() => lines.some((l) => l.includes('"id":0')), `the answer to initialize (stderr: ${stderr()})`, 20_000);
    const baseline = procKiB(relay.pid!, 'VmRSS');

    // From here on nobody reads the relay's stdout: the pipe fills, then its writes say "wait".
    relay.stdout.pause();
    const doneFile = path.join(home, 'flood.done');
    const waitFile = path.join(home, 'flood.wait');
    send({ id: 1, method: 'tools/call', params: { name: 'flood', arguments: { count: COUNT, bytes: BYTES, doneFile, waitFile }, _meta: { progressToken: 'flood' } } });
    // The hub holds its child back too (test/hub/backpressure.test.ts), so the flood stops part
    // way: once it has stood still for two seconds, everything that can pile up in front of the
    // relay has. (Only a wait: the assertions below hold whenever it returns.)
    await floodHeldBack({ doneFile, waitFile });

    relay.stdout.resume();
    await waitFor(() => lines.some((l) => l.includes('"id":1') && !l.includes('"method"')), 'the answer to the flood', 120_000, 50);
    const peak = procKiB(relay.pid!, 'VmHWM');
    const hubPeak = procKiB(hub.pid!, 'VmHWM');
    relay.stdin.end();
    expect(await exited).toBe(0);

    const messages = lines.map((l) => JSON.parse(l) as { id?: number; method?: string; params?: { progress?: number; message?: string } });
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m.params?.progress)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    expect(progress.every((m) => m.params?.message?.length === BYTES)).toBe(true);
    const answer = messages.find((m) => m.id === 1 && m.method === undefined);
    expect(JSON.stringify(answer)).toContain(`flooded ${COUNT}`);
    expect(messages.indexOf(answer!)).toBe(messages.length - 1);

    const mib = (kib: number): string => (kib / 1024).toFixed(1);
    console.log(`relay flow: ${mib((COUNT * BYTES) / 1024)} MiB of notifications; relay RSS ${mib(baseline)} MiB before, peak ${mib(peak)} MiB (the hub's peak: ${mib(hubPeak)} MiB)`);
    // Generous: without flow control the relay held every notification (measured: +227 MiB);
    // with it, what is in flight is a few socket chunks and the garbage of parsing them (+10 MiB).
    expect(peak - baseline).toBeLessThan(32 * 1024);
  }, 300_000);

  it.runIf(hasProc())(
    skipNote(!hasProc(), 'relay --url: a remote that floods a client that stopped reading has its stream given up past the cap, with an error for the call; the relay stays bounded', 'the relay\'s memory is read from /proc, which this system lacks'),
    async () => {
      // The remote: a hub of its own serving the probe over HTTP. The relay's embedded engine
      // reaches it as a remote, which cannot be held back: its flood reaches the relay whatever
      // the client does, so the stdio door must judge the client's pace (write-pace.ts) on stdout.
      const remoteHome = await tempHome({ mcpServers: { probe: { command: process.execPath, args: [PROBE_SERVER] } } });
      const remoteHub = spawn(process.execPath, [BIN, 'serve', '--data-dir', remoteHome], { env: relayEnv(remoteHome), stdio: ['ignore', 'ignore', 'pipe'] });
      onCleanup(() => stopProcess(remoteHub.pid!));
      const record = await waitFor(() => hubRecord(remoteHome), 'the remote hub to write hub.json', 20_000);
      const token = readFileSync(path.join(remoteHome, 'hub-token'), 'utf8').trim();

      const home = await tempHome();
      const { relay, exited, lines, send, stderr } = spawnRelayProcess(['--url', `${record.url}/mcp/probe`, '--header', `Authorization: Bearer ${token}`], relayEnv(home));
      send(initialize(0));
      send({ method: 'notifications/initialized' });
      await waitFor(() => lines.some((l) => l.includes('"id":0')), `the answer to initialize (stderr: ${stderr()})`, 20_000);
      const baseline = procKiB(relay.pid!, 'VmRSS');

      relay.stdout.pause();
      const doneFile = path.join(remoteHome, 'flood.done');
      send({ id: 1, method: 'tools/call', params: { name: 'flood', arguments: { count: COUNT, bytes: BYTES, doneFile }, _meta: { progressToken: 'flood' } } });
      // The remote hub's child runs to its end: nothing holds it back but the remote hub's own
      // reader, the relay's engine, which reads on.
      await waitFor(() => existsSync(doneFile), 'the flood to be written', 120_000, 100);
      relay.stdout.resume();
      await waitFor(() => lines.some((l) => l.includes('"id":1') && !l.includes('"method"')), `the answer to the flood (stderr: ${stderr().slice(-500)})`, 120_000, 50);
      const peak = procKiB(relay.pid!, 'VmHWM');
      relay.stdin.end();
      expect(await exited).toBe(0);

      const messages = lines.map((l) => JSON.parse(l) as { id?: number; method?: string; error?: { message?: string } });
      const answer = messages.find((m) => m.id === 1 && m.method === undefined);
      expect(answer?.error?.message).toMatch(/the client stopped reading this stream, and it was closed with \d+ MiB waiting in the hub/);
      const progress = messages.filter((m) => m.method === 'notifications/progress').length;
      const mib = (kib: number): string => (kib / 1024).toFixed(1);
      console.log(`relay --url flow: ${mib((COUNT * BYTES) / 1024)} MiB flooded by a remote; the client got ${progress} notifications, then the error; relay RSS ${mib(baseline)} MiB before, peak ${mib(peak)} MiB`);
      expect(progress).toBeLessThan(COUNT);
      // Without the door's pace judgement the relay took the whole flood into stdout's buffer
      // (measured: +222 MiB, every notification); with it +68–81 MiB — the remote's flood read and
      // dropped at the engine's pace, and the garbage of it — and the error after ~16 MiB.
      expect(peak - baseline).toBeLessThan(140 * 1024);
    },
    300_000,
  );
});
