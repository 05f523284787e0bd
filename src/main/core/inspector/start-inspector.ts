/**
 * The inspector as the engine wires it: opened (history, cursor) on the engine's capture pipeline
 * (traffic/start-traffic.ts), which hands it every event while capture is on, and the live route
 * the engine mounts.
 */
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import type { HttpRoute } from '../protocol/http-route.js';
import type { Logger } from '../log/logger.js';
import type { Traffic } from '../traffic/traffic.js';
import { Inspector } from './inspector.js';
import { inspectorLiveRoute } from './live-route.js';
import { inspectorLimits } from './settings.js';

export interface InspectorStartOptions {
  dataDir: string;
  config: PatchbayConfig;
  /** The pipeline whose events the inspector stores. */
  traffic: Traffic;
  logger: Logger;
  /** false turns capture off whatever the config says (the capture-cost benchmark). */
  capture?: boolean;
}

export interface InspectorWiring {
  inspector: Inspector;
  /** `/api/inspector/live`: mount before the generic `/api` route. */
  route: HttpRoute;
  close(): Promise<void>;
}

export async function startInspector(options: InspectorStartOptions): Promise<InspectorWiring> {
  const overrides = options.capture === false ? { enabled: false } : {};
  const inspector = await Inspector.open({ dataDir: options.dataDir, limits: inspectorLimits(options.config.inspector, overrides), logger: options.logger, traffic: options.traffic });
  return {
    inspector,
    route: inspectorLiveRoute(inspector),
    close: () => inspector.close(),
  };
}
