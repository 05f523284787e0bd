/** `patchbay secrets set|list|delete`: the file secret store that `${secret:NAME}` references read from. */
import { ensureDataDir } from '../../core/index.js';
import { FileSecretStore } from '../../core/index.js';
import { SECRET_NAME_PATTERN } from '../../core/index.js';
import {
  EXIT_FAILURE,
  EXIT_OK,
  UsageError,
  type CliCommand,
  type CommandContext,
} from '../command.js';
import { cliDataPaths, DATA_DIR_OPTION } from '../locations.js';
import { readSecretValue } from '../read-secret.js';

const NAME_ARG = {
  name: 'NAME',
  description: 'Secret name: 1-128 letters, digits, "_", "-" or "."',
};

const setCommand: CliCommand = {
  name: 'set',
  summary: 'Store a secret, reading the value from stdin (hidden when typed)',
  details: [
    'Pipe the value in, or run it in a terminal and type it (input is not echoed).',
    'One trailing newline is removed; an empty value is refused. Replaces any existing value.',
    'Reference it in config.json as "${secret:NAME}" in env values, args, headers or url.',
  ].join('\n'),
  options: [DATA_DIR_OPTION],
  positionals: [NAME_ARG],
  // The extra argument is most likely the value: refuse it (without echoing it) and say why.
  extraArgsMessage:
    '\'secrets set\' takes only NAME: the value is read from stdin so it never lands in shell history or the process list (e.g. printf %s "$VALUE" | patchbay secrets set NAME)',
  examples: [
    {
      command: 'printf %s "$GITHUB_TOKEN" | patchbay secrets set GITHUB_TOKEN',
      description: 'Store a token from an environment variable',
    },
    {
      command: 'patchbay secrets set OPENAI_API_KEY',
      description: 'Type or paste the value at the hidden prompt',
    },
  ],
  async run(ctx) {
    const name = checkedName(ctx);
    const paths = cliDataPaths(ctx.io, ctx.values, ctx.commandPath);
    // Open before reading the value, so a broken store fails before anyone types a secret.
    const store = await FileSecretStore.open(paths.secretsFile);
    try {
      const value = await readSecretValue(ctx.io, `Value for secret ${name} (input hidden): `);
      if (value === '') {
        ctx.io.stderr.write(
          `patchbay: refusing to store an empty value for '${name}' (nothing was read from stdin)\n`,
        );
        return EXIT_FAILURE;
      }
      await ensureDataDir(paths.dataDir);
      await store.set(name, value);
      ctx.io.stderr.write(`patchbay: saved secret '${name}' in ${paths.secretsFile}\n`);
      return EXIT_OK;
    } finally {
      await store.close();
    }
  },
};

const listCommand: CliCommand = {
  name: 'list',
  summary: 'List secret names, one per line (never values)',
  options: [DATA_DIR_OPTION],
  examples: [{ command: 'patchbay secrets list', description: 'Show which secrets exist' }],
  async run(ctx) {
    const store = await FileSecretStore.open(
      cliDataPaths(ctx.io, ctx.values, ctx.commandPath).secretsFile,
    );
    try {
      const names = await store.list();
      if (names.length === 0)
        ctx.io.stderr.write('patchbay: no secrets yet; add one with: patchbay secrets set NAME\n');
      for (const name of names) ctx.io.stdout.write(`${name}\n`);
      return EXIT_OK;
    } finally {
      await store.close();
    }
  },
};

const deleteCommand: CliCommand = {
  name: 'delete',
  summary: 'Delete a secret (exit 1 if there is none by that name)',
  options: [DATA_DIR_OPTION],
  positionals: [NAME_ARG],
  examples: [{ command: 'patchbay secrets delete GITHUB_TOKEN', description: 'Remove a secret' }],
  async run(ctx) {
    const name = checkedName(ctx);
    const store = await FileSecretStore.open(
      cliDataPaths(ctx.io, ctx.values, ctx.commandPath).secretsFile,
    );
    try {
      if (!(await store.delete(name))) {
        ctx.io.stderr.write(`patchbay: no secret named '${name}'\n`);
        return EXIT_FAILURE;
      }
      ctx.io.stderr.write(`patchbay: deleted secret '${name}'\n`);
      return EXIT_OK;
    } finally {
      await store.close();
    }
  },
};

export const secretsCommand: CliCommand = {
  name: 'secrets',
  summary: 'Manage the secrets that config values reference as ${secret:NAME}',
  details: 'Secrets are kept in <data dir>/secrets.json, readable by you only (mode 0600).',
  subcommands: [setCommand, listCommand, deleteCommand],
};

function checkedName(ctx: CommandContext): string {
  const name = ctx.positionals[0] ?? '';
  // Not echoed either: a mistyped name may be a pasted value.
  if (!SECRET_NAME_PATTERN.test(name))
    throw new UsageError(
      'invalid NAME: use 1-128 letters, digits, "_", "-" or "."',
      ctx.commandPath,
    );
  return name;
}
