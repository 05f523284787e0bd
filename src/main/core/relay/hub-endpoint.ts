/**
 * Where `patchbay relay <server>` sends its messages: the server's endpoint on the hub of a data
 * dir, with the hub token read from that dir (the only credential the relay ever holds). Looked
 * up lazily and again after the hub stopped answering, so a restarted hub (or one on a new port)
 * is found.
 */
import { readFile } from 'node:fs/promises';
import { errCode } from '../fs/err-code.js';
import { dataPaths } from '../paths.js';
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

/** The hub token, or undefined when there is none (a hub started with --no-auth needs none). */
export async function readHubToken(tokenFile: string): Promise<string | undefined> {
  try {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    return token === '' ? undefined : token;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw new Error(`cannot read the hub token ${tokenFile}: ${(err as Error).message}`);
  }
}
