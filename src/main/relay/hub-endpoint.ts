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
  const resolve = async (): Promise<HubEndpoint> => {
    const hub = await ensureHub(launch);
    const token = await readHubToken(dataPaths(launch.dataDir).tokenFile);
    return { url: `${hub.url}/mcp/${encodeURIComponent(serverId)}`, token };
  };
  return {
    get() {
      const attempt = (current ??= resolve());
      // A failed lookup is not cached: the next message tries again.
      attempt.catch(() => {
        if (current === attempt) current = undefined;
      });
      return attempt;
    },
    invalidate() {
      current = undefined;
    },
  };
}
