/**
 * `patchbay tail` carries the trace of an exchange telemetry traced (issue 23): `--json` has
 * `trace.traceId` and `trace.spanId` (the hub's span for the request), the plain line the first 8
 * digits of the trace id. The hub runs with a tracer as telemetry gives it one (the hub's own
 * `traceFor`, every trace sampled); the client names its trace in `_meta.traceparent`.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/run-cli.js';
import { traceFor, type TraceContext } from '../../src/main/core/hub/tracing.js';
import type { ExchangeSummary } from '../../src/shared/api/inspector-contract.js';
import '../helpers/cleanup.js';
import { cli } from '../helpers/cli-io.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

describe('patchbay tail with telemetry on', () => {
  it('prints the trace ids in JSON, and the short trace id on the plain line', async () => {
    const made: TraceContext[] = [];
    const hub = await startHub({
      servers: { probe: probeServer() },
      engine: { tracer: { begin: (incoming, options) => made[made.push(traceFor(incoming, { ...options, sample: () => true })) - 1] } },
    });
    const client = await connect(hub, 'probe');
    const json = cli(hub.dataDir);
    const plain = cli(hub.dataDir);
    const tailingJson = runCli(['tail', '--server', 'probe', '--json', '--count', '1'], json.io);
    const tailingPlain = runCli(['tail', '--server', 'probe', '--count', '1'], plain.io);
    // tail starts from the present: call until both printed (bounded by a deadline).
    const started = Date.now();
    while ((json.out() === '' || plain.out() === '') && Date.now() - started < 10_000) await client.callTool('echo', { text: 'traced' }, { traceparent: PARENT });
    expect(await tailingJson).toBe(0);
    expect(await tailingPlain).toBe(0);

    const printed = JSON.parse(json.out()) as ExchangeSummary;
    const ctx = made.find((c) => c.spanId === printed.trace?.spanId);
    expect(printed).toMatchObject({ method: 'tools/call', trace: { traceId: TRACE, spanId: ctx?.spanId } });
    expect(printed.trace!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(plain.out()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+patchbay-hub-test\s+probe\s+tools\/call\s+[\d.]+ms\s+ok {2}trace 4bf92f35\n$/);
  });
});
