/** `patchbay serve`: the headless shell — the same engine as the desktop app, on loopback, until a signal. */
import { ensureDataDir, loadEngine, platformOpener, type EngineOptions, type RunningEngine } from '../../core/index.js';
import {
  EXIT_OK,
  UsageError,
  type CliCommand,
  type CliIo,
  type CommandContext,
} from '../command.js';
import { cliConfigFile, cliDataPaths, CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';
import { LOG_FORMAT_OPTION, logFormatOf, serveOutput, type ServeOutput } from '../log-format.js';
import { stringValue } from '../parse-args.js';
import { DEPLOY_OPTIONS, deployInputs } from '../serve-deploy.js';

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Run the hub headless on 127.0.0.1 until Ctrl-C or SIGTERM',
  details: [
    'Serves every configured server at http://127.0.0.1:<port>/mcp/<server>. Clients must present',
    'the hub token stored in <data dir>/hub-token (the token itself is never printed).',
    'The UI is at http://127.0.0.1:<port>/ui/; a one-time login link for it is printed at start',
    '(not with --no-login-link or --log-format json: then log in on the page with the hub token).',
    'Behind a load balancer, as one of several replicas: --replica-id, --log-format json, the hub',
    'token and secrets from mounted files or the environment, and hub.allowedHosts (docs/deploy.md).',
    'Environment: PATCHBAY_REGISTRY_URL replaces the catalog\'s registries (config `registries`) with',
    'that one MCP registry URL (docs/catalog.md).',
  ].join('\n'),
  options: [
    CONFIG_OPTION,
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description:
        'Port to listen on (0 picks a free one; default: hub.port in config, else 39517)',
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'H',
      description: 'Address to bind (default 127.0.0.1); a non-loopback address keeps auth on',
    },
    {
      name: 'no-auth',
      type: 'boolean',
      description: 'Accept requests without the hub token (local testing only; loopback only)',
    },
    DATA_DIR_OPTION,
    {
      name: 'open',
      type: 'boolean',
      description: 'Open the UI in the default browser, logged in through a one-time link',
    },
    {
      name: 'no-login-link',
      type: 'boolean',
      description:
        'Do not print the one-time UI login link (output kept in a file: the relay starts the hub with it)',
    },
    LOG_FORMAT_OPTION,
    ...DEPLOY_OPTIONS,
  ],
  examples: [
    { command: 'patchbay serve', description: 'Run with the default data dir and port' },
    {
      command: 'patchbay serve --port 0 --data-dir /tmp/pb',
      description: 'A throwaway hub on a free port',
    },
    {
      command: 'patchbay serve --config ./servers.json --no-auth',
      description: 'Try a config without tokens (prints a warning)',
    },
    {
      command: 'patchbay serve --host 0.0.0.0 --port 8080 --replica-id r1 --log-format json',
      description: 'One replica behind a load balancer, logging JSON lines (docs/deploy.md)',
    },
  ],
  run: serve,
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

async function serve(ctx: CommandContext): Promise<number> {
  // First: in JSON mode every line from here on is a JSON record.
  const output = serveOutput(ctx.io, logFormatOf(ctx.io, ctx.values, ctx.commandPath));
  try {
    return await serveWith(ctx, output);
  } finally {
    output.close();
  }
}

