/**
 * `patchbay relay <server>`: lets a stdio-only MCP client (Claude Desktop) use a server of the
 * hub. `patchbay relay --url URL`: the same for a remote server that is not in the config, with
 * an engine embedded in the relay (its OAuth and reconnect logic) instead of the shared hub.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, scrubText } from '../../core/index.js';
import { hubEndpointSource, runStdioRelay, runUrlRelay, type RemoteRelayFlags } from '../../relay/index.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIo, type CommandContext, type OptionValues } from '../command.js';
import { cliDataPaths, DATA_DIR_OPTION } from '../locations.js';
import { multipleValue, parseCommandArgs, stringValue } from '../parse-args.js';

/** bin/patchbay.js, four levels above this file in both src/ and dist/. */
const BIN = fileURLToPath(new URL('../../../../bin/patchbay.js', import.meta.url));

export const relayCommand: CliCommand = {
  name: 'relay',
  summary: 'Pipe a stdio MCP client (e.g. Claude Desktop) to a server or a profile of the hub, or to a remote URL',
  details: [
    'Reads JSON-RPC lines on stdin and writes only JSON-RPC lines on stdout; logs go to stderr.',
    'With SERVER it talks to http://127.0.0.1:<port>/mcp/SERVER on the hub of the data dir, found',
    'through <data dir>/hub.json, and starts the hub in the background if none runs (its output',
    'goes to <data dir>/logs/hub.log). It holds no secret but the hub token. If the hub restarts,',
    'or forgets the session, it re-creates the session (replaying initialize) and goes on. It exits',
    'when stdin closes or its parent dies, deleting its session first.',
    '',
    'With @PROFILE it talks to the profile\'s aggregated endpoint, /mcp/@PROFILE: the servers of',
    'that profile as one (docs/profiles.md). With neither SERVER nor --url: the default profile,',
    '/mcp (every enabled server).',
    '',
    'With --url it needs no hub and no config: it runs an engine of its own for that one server,',
    'with OAuth (the browser opens for the login; $BROWSER is honoured) and reconnects. Header',
    'values may reference stored secrets as ${secret:NAME} (see patchbay secrets set).',
  ].join('\n'),
  positionals: [
    {
      name: 'SERVER',
      description: 'Id of a server in the hub config, or @PROFILE for a profile (omitted: the default profile; omit with --url)',
      optional: true,
    },
  ],
  options: [
    {
      name: 'url',
      type: 'string',
      valueName: 'URL',
      description: 'Relay to this remote MCP server instead of a server of the hub',
    },
    {
      name: 'header',
      type: 'string',
      multiple: true,
      valueName: '"K: V"',
      description: 'With --url: an HTTP header sent to the server (repeatable), e.g. "Authorization: Bearer ${secret:TOKEN}"',
    },
    {
      name: 'transport',
      type: 'string',
      valueName: 'auto|http|sse',
      description: 'With --url: http = Streamable HTTP, sse = legacy HTTP+SSE, auto = the first, else the second (default)',
    },
    {
      name: 'client-id',
      type: 'string',
      valueName: 'ID',
      description: 'With --url: OAuth client id registered in advance (for servers without dynamic registration)',
    },
    {
      name: 'client-secret',
      type: 'string',
      valueName: 'SECRET',
      description: 'With --client-id: its secret, for confidential clients (may be ${secret:NAME})',
    },
    {
      name: 'client-metadata-url',
      type: 'string',
      valueName: 'URL',
      description: 'With --url: an https URL of a Client ID Metadata Document to use as the OAuth client id',
    },
    {
      name: 'no-start',
      type: 'boolean',
      description: 'Do not start a hub when none is running; fail instead',
    },
    DATA_DIR_OPTION,
  ],
  examples: [
    {
      command: 'patchbay relay github',
      description: 'In a client config: {"command": "patchbay", "args": ["relay", "github"]}',
    },
    {
      command: 'patchbay relay @work',
      description: 'The servers of the profile "work", as one server',
    },
    {
      command: 'patchbay relay',
      description: 'Every enabled server of the hub, as one server (the default profile)',
    },
    {
      command: 'patchbay relay --url https://mcp.example.com/mcp',
      description: 'A remote server with OAuth, for a client that only speaks stdio',
    },
    {
      command: 'patchbay relay --url https://mcp.example.com/mcp --client-id my-app',
      description: 'The same with a pre-registered OAuth client',
    },
  ],
  run: relay,
};

/**
 * `patchbay relay …` without loading the other commands (and the engine they import): MCP
 * clients start a relay per session, so its start-up time is felt. For main.ts to call when the
 * first argument is `relay`; it answers exactly as runCli would (exit codes, messages).
 */
