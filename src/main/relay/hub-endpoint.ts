/**
 * Where `patchbay relay <server>` sends its messages: the server's endpoint on the hub of a data
 * dir, with the hub token read from that dir (the only credential the relay ever holds). Looked
 * up lazily and again after the hub stopped answering, so a restarted hub (or one on a new port)
 * is found.
 */
import { dataPaths, readHubToken } from '../core/index.js';
import { ensureHub, type LaunchOptions } from './hub-launcher.js';
import type { EndpointSource, HubEndpoint } from './relay-session.js';

export function hubEndpointSource(serverId: string, launch: LaunchOptions): EndpointSource {
  let current: Promise<HubEndpoint> | undefined;
  let found: HubEndpoint | undefined;
  const resolve = async (): Promise<HubEndpoint> => {
    const hub = await ensureHub(launch);
    const token = await readHubToken(dataPaths(launch.dataDir).tokenFile);
    return { url: `${hub.url}/mcp/${encodeURIComponent(serverId)}`, token };
  };
  return {
    get() {
      if (current === undefined) {
        const attempt = resolve();
        current = attempt;
        attempt.then(
          (endpoint) => {
            if (current === attempt) found = endpoint;
          },
          // A failed lookup is not cached: the next message tries again.
          () => {
            if (current === attempt) current = undefined;
          },
        );
      }
      return current;
    },
    invalidate(stale) {
      // Modern requests run side by side, so several may find the same hub gone: only the
      // endpoint they used is dropped, never a lookup a sibling has started since.
      if (stale !== undefined && found !== stale) return;
      current = undefined;
      found = undefined;
    },
  };
}
