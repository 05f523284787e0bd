/**
 * Telemetry's commands: load the settings (in effect, with sources, and as stored), save a change
 * to the `telemetry` block, and open a trace in the configured viewer the desktop way.
 */
import type { TelemetryUpdate } from '../../shared/api/telemetry-contract.js';
import { unwrap } from '../bridge/bridge.js';
import type { Services } from './services.js';

export async function loadTelemetry({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('telemetry.settings', {});
  if (r.ok) stores.app.getState().telemetryLoaded(r.value);
  else stores.app.getState().telemetryFailed(r.message);
}

/** Saves a change (null removes a key); throws a CallError with the engine's words when refused. */
export async function saveTelemetry({ bridge, stores }: Services, patch: TelemetryUpdate): Promise<{ restartRequired: boolean }> {
  const { settings, restartRequired } = await unwrap(bridge.call('telemetry.update', patch));
  stores.app.getState().telemetrySaved(settings, restartRequired);
  stores.notices.getState().noticePosted(restartRequired ? 'Telemetry settings saved: restart the hub to apply them' : 'Telemetry settings saved');
  return { restartRequired };
}

/**
 * Opens a trace in the viewer. A browser tab follows the link itself; the desktop window lets no
 * link out that the app did not make, so there the engine opens the URL it builds from the
 * config (telemetry.openTrace) with the shell's opener.
 */
export async function openTrace({ bridge }: Services, traceId: string): Promise<void> {
  await unwrap(bridge.call('telemetry.openTrace', { traceId }));
}
