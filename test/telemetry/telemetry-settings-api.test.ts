/**
 * The telemetry settings API (issue 23) against a real engine over HTTP on loopback, as the UI
 * calls it: the block as stored and the settings in effect with their sources, a bad URL refused
 * with words that say what to write, a change written to config.json atomically (keys the panel
 * does not edit kept, `${secret:NAME}` kept as the reference), whether it needs a restart, and a
 * trace opened in the configured viewer through the shell's opener.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TelemetryView } from '../../src/shared/api/telemetry-contract.js';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { setEnv } from '../helpers/env.js';

const SECRET_VALUE = 'otlp-token-value-0123456789';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

async function configOnDisk(h: TestHub): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(h.dataDir, 'config.json'), 'utf8')) as Record<string, unknown>;
}

async function view(h: TestHub): Promise<TelemetryView> {
  const r = await apiCall<TelemetryView>(h, 'telemetry.settings');
  expect(r.ok).toBe(true);
  return r.value!;
}


describe('telemetry settings API', () => {
  it('reads, refuses a bad URL clearly, writes config.json, keeps secret references and what it does not edit', async () => {
    // A block with a key the panel does not edit: it must survive every change.
    const h = await startHub({ servers: {}, secrets: { OTLP_TOKEN: SECRET_VALUE }, config: { telemetry: { resourceAttributes: { team: 'obs' } } } });

    const fresh = await view(h);
    expect(fresh).toMatchObject({ config: { resourceAttributes: { team: 'obs' } }, status: 'off', appliesLive: false, missingSecrets: [] });
    expect(fresh.effective.on).toBe(false);
    expect(fresh.effective.reason).toMatch(/^Off: no OTLP endpoint is set/);
    // The engine reports its exporter: none runs (telemetry was off when it started).
    expect(fresh.active).toBe(false);
    expect(fresh).not.toHaveProperty('exporter');
    expect(fresh.configFile).toBe(path.join(h.dataDir, 'config.json'));

    const bad = await apiCall(h, 'telemetry.update', { endpoint: 'localhost:4318' });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_input', message: 'Invalid input for telemetry.update: endpoint: use an http(s) URL, e.g. http://localhost:4318' });
    const badViewer = await apiCall(h, 'telemetry.update', { traceViewerUrl: 'http://localhost:16686/trace/' });
    expect(badViewer.message).toContain('traceViewerUrl: the URL must contain {traceId}');
    const badRef = await apiCall(h, 'telemetry.update', { headers: { authorization: '${secret:not a name}' } });
    expect(badRef).toMatchObject({ ok: false, code: 'secret_ref_invalid' });
    expect(await configOnDisk(h)).toEqual({ mcpServers: {}, telemetry: { resourceAttributes: { team: 'obs' } } });

    const patch = {
      endpoint: 'http://127.0.0.1:4318',
      protocol: 'http/json',
      headers: { authorization: '${secret:OTLP_TOKEN}', 'x-missing': '${secret:NOT_STORED}' },
      serviceName: 'patchbay-api-test',
      sampler: 'parentbased_traceidratio',
      samplerArg: 0.5,
      captureContent: true,
    };
    const saved = await apiCall<{ settings: TelemetryView; restartRequired: boolean }>(h, 'telemetry.update', patch);
    expect(saved.ok).toBe(true);
    expect(saved.value!.restartRequired).toBe(true);
    // A header's stored key is missing: the exporter would not start, and the answer says so.
    expect(saved.value!.settings).toMatchObject({ status: 'off', missingSecrets: ['NOT_STORED'] });
    expect(saved.value!.settings.effective).toMatchObject({ on: false, endpoint: { value: 'http://127.0.0.1:4318', source: 'config' }, samplerArg: { value: 0.5, source: 'config' } });
    expect(saved.value!.settings.effective.reason).toBe('Off: the headers use stored keys that do not exist (NOT_STORED), and telemetry does not start without them.');
    expect(saved.value!.settings.effective.headers).toContainEqual({ name: 'authorization', source: 'config', secret: 'OTLP_TOKEN' });

    const disk = await configOnDisk(h);
    // What was there stays; the patch is added, references as written.
    expect(disk.telemetry).toEqual({ resourceAttributes: { team: 'obs' }, ...patch });
    // The secret's value is nowhere: not in the file, not in any answer.
    expect(await readFile(path.join(h.dataDir, 'config.json'), 'utf8')).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(saved)).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(await view(h))).not.toContain(SECRET_VALUE);
    // The engine re-read what it wrote: its config is the file's.
    expect(h.engine.config.get().telemetry).toEqual(disk.telemetry);

    // The viewer URL is the UI's alone: no restart. null removes a key.
    const viewer = await apiCall<{ settings: TelemetryView; restartRequired: boolean }>(h, 'telemetry.update', { traceViewerUrl: 'http://localhost:16686/trace/{traceId}' });
    expect(viewer.value!.restartRequired).toBe(false);
    // With the missing key stored, the settings turn telemetry on; this hub's exporter is not running (it starts with the hub): stopped.
    await h.engine.secrets.set('NOT_STORED', 'another-value-0123');
    expect(await view(h)).toMatchObject({ status: 'stopped', missingSecrets: [], effective: { on: true } });
    expect(viewer.value!.settings.effective.traceViewerUrl).toEqual({ value: 'http://localhost:16686/trace/{traceId}', source: 'config' });
    const cleared = await apiCall<{ settings: TelemetryView; restartRequired: boolean }>(h, 'telemetry.update', { samplerArg: null });
    expect(cleared.value!.restartRequired).toBe(true);
    expect((await configOnDisk(h)).telemetry).not.toHaveProperty('samplerArg');
    // Removing every key removes the block.
    const keys = Object.keys(h.engine.config.get().telemetry ?? {});
    expect((await apiCall(h, 'telemetry.update', Object.fromEntries(keys.map((k) => [k, null])))).ok).toBe(true);
    expect(await configOnDisk(h)).not.toHaveProperty('telemetry');
  });

  it("the hub's environment: each effective value names where it comes from", async () => {
    setEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:4999');
    setEnv('OTEL_SERVICE_NAME', 'from-the-environment');
    const h = await startHub({ servers: {}, config: { telemetry: { serviceName: 'from-config' } } });
    const v = await view(h);
    // The engine started the exporter with these settings: its own state says so.
    expect(v.status).toBe('running');
    expect(v.active).toBe(true);
    expect(v.exporter).toMatchObject({ active: true, protocol: 'http/protobuf', endpoint: 'http://127.0.0.1:4999/v1/traces, http://127.0.0.1:4999/v1/metrics', followsConfig: false });
    expect(v.appliesLive).toBe(false);
    expect(v.effective.reason).toBe("On: exporting to http://127.0.0.1:4999 (from OTEL_EXPORTER_OTLP_ENDPOINT in the hub's environment).");
    expect(v.effective.serviceName).toEqual({ value: 'from-the-environment', source: 'environment', variable: 'OTEL_SERVICE_NAME', overrides: 'config' });
    expect(v.config).toEqual({ serviceName: 'from-config' });
  });

  it('opens a trace in the configured viewer through the shell’s opener, and says why when it cannot', async () => {
    const opened: string[] = [];
    const h = await startHub({ servers: {}, engine: { openUrl: (url) => void opened.push(url) } });
    expect(await apiCall(h, 'telemetry.openTrace', { traceId: TRACE_ID })).toMatchObject({ ok: false, code: 'no_trace_viewer' });
    expect(await apiCall(h, 'telemetry.openTrace', { traceId: 'not-a-trace' })).toMatchObject({ ok: false, code: 'invalid_input' });
    await apiCall(h, 'telemetry.update', { traceViewerUrl: 'http://localhost:16686/trace/{traceId}' });
    expect(await apiCall(h, 'telemetry.openTrace', { traceId: TRACE_ID })).toEqual({ ok: true, value: { url: `http://localhost:16686/trace/${TRACE_ID}` } });
    expect(opened).toEqual([`http://localhost:16686/trace/${TRACE_ID}`]);
  });
});