async function serveWith(ctx: CommandContext, output: ServeOutput): Promise<number> {
  const { io, values, commandPath } = ctx;
  const options = engineOptions(ctx);
  await ensureDataDir(options.dataDir);
  const deploy = await deployInputs(io, values, commandPath, { dataDir: options.dataDir, auth: options.auth !== false, configGiven: options.configFile !== undefined });
  if (deploy.replicaId !== undefined) options.replicaId = deploy.replicaId;
  if (deploy.configFile !== undefined) options.configFile = deploy.configFile;
  if (deploy.secrets !== undefined) options.secrets = deploy.secrets;
  const { startEngine } = await loadEngine();
  const engine = await startEngine(options);
  const servers = engine.servers();
  if (output.format === 'json') {
    // The output is kept (a container's log): no one-time login link in it.
    output.notice('info', [], `hub running at ${engine.url}`, {
      url: engine.url,
      ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}),
      auth: options.auth !== false,
      servers: servers.map((s) => ({ id: s.id, url: s.url, kind: s.kind, ...(s.disabled ? { disabled: true } : {}) })),
    });
    if (options.auth === false) output.notice('warn', [], 'authentication is OFF (--no-auth): any program or web page able to reach this port can use every configured server; for local testing only');
    if (values.open === true) void openInBrowser(engine.uiLoginUrl(), io);
    const signal = await waitForSignal();
    output.notice('info', [], `${signal} received, shutting down (again to force)`);
    await closeOrForce(engine, io);
    return EXIT_OK;
  }

  const lines = [`patchbay: hub running at ${engine.url}${options.replicaId !== undefined ? ` (replica ${options.replicaId})` : ''}`];
  if (servers.length === 0) {
    lines.push(
      `  no servers yet: add them under "mcpServers" in ${options.configFile ?? cliDataPaths(io, values, commandPath).configFile}`,
    );
  }
  const width = Math.max(0, ...servers.map((s) => s.id.length));
  for (const server of servers) {
    lines.push(
      `  ${server.id.padEnd(width)}  ${server.url}  (${server.kind}${server.disabled ? ', disabled' : ''})`,
    );
  }
  if (options.auth === false) {
    lines.push(
      '',
      '  ******************************************************************',
      '  WARNING: authentication is OFF (--no-auth). Any program or web page',
      '  able to reach this port can use every configured server and the',
      '  credentials behind it. Use this for local testing only.',
      '  ******************************************************************',
      '',
    );
  } else {
    lines.push(`  clients must send the hub token stored in ${engine.tokenFile}`);
  }
  // A one-time ticket, not the hub token: it is traded for a browser cookie on first use. Still a
  // credential until then, so it is not printed where the output is kept on disk (issue 17 item
  // 12: the relay's auto-started hub logs to <data dir>/logs/hub.log).
  if (options.auth === false) lines.push(`  UI: ${engine.url}/ui/`);
  else if (values['no-login-link'] === true) lines.push(`  UI: ${engine.url}/ui/  (log in with the hub token)`);
  else lines.push(`  UI: ${engine.uiLoginUrl()}  (one-time login link)`);
  lines.push('  press Ctrl-C to stop');
  io.stderr.write(lines.join('\n') + '\n');
  if (values.open === true) void openInBrowser(engine.uiLoginUrl(), io);

  const signal = await waitForSignal();
  io.stderr.write(`patchbay: ${signal} received, shutting down (again to force)\n`);
  await closeOrForce(engine, io);
  return EXIT_OK;
}

function engineOptions(ctx: CommandContext): EngineOptions {
  const { io, values, commandPath } = ctx;
  const options: EngineOptions = { dataDir: cliDataPaths(io, values, commandPath).dataDir };
  const config = cliConfigFile(io, values, commandPath);
  if (config.explicit) options.configFile = config.file;
  const port = stringValue(values, 'port', commandPath);
  if (port !== undefined) {
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
      throw new UsageError('--port must be a whole number from 0 to 65535', commandPath);
    }
    options.port = Number(port);
  }
  const host = stringValue(values, 'host', commandPath);
  if (host !== undefined) options.host = host;
  if (values['no-auth'] === true) {
    if (host !== undefined && !LOOPBACK_HOSTS.has(host.toLowerCase())) {
      throw new UsageError(
        `--no-auth is only allowed on a loopback host; on ${host} anyone who can reach the port could use your servers`,
        commandPath,
      );
    }
    options.auth = false;
  }
  return options;
}

/**
 * Opens the UI with the `open` package (PowerShell on Windows and WSL, so the URL arrives intact);
 * a failure is reported, never fatal: the page can be opened by hand.
 */
async function openInBrowser(url: string, io: CliIo): Promise<void> {
  try {
    await platformOpener({ print: () => undefined })(url, { serverId: 'ui' });
  } catch (err) {
    io.stderr.write(`patchbay: could not open a browser (${(err as Error).message}); open the UI at the address above yourself\n`);
  }
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** A second signal during shutdown means the person wants out now. */
async function closeOrForce(engine: RunningEngine, io: CliIo): Promise<void> {
  const force = (): void => {
    io.stderr.write('patchbay: forced exit\n');
    process.exit(1);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  try {
    await engine.close();
  } finally {
    process.off('SIGINT', force);
    process.off('SIGTERM', force);
  }
}