export async function relayMain(args: string[], io: CliIo): Promise<number> {
  if (args.some((a) => a === '--help' || a === '-h')) {
    const { runCli } = await import('../run-cli.js');
    return runCli(['relay', ...args], io);
  }
  try {
    const { values, positionals } = parseCommandArgs(relayCommand, args, 'relay');
    return await relay({ io, commandPath: 'relay', values, positionals });
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`patchbay relay: ${err.message}\nRun 'patchbay relay --help' for usage.\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`patchbay: ${scrubText(err instanceof Error ? err.message : String(err))}\n`);
    return EXIT_FAILURE;
  }
}

/**
 * The whole `patchbay relay …` process, for bin/patchbay.js: it runs this from the relay-only
 * bundle (dist/main/cli/relay/patchbay-relay.mjs, scripts/build-electron.mjs), one file and none
 * of the other commands, so a client's relay answers sooner. Ends as main.ts ends a relay: as soon
 * as stdout has taken the last line.
 */
export async function runRelayProcess(args: string[]): Promise<void> {
  // `… | head` closing stdout early is the client going away, not an error worth a stack.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, platform: process.platform, homedir: os.homedir(), cwd: process.cwd() };
  const code = await relayMain(args, io);
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
  // Should stdout never drain (a client that stopped reading), still go.
  setTimeout(() => process.exit(code), 2000).unref();
}

async function relay(ctx: CommandContext): Promise<number> {
  const { io, values, commandPath, positionals } = ctx;
  const url = stringValue(values, 'url', commandPath);
  const server = positionals[0];
  const remote = remoteOptions(values, commandPath);
  const logger = createLogger('relay');
  const dataDir = cliDataPaths(io, values, commandPath).dataDir;

  if (url !== undefined) {
    if (server !== undefined) {
      throw new UsageError('give either SERVER or --url, not both', commandPath);
    }
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new UsageError('--url must be an http(s) URL of an MCP endpoint', commandPath);
    }
    if (values['no-start'] === true) {
      throw new UsageError('--no-start applies to SERVER (a hub); --url runs its own engine', commandPath);
    }
    // Loaded only here: `relay <server>` must not pay for an engine it does not run.
    await runUrlRelay({ ...remote, url, dataDir, stdin: io.stdin, stdout: io.stdout, logger });
    return EXIT_OK;
  }
  // Same rule as config ids (shared/config-schema.ts), kept here so the relay need not load zod;
  // `@name` is a profile, and no SERVER at all the default profile (the hub's `/mcp`).
  if (server !== undefined && !/^@?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(server)) {
    throw new UsageError('SERVER must be a server id from the config (letters, digits, ".", "_" and "-"), or @ and a profile name', commandPath);
  }
  if (remote.given.length > 0) {
    const flags = remote.given.map((f) => `--${f}`).join(', ');
    throw new UsageError(`${flags} ${remote.given.length === 1 ? 'is' : 'are'} only for --url (a server of the hub brings its own settings)`, commandPath);
  }
  const endpoint = hubEndpointSource(server ?? '', {
    dataDir,
    // Its output goes to <data dir>/logs/hub.log: no one-time UI login link in a file on disk.
    serveCommand: { command: process.execPath, args: [BIN, 'serve', '--no-login-link'] },
    autoStart: values['no-start'] !== true,
    logger,
  });
  logger.debug(`relaying to ${server === undefined ? 'the default profile' : server.startsWith('@') ? `profile '${server.slice(1)}'` : `server '${server}'`} of the hub in ${path.resolve(dataDir)}`);
  await runStdioRelay({ stdin: io.stdin, stdout: io.stdout, endpoint, logger });
  return EXIT_OK;
}

const REMOTE_FLAGS = ['header', 'transport', 'client-id', 'client-secret', 'client-metadata-url'] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The --url flags, checked. Messages never echo values: a header or secret may be in them. */
function remoteOptions(values: OptionValues, commandPath: string): RemoteRelayFlags & { given: string[] } {
  const given = REMOTE_FLAGS.filter((f) => values[f] !== undefined);
  const out: RemoteRelayFlags & { given: string[] } = { given, headers: {}, transport: 'auto' };
  for (const header of multipleValue(values, 'header')) {
    const colon = header.indexOf(':');
    const name = colon === -1 ? '' : header.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) {
      throw new UsageError('--header must look like "Name: value" (a header name, a colon, then the value)', commandPath);
    }
    out.headers[name] = header.slice(colon + 1).trim();
  }
  const transport = stringValue(values, 'transport', commandPath);
  if (transport !== undefined) {
    if (transport !== 'auto' && transport !== 'http' && transport !== 'sse') {
      throw new UsageError('--transport must be auto, http or sse', commandPath);
    }
    out.transport = transport;
  }
  const clientId = stringValue(values, 'client-id', commandPath);
  const clientSecret = stringValue(values, 'client-secret', commandPath);
  const metadataUrl = stringValue(values, 'client-metadata-url', commandPath);
  if (clientSecret !== undefined && clientId === undefined) {
    throw new UsageError('--client-secret needs --client-id', commandPath);
  }
  if (clientId !== undefined && metadataUrl !== undefined) {
    throw new UsageError('give --client-id or --client-metadata-url, not both', commandPath);
  }
  if (metadataUrl !== undefined && !isHttpsUrl(metadataUrl)) {
    throw new UsageError('--client-metadata-url must be an https URL (a Client ID Metadata Document)', commandPath);
  }
  if (clientId !== undefined) out.clientId = clientId;
  if (clientSecret !== undefined) out.clientSecret = clientSecret;
  if (metadataUrl !== undefined) out.clientMetadataUrl = metadataUrl;
  return out;
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}
