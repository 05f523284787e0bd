/** `patchbay config path|check`: where the config lives, and whether it is valid. */
import { readFile } from 'node:fs/promises';
import { errCode, FileSecretStore, loadConfigTools } from '../../core/index.js';
import { EXIT_FAILURE, EXIT_OK, type CliCommand, type CommandContext } from '../command.js';
import { cliConfigFile, cliDataPaths, CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';

const pathCommand: CliCommand = {
  name: 'path',
  summary: 'Print the path of the config file (it may not exist yet)',
  options: [DATA_DIR_OPTION],
  examples: [
    {
      command: '"$EDITOR" "$(patchbay config path)"',
      description: 'Open the config in your editor',
    },
  ],
  async run(ctx) {
    ctx.io.stdout.write(`${cliConfigFile(ctx.io, ctx.values, ctx.commandPath).file}\n`);
    return EXIT_OK;
  },
};

const checkCommand: CliCommand = {
  name: 'check',
  summary: 'Validate the config; print each problem with its JSON path',
  details:
    'Also warns (without failing) about ${secret:NAME} references to secrets that are not set.',
  options: [CONFIG_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay config check', description: 'Check <data dir>/config.json' },
    {
      command: 'patchbay config check --config ./my-config.json',
      description: 'Check another file',
    },
  ],
  run: check,
};

export const configCommand: CliCommand = {
  name: 'config',
  summary: 'Find and validate config.json (the mcpServers your MCP clients already use)',
  subcommands: [pathCommand, checkCommand],
};

async function check(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const { file } = cliConfigFile(io, ctx.values, ctx.commandPath);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') {
      io.stdout.write(
        `${file}: no config file yet; Patchbay starts with no servers (it is created on the first change)\n`,
      );
      return EXIT_OK;
    }
    io.stdout.write(`${file}: cannot read the file (${errCode(err) ?? String(err)})\n`);
    return EXIT_FAILURE;
  }
  const { parseConfigText, findSecretRefs } = await loadConfigTools();
  const result = parseConfigText(text, file);
  if (!result.ok) {
    const n = result.problems.length;
    io.stdout.write(`${file}: ${n} problem${n === 1 ? '' : 's'}\n`);
    for (const problem of result.problems)
      io.stdout.write(`  ${problem.path}: ${problem.message}\n`);
    return EXIT_FAILURE;
  }
  const ids = Object.keys(result.config.mcpServers);
  io.stdout.write(
    `${file}: OK, ${ids.length} server${ids.length === 1 ? '' : 's'}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}\n`,
  );
  for (const warning of await secretWarnings(ctx, findSecretRefs(result.config)))
    io.stdout.write(`  warning: ${warning}\n`);
  return EXIT_OK;
}

/** References that would stop a server from starting; warnings only, since secrets may be added later. */
async function secretWarnings(
  ctx: CommandContext,
  refs: ReturnType<Awaited<ReturnType<typeof loadConfigTools>>['findSecretRefs']>,
): Promise<string[]> {
  if (refs.length === 0) return [];
  const warnings: string[] = [];
  const secretsFile = cliDataPaths(ctx.io, ctx.values, ctx.commandPath).secretsFile;
  let names: Set<string>;
  try {
    // Opening never creates the file: a missing store simply has no names.
    const store = await FileSecretStore.open(secretsFile);
    try {
      names = new Set(await store.list());
    } finally {
      await store.close();
    }
  } catch (err) {
    return [
      `could not read the secret store to check references: ${err instanceof Error ? err.message : String(err)}`,
    ];
  }
  for (const ref of refs) {
    if (!ref.valid)
      warnings.push(
        `${ref.path}: invalid \${secret:NAME} reference (names use letters, digits, "_", "-" and ".")`,
      );
    else if (!names.has(ref.name))
      warnings.push(
        `${ref.path}: secret '${ref.name}' is not set (patchbay secrets set ${ref.name})`,
      );
  }
  return warnings;
}
