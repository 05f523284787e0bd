/**
 * Issue 23: a collector that is down or hangs never slows or fails a call. The hub exports to a
 * closed loopback port: calls succeed, the spans that could not be sent are dropped and counted,
 * the log says so once — and once more when a collector comes up on that port and takes the
 * exports again — the Settings panel's state counts both, and closing the hub does not hang on
 * what is left. A collector that accepts and never answers: calls still complete (a hub that
 * waited on its exports would hang there, and the test would time out — no clock is asserted).
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { setLogLevel, setLogSink, type LogRecord } from '../../src/main/core/log/logger.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { startReceiver } from './otlp-receiver.js';
import './telemetry-harness.js';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The exporter retries a refused connection with backoff until its timeout (10 s by default):
// shorter here, so the dropped batches are counted within the test's time.
process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '1000';

afterEach(() => {
  setLogSink(undefined);
  setLogLevel('warn');
});

describe('a collector that is down', () => {
  it('costs a call nothing: spans are dropped, counted and said once; its return is said once; close does not hang', async () => {
    const records: LogRecord[] = [];
    setLogSink((r) => records.push(r));
    // The recovery is said at info (a failure at warn).
    setLogLevel('info');
    const port = await closedPort();
    const h = await startHub({ servers: { p: probeServer() }, config: { telemetry: { endpoint: `http://127.0.0.1:${port}` } } });
    const telemetry = h.engine.telemetry!;
    expect(telemetry).toBeDefined();
    const client = await connect(h, 'p');
    for (let i = 0; i < 30; i++) expect(await client.tool('echo', { text: `call ${i}` })).toBe(`call ${i}`);
    await waitFor(() => telemetry.dropped.spans >= 60, 'the spans of 30 calls dropped and counted', 10_000);
    const down = () => records.filter((r) => r.message.includes('the collector did not take'));
    await waitFor(() => down().length > 0, 'the warning');
    for (let i = 0; i < 10; i++) await client.tool('echo', { text: 'more' });
    // Those calls' spans failed too (counted): the warning was still said only once.
    await waitFor(() => telemetry.dropped.spans >= 80, 'the spans of 10 more calls dropped and counted', 10_000);
    expect(down()).toHaveLength(1);
    expect(down()[0]!.level).toBe('warn');

    // A collector comes up on that port: exports go through again, and the log says it once.
    const receiver = await startReceiver('http/protobuf', port);
    await client.tool('echo', { text: 'after' });
    await waitFor(() => receiver.spans.some((s) => s.name === 'tools/call echo'), 'spans at the collector that came up', 10_000);
    const back = records.filter((r) => r.message.includes('takes exports again'));
    expect(back).toHaveLength(1);
    expect(back[0]!.message).toMatch(/\d+ spans dropped meanwhile/);
    // What the Settings panel shows: running, what went through, what was dropped, the last failure.
    await waitFor(() => telemetry.state().exported!.spans! > 0, 'an exported span counted');
    const view = (await h.engine.api.invoke('telemetry.settings', {})) as { ok: true; value: { status: string; exporter: Record<string, unknown> } };
    expect(view.ok).toBe(true);
    expect(view.value.status).toBe('running');
    expect(view.value.exporter).toMatchObject({ active: true, protocol: 'http/protobuf', endpoint: expect.stringContaining(`127.0.0.1:${port}/v1/traces`) });
    expect((view.value.exporter.dropped as { spans: number }).spans).toBeGreaterThanOrEqual(60);
    expect((view.value.exporter.lastError as { message: string }).message).toMatch(/^(traces|metrics): \S/);
    await receiver.close();

    // The collector is gone again with spans pending: closing waits at most its short timeout.
    await client.tool('echo', { text: 'last' });
    await h.close();
  });

  it('a collector that accepts and never answers: calls complete, and so does close', async () => {
    // Takes connections and requests, answers nothing: the worst collector (a stuck proxy).
    const sockets = new Set<Socket>();
    const hanging = createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as { port: number };
    try {
      const h = await startHub({ servers: { p: probeServer() }, config: { telemetry: { endpoint: `http://127.0.0.1:${port}` } } });
      const client = await connect(h, 'p');
      for (let i = 0; i < 50; i++) expect(await client.tool('echo', { text: `call ${i}` })).toBe(`call ${i}`);
      await waitFor(() => sockets.size > 0, 'the exporter connected to the hanging collector');
      await h.close();
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
