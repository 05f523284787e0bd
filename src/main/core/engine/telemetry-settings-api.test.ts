// The seam for the exporter's live state: what `telemetry.settings` says with and without word
// from the telemetry module (its `state` provider), and whether a change needs a restart.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TelemetryExporterState } from '../../../shared/api/telemetry-contract.js';
import { ConfigStore } from '../config/config-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { telemetryHandlers, type TelemetryStateProvider } from './telemetry-settings-api.js';

const secrets: SecretStore = { get: async () => undefined, set: async () => undefined, delete: async () => false, list: async () => [] };
const opened: ConfigStore[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function handlers(state?: TelemetryStateProvider) {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-telemetry-'));
  const configFile = path.join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify({ mcpServers: {}, telemetry: { endpoint: 'http://127.0.0.1:4318' } }));
  const config = await ConfigStore.open(configFile);
  opened.push(config);
  return telemetryHandlers({ config, secrets, configFile, env: {}, ...(state ? { state } : {}) });
}

describe('telemetry settings: the live state seam', () => {
  it('without a provider: configured or off by the settings, and nothing said of `active`', async () => {
    const h = await handlers();
    const view = await h['telemetry.settings']({});
    expect(view.status).toBe('configured');
    expect(view).not.toHaveProperty('active');
    expect(view).not.toHaveProperty('exporter');
    expect(view.appliesLive).toBe(false);
  });

  it('with a provider: running or stopped, its counts and error passed on', async () => {
    let state: TelemetryExporterState | undefined = { active: true, endpoint: 'http://127.0.0.1:4318/v1/traces', dropped: { spans: 3, metricExports: 1 }, lastError: { message: 'ECONNREFUSED', at: '2026-01-01T00:00:00Z' } };
    const h = await handlers(() => state);
    expect(await h['telemetry.settings']({})).toMatchObject({ status: 'running', active: true, exporter: { dropped: { spans: 3, metricExports: 1 }, lastError: { message: 'ECONNREFUSED' } } });
    state = { active: false, reason: 'the exporter failed to start' };
    expect(await h['telemetry.settings']({})).toMatchObject({ status: 'stopped', active: false, exporter: { reason: 'the exporter failed to start' } });
    // Not started (it failed to, or the settings turned it on after the hub started): not running.
    state = undefined;
    expect(await h['telemetry.settings']({})).toMatchObject({ status: 'stopped', active: false });
    // Off by the settings, and not started: off.
    await h['telemetry.update']({ enabled: false });
    expect(await h['telemetry.settings']({})).toMatchObject({ status: 'off', active: false });
  });

  it('a change needs a restart unless the exporter follows config.json', async () => {
    let followsConfig = false;
    const h = await handlers(() => ({ active: true, followsConfig }));
    expect((await h['telemetry.update']({ serviceName: 'a' })).restartRequired).toBe(true);
    expect((await h['telemetry.update']({ serviceName: 'a' })).restartRequired).toBe(false);
    followsConfig = true;
    const live = await h['telemetry.update']({ serviceName: 'b' });
    expect(live.restartRequired).toBe(false);
    expect(live.settings.appliesLive).toBe(true);
  });
});
