// Retention under load: 100k messages through the taps, every cap checked, then a restart.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log/logger.js';
import type { SessionCapture } from '../traffic/capture-tap.js';
import { historyFileName, listHistoryFiles, loadSessionIndex } from './history-read.js';
import { Inspector } from './inspector.js';
import { inspectorLimits, type InspectorLimits } from './settings.js';

/** What the hub tells its observers when it opens a session of a stdio server. */
const opened = (serverId: string) => ({ key: {}, serverId, clientTransport: 'streamable-http', upstreamTransport: 'stdio', debug: false });
const KiB = 1024;
const MiB = 1024 * KiB;
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(overrides: Partial<InspectorLimits>): Promise<Inspector> {
  dir ??= await mkdtemp(path.join(tmpdir(), 'pb-retention-'));
  return Inspector.open({ dataDir: dir, limits: inspectorLimits(undefined, overrides), logger: createLogger('test') });
}

const limits: Partial<InspectorLimits> = {
  maxEventsPerSession: 1000,
  maxEvents: 5000,
  maxMemoryBytes: 2 * MiB,
  historyFileBytes: 256 * KiB,
  historyMaxBytes: 2 * MiB,
};

describe('inspector retention', () => {
  it('holds every memory and disk cap under 100k messages, and history survives a reopen', async () => {
    const inspector = await open(limits);
    const taps = Array.from({ length: 8 }, (_, i) => inspector.traffic.sessionOpened(opened(`srv${i % 2}`)) as SessionCapture);
    const padding = 'x'.repeat(100);
    for (let n = 0; n < 100_000; n += 2) {
      const tap = taps[(n / 2) % taps.length]!;
      const request = `{"jsonrpc":"2.0","id":${n},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${padding}"}}}`;
      const response = `{"jsonrpc":"2.0","id":${n},"result":{"content":[{"type":"text","text":"${padding}"}]}}`;
      tap.toServer(JSON.parse(request), request, undefined);
      tap.fromServer(JSON.parse(response), response);
      // A drain's worth at a time (the queue is drained on setImmediate in the engine).
      if (n % 200 === 0) {
        inspector.flush();
        expect(inspector.memory.all.length).toBeLessThanOrEqual(5000);
        expect(inspector.memory.bytes).toBeLessThanOrEqual(2 * MiB);
        for (const r of inspector.memory.sessions.values()) expect(r.events.length).toBeLessThanOrEqual(1000);
      }
    }
    inspector.flush();
    expect(inspector.memory.all.length).toBeLessThanOrEqual(5000);
    expect(inspector.memory.evicted).toBeGreaterThan(90_000);
    expect(inspector.queue.dropped).toBe(0);
    for (const r of inspector.memory.sessions.values()) {
      expect(r.events.length).toBeLessThanOrEqual(1000);
      expect(r.tracker.exchanges.length).toBeLessThanOrEqual(1000);
      // Exchanges leave memory with their session's events (the global cap bounds them too).
      expect(r.tracker.exchanges.first!.requestSeq).toBeGreaterThanOrEqual(r.events.first!.seq);
      expect(r.tracker.counts.ok).toBe(100_000 / 2 / taps.length);
    }
    const lastSeq = inspector.lastSeq;
    await inspector.close();
    await inspector.writer!.prune();

    const files = await listHistoryFiles(inspector.historyDir);
    const total = files.reduce((n, f) => n + f.size, 0);
    expect(files.length).toBeGreaterThan(2);
    expect(total).toBeLessThanOrEqual(2 * MiB);
    // A file closes once it passes the size limit (by at most one drain's batch).
    for (const f of files) expect(f.size).toBeLessThanOrEqual(256 * KiB + 128 * KiB);
    expect(files[0]!.firstSeq).toBeGreaterThan(1);

    // Reopened: cursors continue, and every session is known (each file restates its sessions).
    const reopened = await Inspector.open({ dataDir: dir!, limits: inspectorLimits(undefined, limits), logger: createLogger('test') });
    await reopened.historyReady;
    expect(reopened.lastSeq).toBe(lastSeq);
    expect(reopened.memory.past.size).toBe(taps.length);
    for (const s of reopened.memory.past.values()) expect(s.state).toBe('closed');
    await reopened.close();
  });

  it('deletes history past the age limit when it opens', async () => {
    const first = await open({ historyMaxAgeMs: 24 * 60 * 60 * 1000 });
    const old = path.join(first.historyDir, historyFileName(1));
    await writeFile(old, '');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await utimes(old, eightDaysAgo, eightDaysAgo);
    await first.close();
    const second = await open({ historyMaxAgeMs: 24 * 60 * 60 * 1000 });
    expect((await listHistoryFiles(second.historyDir)).map((f) => f.name)).not.toContain(historyFileName(1));
    await second.close();
  });

  it('marks sessions cut off by a stop as closed, with the reason', async () => {
    const inspector = await open({});
    const tap = inspector.traffic.sessionOpened(opened('srv'))!;
    tap.fromClient({ jsonrpc: '2.0', id: 1, method: 'ping' }, undefined, undefined, undefined);
    inspector.flush();
    await inspector.writer!.settled();
    const index = await loadSessionIndex(inspector.historyDir);
    expect([...index.values()]).toEqual([expect.objectContaining({ state: 'closed', endReason: 'the hub stopped before the session ended' })]);
    await inspector.close();
  });
});
