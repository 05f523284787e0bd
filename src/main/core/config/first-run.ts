/**
 * The first run: a fresh data dir (no config file, no hub token yet) starts with Patchbay's demo
 * server in its config, marked `"demo": true`, so a new user sees a working server, its tools
 * and live traffic at once instead of "no servers yet". The entry is an ordinary stdio server
 * (commands come from the config only, P28) and is removed like any other.
 */
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from '../../../shared/config-schema.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { createLogger } from '../log/logger.js';

const log = createLogger('config');

/** The server id the demo gets in a fresh config. */
export const DEMO_SERVER_ID = 'demo';

/**
 * The demo server as run by this Node: `node <dist>/main/demo/demo-server.js`. Undefined inside
 * Electron, where the app's executable runs scripts only in Node mode and the script sits where
 * the packaged app puts it: the desktop shell passes its own entry (EngineOptions.demoServer).
 */
export function defaultDemoServer(): StdioServerConfig | undefined {
  if (process.versions.electron !== undefined) return undefined;
  const script = fileURLToPath(new URL('../../demo/demo-server.js', import.meta.url));
  return { command: process.execPath, args: [script], demo: true };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a config with the demo server when the data dir is fresh: neither `configFile` nor
 * `tokenFile` exists. A data dir that ran before (even with its config deleted since) is left
 * alone. True when the config was written.
 */
export async function seedFirstRunConfig(paths: { configFile: string; tokenFile: string }, demo: StdioServerConfig | undefined): Promise<boolean> {
  if (!demo || (await exists(paths.configFile)) || (await exists(paths.tokenFile))) return false;
  const config = { mcpServers: { [DEMO_SERVER_ID]: { ...demo, demo: true } } };
  await writeFileAtomic(paths.configFile, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  log.info(`first run: added Patchbay's demo server to ${paths.configFile} (remove it any time)`);
  return true;
}
