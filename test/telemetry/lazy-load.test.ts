/**
 * Issue 23: with telemetry off, nothing of it is loaded. The built CLI (`patchbay serve`) runs
 * under a module-resolution hook that logs every URL it resolves (fixtures/resolve-log.mjs); a
 * client initializes and calls a tool, so the whole per-message path has run. Off (no endpoint,
 * or OTEL_SDK_DISABLED=true with one): no `@opentelemetry` package and nothing of
 * dist/main/core/telemetry was resolved. On (the control): both were.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { probeServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import type { TestHub } from '../helpers/test-hub.js';
import { startServeProcess } from '../helpers/serve-process.js';

const HOOK = path.join(REPO_ROOT, 'test', 'telemetry', 'fixtures', 'resolve-log.mjs');

beforeAll(() => ensureBuilt(), 180_000);

/** `patchbay serve` under the resolve log, a tool call through it, then stopped; what it resolved. */
async function resolvedBy(env: Record<string, string>): Promise<string[]> {
  const dataDir = await tempDir('patchbay-lazy-load-');
  const log = path.join(dataDir, 'resolved.txt');
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { p: probeServer() } }));
  await writeFile(log, '');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const { url, child, exited } = await startServeProcess({ dataDir, baseEnv: clean, nodeArgs: ['--import', HOOK], env: { RESOLVE_LOG: log, ...env } });
  const hub = { url, mcpUrl: (id: string) => `${url}/mcp/${encodeURIComponent(id)}`, authHeader: () => ({}) } as unknown as TestHub;
  const client = await connect(hub, 'p');
  expect(await client.tool('echo', { text: 'through the hub' })).toBe('through the hub');
  child.kill('SIGTERM');
  await exited;
  return (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '');
}

const telemetryLoaded = (urls: string[]): string[] => urls.filter((u) => u.includes('/node_modules/@opentelemetry/') || /\/(dist|src)\/main\/core\/telemetry\//.test(u));

describe('telemetry off loads nothing of it', () => {
  it('no endpoint: neither telemetry/ nor any @opentelemetry package is resolved; with one, both are', async () => {
    const off = await resolvedBy({});
    expect(off.some((u) => u.includes('/dist/main/core/engine/engine.js'))).toBe(true);
    expect(telemetryLoaded(off)).toEqual([]);
    const on = await resolvedBy({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_TIMEOUT: '200' });
    expect(on.some((u) => u.endsWith('/dist/main/core/telemetry/start-telemetry.js'))).toBe(true);
    expect(on.some((u) => u.includes('/node_modules/@opentelemetry/exporter-trace-otlp-proto/'))).toBe(true);
    // Only the chosen protocol's exporter: no gRPC for http/protobuf.
    expect(on.some((u) => u.includes('/node_modules/@opentelemetry/exporter-trace-otlp-grpc/'))).toBe(false);
  });

  it('OTEL_SDK_DISABLED=true with an endpoint: nothing of it is resolved', async () => {
    const disabled = await resolvedBy({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(telemetryLoaded(disabled)).toEqual([]);
  });
});
