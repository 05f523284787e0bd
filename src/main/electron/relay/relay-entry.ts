/**
 * The relay of the installed app: what Claude Desktop runs as
 *   <app executable> <resources>/relay/patchbay-relay.mjs relay <server>   (ELECTRON_RUN_AS_NODE=1)
 * It is plain Node (no `electron` import) and is bundled from relay-main.ts into that one file
 * by scripts/build-electron.mjs, so it needs nothing from app.asar or from a Node.js install.
 *
 * It is `patchbay relay <server>` (src/main/relay) with one difference: when no hub runs, it starts
 * the desktop app in the tray (`--hidden`) instead of `patchbay serve`.
 */
import os from 'node:os';
import path from 'node:path';
import { createLogger, scrubText } from '../../core/index.js';
import { resolveDataDir } from '../../core/index.js';
import { hubEndpointSource, runStdioRelay } from '../../relay/index.js';
import { appLaunchCommand } from '../relay-launcher.js';

const USAGE = 'usage: patchbay-relay relay [<server>|@<profile>] [--data-dir DIR] [--no-start]';
/** Same rule as config ids (shared/config-schema.ts), kept here so the relay need not load zod; `@name` is a profile. */
const SERVER_ID = /^@?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface RelayArgs {
  server: string;
  dataDir?: string;
  noStart: boolean;
}

export function parseRelayArgs(argv: readonly string[]): { ok: true; value: RelayArgs } | { ok: false; message: string } {
  const [command, ...rest] = argv;
  if (command !== 'relay') return { ok: false, message: USAGE };
  let server: string | undefined;
  let dataDir: string | undefined;
  let noStart = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--no-start') noStart = true;
    else if (arg === '--data-dir') {
      dataDir = rest[++i];
      if (dataDir === undefined) return { ok: false, message: '--data-dir needs a folder' };
    } else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else if (arg.startsWith('-')) {
      return { ok: false, message: `${arg} is not an option of the app's relay (for --url and the rest, use the patchbay CLI); ${USAGE}` };
    } else if (server === undefined) server = arg;
    else return { ok: false, message: `unexpected argument '${arg}'; ${USAGE}` };
  }
  // No SERVER: the default profile, the hub's `/mcp` (every enabled server), as `patchbay relay` does.
  if (server !== undefined && !SERVER_ID.test(server)) return { ok: false, message: 'SERVER must be a server id from the config (letters, digits, ".", "_" and "-"), or @ and a profile name' };
  return { ok: true, value: { server: server ?? '', noStart, ...(dataDir !== undefined ? { dataDir } : {}) } };
}

export async function relayEntry(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parseRelayArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`patchbay: ${parsed.message}\n`);
    return 2;
  }
  const { server, noStart } = parsed.value;
  // The app this relay may start must run as the app, not as Node like this process.
  delete env.ELECTRON_RUN_AS_NODE;
  const dataDir = parsed.value.dataDir !== undefined ? path.resolve(parsed.value.dataDir) : resolveDataDir({ env, platform: process.platform, homedir: os.homedir() });
  const logger = createLogger('relay');
  const endpoint = hubEndpointSource(server, { dataDir, serveCommand: appLaunchCommand(env, process.execPath), autoStart: !noStart, logger });
  try {
    await runStdioRelay({ stdin: process.stdin, stdout: process.stdout, endpoint, logger });
    return 0;
  } catch (err) {
    process.stderr.write(`patchbay: ${scrubText(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
}
