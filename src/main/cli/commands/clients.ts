/** `patchbay clients`: the MCP clients on this machine, their config files and Patchbay's entries in them. */
import { CLIENT_IDS } from '../../../shared/api/clients-contract.js';
import { FileSecretStore, loadClients, loadConfigTools, type ClientId, type ClientsRuntime } from '../../core/index.js';
import { EXIT_OK, UsageError, type CliCommand, type CliOption, type CommandContext } from '../command.js';
import { cliConfigFile, cliDataPaths, CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';
import { stringValue } from '../parse-args.js';

export const CLIENT_ARG = {
  name: 'CLIENT',
  description: `One of: ${CLIENT_IDS.join(', ')}`,
};

export const FILE_OPTION: CliOption = {
  name: 'file',
  type: 'string',
  valueName: 'FILE',
  description: "Config file to use instead of the client's usual one (e.g. a project's .cursor/mcp.json)",
};

export const JSON_OPTION: CliOption = { name: 'json', type: 'boolean', description: 'Print the result as JSON' };

/** The client id argument, checked. */
export function clientArg(ctx: CommandContext): ClientId {
  const id = ctx.positionals[0] ?? '';
  if (!(CLIENT_IDS as readonly string[]).includes(id)) {
    const shown = /^[\w.-]{1,40}$/.test(id) ? ` '${id}'` : '';
    throw new UsageError(`unknown client${shown}; use one of: ${CLIENT_IDS.join(', ')}`, ctx.commandPath);
  }
  return id as ClientId;
}

/** `--servers a,b` as a list (undefined when absent). */
export function listOption(ctx: CommandContext, name: string): string[] | undefined {
  const raw = stringValue(ctx.values, name, ctx.commandPath);
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`--${name} needs at least one name`, ctx.commandPath);
  return list;
}

/** The clients service over the CLI's data dir and config, for one command; close it after. */
export async function openClients(ctx: CommandContext): Promise<ClientsRuntime & { close(): Promise<void> }> {
  const { io, values, commandPath } = ctx;
  const paths = cliDataPaths(io, values, commandPath);
  const configFile = cliConfigFile(io, values, commandPath).file;
  const [{ ConfigStore }, { createClientsRuntime }] = await Promise.all([loadConfigTools(), loadClients()]);
  const config = await ConfigStore.open(configFile);
  const secrets = await FileSecretStore.open(paths.secretsFile);
  const runtime = createClientsRuntime({ dataDir: paths.dataDir, configFile, config, secrets, host: { platform: io.platform, home: io.homedir, env: io.env } });
  return {
    ...runtime,
    close: async () => {
      await secrets.close();
      await config.close();
    },
  };
}

export const clientsCommand: CliCommand = {
  name: 'clients',
  summary: 'List the MCP clients on this machine, their config files and Patchbay’s entries in them',
  details: [
    'A client counts as installed when its app, its config folder or its command is found.',
    'PATCHBAY shows how many entries point at Patchbay; OTHER the client’s own servers.',
  ].join('\n'),
  options: [JSON_OPTION, CONFIG_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay clients', description: 'Which clients are installed and what they hold' },
    { command: 'patchbay clients --json', description: 'The same, for scripts' },
  ],
  async run(ctx) {
    const clients = await openClients(ctx);
    try {
      const states = await clients.service.list();
      if (ctx.values.json === true) {
        ctx.io.stdout.write(JSON.stringify(states, null, 2) + '\n');
        return EXIT_OK;
      }
      const rows = states.map((s) => [
        s.id,
        s.installed ? 'yes' : 'no',
        s.status,
        String(s.entries.filter((e) => e.patchbay).length),
        String(s.entries.filter((e) => !e.patchbay).length),
        s.configPath,
      ]);
      const header = ['CLIENT', 'INSTALLED', 'STATUS', 'PATCHBAY', 'OTHER', 'CONFIG'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const row of [header, ...rows]) ctx.io.stdout.write(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ') + '\n');
      for (const s of states) if (s.problem) ctx.io.stderr.write(`patchbay: ${s.id}: ${s.problem}\n`);
      return EXIT_OK;
    } finally {
      await clients.close();
    }
  },
};
